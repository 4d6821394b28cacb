package controller

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	ctrl "platform.io/client/controller"

	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/run"
)

func TestSyncs(t *testing.T) {
	tests := []struct {
		args    []string
		want    int
		wantErr string
	}{
		{want: 5},
		{args: []string{"--concurrent-x-syncs=12"}, want: 12},
		{args: []string{"--concurrent-x-syncs=1"}, want: 1},
		{args: []string{"--concurrent-x-syncs=0"}, want: 0, wantErr: "--concurrent-x-syncs must be at least 1, got 0"},
		{args: []string{"--concurrent-x-syncs=-3"}, want: -3, wantErr: "--concurrent-x-syncs must be at least 1, got -3"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			s := NewSyncs("concurrent-x-syncs", 5, "Xs synced at once.")
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			s.AddFlags(fs)
			if got := fs.Lookup("concurrent-x-syncs"); got == nil || got.Usage != "Xs synced at once." || got.DefValue != "5" {
				t.Fatalf("flag %+v", got)
			}
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if s.Workers != tc.want {
				t.Errorf("workers %d, want %d", s.Workers, tc.want)
			}
			var got string
			if errs := s.Validate(); len(errs) > 0 {
				got = errors.Join(errs...).Error()
			}
			if got != tc.wantErr {
				t.Errorf("Validate() = %q, want %q", got, tc.wantErr)
			}
		})
	}
}

// loopOptions are a loop's flags embedding Syncs.
type loopOptions struct{ Syncs }

// otherOptions are another loop's flags.
type otherOptions struct{ Syncs }

type fakeLoop struct{ o *loopOptions }

func (fakeLoop) Run(context.Context) error { return nil }

func TestRegister(t *testing.T) {
	newOptions := func() *loopOptions { return &loopOptions{NewSyncs("concurrent-x-syncs", 2, "")} }
	errBuild := errors.New("build failed")
	tests := []struct {
		name    string
		opts    Options
		fail    bool
		wantErr bool
	}{
		{name: "its options", opts: newOptions()},
		{name: "other options", opts: &otherOptions{}, wantErr: true},
		{name: "no options", opts: nil, wantErr: true},
		{name: "build error", opts: newOptions(), fail: true, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Register("x", newOptions, func(_ Context, o *loopOptions) (*fakeLoop, error) {
				if tc.fail {
					return nil, errBuild
				}
				return &fakeLoop{o}, nil
			})
			if d.Name != "x" || d.DisabledByDefault {
				t.Fatalf("descriptor %+v", d)
			}
			if o, ok := d.NewOptions().(*loopOptions); !ok || o.Workers != 2 {
				t.Fatalf("NewOptions() = %#v", d.NewOptions())
			}
			r, err := d.New(Context{}, tc.opts)
			if (err != nil) != tc.wantErr {
				t.Fatalf("New: %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				if r != nil {
					t.Errorf("New failed with a non-nil Runnable %#v", r)
				}
				return
			}
			if l, ok := r.(*fakeLoop); !ok || l.o != tc.opts {
				t.Errorf("New() = %#v, want the loop built with the options given", r)
			}
		})
	}
}

func TestNewLoop(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	c := Context{Deps: &daemon.Deps{Logger: zap.New(core)}}
	reconciled := make(chan string, 1)
	loop, err := c.NewLoop("things", ctrl.Func(func(_ context.Context, key string) (ctrl.Result, error) {
		reconciled <- key
		return ctrl.Result{}, fmt.Errorf("broken: %w", ctrl.ErrTerminal)
	}), 2)
	if err != nil {
		t.Fatal(err)
	}
	var _ run.Runnable = loop
	if loop.Name() != "things" {
		t.Errorf("name %q", loop.Name())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- loop.Run(ctx) }()
	loop.Enqueue("ns/a")
	if key := <-reconciled; key != "ns/a" {
		t.Errorf("reconciled %q", key)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	type entry struct{ Logger, Message, Key string }
	var got []entry
	for _, e := range logs.All() {
		got = append(got, entry{e.LoggerName, e.Message, e.ContextMap()["key"].(string)})
	}
	if diff := cmp.Diff([]entry{{"things", "sync failed", "ns/a"}}, got); diff != "" {
		t.Errorf("logged (-want +got):\n%s", diff)
	}

	if _, err := c.NewLoop("", ctrl.Func(nil), 1); err == nil {
		t.Error("a loop without a name was built")
	}
}
