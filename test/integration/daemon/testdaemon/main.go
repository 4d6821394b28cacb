// Command testdaemon is a daemon built on the shared runner whose only
// work is to record acts: while it leads, it appends "<identity> <unix
// nanoseconds>" to --act-log every --act-interval, each act guarded by
// IsLeader. The leader-election tests run several of them and read the log.
//
// With --act-write each act is also a ConfigMap created through the API
// server with the daemon's work client (so it carries the leader lock);
// the act is logged only once the write has landed, and a write refused
// for the lock is logged as "act refused". With --act-unguarded acts skip
// the IsLeader check and one more act is made after the term ends, as a
// worker finishing the item it had started would: only the API server's
// fencing can then stop a stale leader's writes. With --saturate N, N
// goroutines keep the work client's rate limiter full while leading.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
)

// Annotations of the ConfigMaps --act-write creates.
const (
	holderAnnotation = "testdaemon.platform.io/holder"
	atAnnotation     = "testdaemon.platform.io/at"
)

type actOptions struct {
	log       string
	interval  time.Duration
	write     bool
	namespace string
	unguarded bool
	saturate  int
}

func (o *actOptions) Groups() []cli.NamedFlagSet {
	return []cli.NamedFlagSet{cli.Group("Acts", func(fs *pflag.FlagSet) {
		fs.StringVar(&o.log, "act-log", o.log, "File to append acts to.")
		fs.DurationVar(&o.interval, "act-interval", o.interval, "Time between acts.")
		fs.BoolVar(&o.write, "act-write", o.write, "Each act also creates a ConfigMap through the API server.")
		fs.StringVar(&o.namespace, "act-namespace", o.namespace, "Namespace of the ConfigMaps of --act-write.")
		fs.BoolVar(&o.unguarded, "act-unguarded", o.unguarded, "Acts skip the IsLeader check, and one more is made after the term ends.")
		fs.IntVar(&o.saturate, "saturate", o.saturate, "Goroutines that keep the work client's rate limiter full while leading.")
	})}
}

func (o *actOptions) Validate() []error {
	if o.log == "" || o.interval <= 0 || o.saturate < 0 {
		return []error{fmt.Errorf("--act-log, a positive --act-interval and a non-negative --saturate are required")}
	}
	return nil
}

// actor makes the acts.
type actor struct {
	o   *actOptions
	d   *daemon.Deps
	f   *os.File
	mu  sync.Mutex // mu guards f's writes
	seq int
}

// act makes one act and logs it once done.
func (a *actor) act(ctx context.Context) error {
	at := time.Now()
	if a.o.write {
		a.seq++
		cm := &corev1.ConfigMap{
			TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: meta.ObjectMeta{GenerateName: "act-", Namespace: a.o.namespace, Annotations: map[string]string{
				holderAnnotation: a.d.Identity, atAnnotation: strconv.FormatInt(at.UnixNano(), 10),
			}},
		}
		err := a.d.REST.Post().Version("v1").Namespace(a.o.namespace).Resource("configmaps").Body(cm).Do(ctx).Error()
		switch {
		case apierrors.IsNotLeader(err):
			a.d.Logger.Warn("act refused", zap.String("identity", a.d.Identity), zap.Int("seq", a.seq), zap.Error(err))
			return nil
		case err != nil:
			a.d.Logger.Warn("act failed", zap.String("identity", a.d.Identity), zap.Int("seq", a.seq), zap.Error(err))
			return nil
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err := fmt.Fprintf(a.f, "%s %d\n", a.d.Identity, at.UnixNano())
	return err
}

// saturate keeps the work client busy with reads until ctx ends.
func (a *actor) saturate(ctx context.Context) {
	for i := 0; i < a.o.saturate; i++ {
		go func() {
			for ctx.Err() == nil {
				_ = a.d.REST.Get().Version("v1").Namespace(a.o.namespace).Resource("configmaps").Param("limit", "1").Do(ctx).Error()
			}
		}()
	}
	a.d.Logger.Info("saturating the work client", zap.Int("goroutines", a.o.saturate))
}

func (a *actor) run(ctx context.Context) error {
	a.saturate(ctx)
	t := time.NewTicker(a.o.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if a.o.unguarded {
				// The act in hand is finished, whatever happened to the term.
				fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
				defer cancel()
				return a.act(fctx)
			}
			return nil
		case <-t.C:
		}
		if !a.o.unguarded && (!a.d.IsLeader() || ctx.Err() != nil) {
			continue
		}
		if err := a.act(ctx); err != nil {
			return err
		}
	}
}

func main() {
	// inflight is the work still running; the process waits for it (a
	// little) after the runner returns, as a process whose last write is on
	// the wire would.
	var inflight sync.WaitGroup
	code := daemon.Main(daemon.Spec{
		Name:     "testdaemon",
		Defaults: options.Defaults{Name: "testdaemon", QPS: 50, Burst: 100, LeaseName: "testdaemon"},
		NewOptions: func() daemon.Options {
			return &actOptions{interval: 50 * time.Millisecond, namespace: "default"}
		},
		New: func(_ context.Context, d *daemon.Deps) (run.Runnable, error) {
			o := d.Own.(*actOptions)
			f, err := os.OpenFile(o.log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			a := &actor{o: o, d: d, f: f}
			return run.Func(func(ctx context.Context) error {
				inflight.Add(1)
				defer inflight.Done()
				defer f.Close()
				return a.run(ctx)
			}), nil
		},
	}, os.Args[1:])
	done := make(chan struct{})
	go func() { inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
	}
	os.Exit(code)
}
