package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"platform.io/client/workqueue"
)

type recorder struct {
	mu      sync.Mutex
	calls   map[string]int
	active  map[string]bool
	overlap atomic.Bool
	fn      func(key string, n int) (Result, error)
}

func (r *recorder) Reconcile(_ context.Context, key string) (Result, error) {
	r.mu.Lock()
	if r.active[key] {
		r.overlap.Store(true)
	}
	r.active[key] = true
	r.calls[key]++
	n := r.calls[key]
	r.mu.Unlock()
	time.Sleep(time.Millisecond)
	res, err := r.fn(key, n)
	r.mu.Lock()
	r.active[key] = false
	r.mu.Unlock()
	return res, err
}

func (r *recorder) count(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[key]
}

func fastLimiter() workqueue.RateLimiter[string] {
	rl, err := workqueue.NewExponentialRateLimiter[string](workqueue.ExponentialOptions{Base: time.Millisecond, Max: 10 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	return rl
}

func TestController(t *testing.T) {
	terminal := fmt.Errorf("bad spec: %w", ErrTerminal)
	tests := []struct {
		name string
		fn   func(key string, n int) (Result, error)
		want int // calls of key "a" once the loop is quiet
	}{
		{"success once", func(string, int) (Result, error) { return Result{}, nil }, 1},
		{"error retried until success", func(_ string, n int) (Result, error) {
			if n < 3 {
				return Result{}, errors.New("transient")
			}
			return Result{}, nil
		}, 3},
		{"terminal error not retried", func(string, int) (Result, error) { return Result{}, terminal }, 1},
		{"requeue after", func(_ string, n int) (Result, error) {
			if n < 2 {
				return Result{RequeueAfter: 5 * time.Millisecond}, nil
			}
			return Result{}, nil
		}, 2},
		{"requeue with backoff", func(_ string, n int) (Result, error) { return Result{Requeue: n < 4}, nil }, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{calls: map[string]int{}, active: map[string]bool{}, fn: tc.fn}
			var errs atomic.Int32
			c, err := New(r, Options{Name: "test", Workers: 4, RateLimiter: fastLimiter(),
				OnError: func(string, error) { errs.Add(1) }})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error)
			go func() { done <- c.Run(ctx) }()
			for range 20 {
				c.Enqueue("a") // duplicates collapse or serialize, never overlap
			}
			deadline := time.Now().Add(5 * time.Second)
			for r.count("a") < tc.want && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(50 * time.Millisecond) // nothing more should happen
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			// 20 adds while the first is processing may cause one extra pass.
			if got := r.count("a"); got < tc.want || got > tc.want+1 {
				t.Errorf("calls = %d, want %d (or one more)", got, tc.want)
			}
			if r.overlap.Load() {
				t.Error("one key was reconciled by two workers at once")
			}
		})
	}
}

func TestNewNeedsName(t *testing.T) {
	if _, err := New(Func(nil), Options{}); err == nil {
		t.Fatal("New with no name succeeded")
	}
}

func TestRunDrains(t *testing.T) {
	started := make(chan struct{})
	var finished atomic.Bool
	c, err := New(Func(func(ctx context.Context, _ string) (Result, error) {
		close(started)
		time.Sleep(20 * time.Millisecond)
		finished.Store(true)
		return Result{}, nil
	}), Options{Name: "drain"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Run(ctx) }()
	c.Enqueue("k")
	<-started
	cancel()
	<-done
	if !finished.Load() {
		t.Fatal("Run returned before the key in progress finished")
	}
}

func TestExpectations(t *testing.T) {
	now := time.Unix(0, 0)
	e := NewExpectations(time.Minute, func() time.Time { return now })
	if !e.Satisfied("ns/a") {
		t.Fatal("unknown key not satisfied")
	}
	e.Expect("ns/a", 2, 1)
	e.Observed("ns/a", true)
	if e.Satisfied("ns/a") {
		t.Fatal("satisfied with one add and one delete pending")
	}
	e.Observed("ns/a", true)
	e.Observed("ns/a", false)
	if !e.Satisfied("ns/a") {
		t.Fatal("not satisfied after every write was observed")
	}
	e.Expect("ns/b", 1, 0)
	now = now.Add(2 * time.Minute)
	if !e.Satisfied("ns/b") {
		t.Fatal("expired expectations still pending")
	}
	e.Expect("ns/c", 1, 0)
	e.Forget("ns/c")
	if !e.Satisfied("ns/c") {
		t.Fatal("forgotten expectations still pending")
	}
}
