package run

import (
	"context"
	"errors"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap/zaptest"
)

// recorder keeps the order of events.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(e string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

// fakeServer records when shutdown begins and when its context ends.
type fakeServer struct {
	rec *recorder
	err error
}

func (s *fakeServer) BeginShutdown() { s.rec.add("server: begin shutdown") }

func (s *fakeServer) Run(ctx context.Context) error {
	if s.err != nil {
		return s.err
	}
	<-ctx.Done()
	s.rec.add("server: closed")
	return nil
}

func TestShutdownOrder(t *testing.T) {
	tests := []struct {
		name       string
		trigger    func(cancel context.CancelFunc)
		compErr    error
		serverErr  error
		wantErr    string
		wantEvents []string
	}{
		{name: "parent context", trigger: func(cancel context.CancelFunc) { cancel() }},
		{name: "SIGTERM", trigger: func(context.CancelFunc) { syscall.Kill(syscall.Getpid(), syscall.SIGTERM) }},
		{name: "component failure", trigger: func(context.CancelFunc) {}, compErr: errors.New("informer broke"), wantErr: "informer broke"},
	}
	full := []string{"server: begin shutdown", "stop leading", "drain", "component: stopped", "server: closed"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			started := make(chan struct{})
			comp := Func(func(ctx context.Context) error {
				close(started)
				if tt.compErr != nil {
					return tt.compErr
				}
				<-ctx.Done()
				rec.add("component: stopped")
				return ctx.Err()
			})
			hook := func(name string) func(context.Context) error {
				return func(context.Context) error { rec.add(name); return nil }
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				done <- Run(ctx, zaptest.NewLogger(t), Config{
					Server: &fakeServer{rec: rec}, Components: []Runnable{comp},
					StopLeading: hook("stop leading"), Drain: hook("drain"), ShutdownTimeout: 5 * time.Second,
				})
			}()
			<-started // the signal handler is installed before components start
			tt.trigger(cancel)
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return")
			}
			if (err != nil) != (tt.wantErr != "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Run = %v, want error %q", err, tt.wantErr)
			}
			want := full
			if tt.compErr != nil {
				want = []string{"server: begin shutdown", "stop leading", "drain", "server: closed"}
			}
			if diff := cmp.Diff(want, rec.list()); diff != "" {
				t.Fatalf("events (-want +got):\n%s", diff)
			}
		})
	}
}

func TestServerFailureStopsComponents(t *testing.T) {
	rec := &recorder{}
	comp := Func(func(ctx context.Context) error { <-ctx.Done(); rec.add("component: stopped"); return nil })
	err := Run(context.Background(), zaptest.NewLogger(t), Config{
		Server: &fakeServer{rec: rec, err: errors.New("address in use")}, Components: []Runnable{comp},
	})
	if err == nil || !strings.Contains(err.Error(), "address in use") {
		t.Fatalf("Run = %v", err)
	}
	if diff := cmp.Diff([]string{"server: begin shutdown", "component: stopped"}, rec.list()); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
}

func TestShutdownTimeout(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	stuck := Func(func(context.Context) error { <-block; return nil })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	err := Run(ctx, zaptest.NewLogger(t), Config{Components: []Runnable{stuck}, ShutdownTimeout: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Run = %v, want a timeout", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Run took %s", d)
	}
}

func TestHookErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Run(ctx, zaptest.NewLogger(t), Config{
		StopLeading: func(context.Context) error { return errors.New("release failed") },
		Drain:       func(context.Context) error { return nil },
	})
	if err == nil || !strings.Contains(err.Error(), "stop leading: release failed") {
		t.Fatalf("Run = %v", err)
	}
}
