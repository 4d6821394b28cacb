package garbagecollector

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/discovery"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "garbagecollector"

// retryVirtualAfter spaces the checks of a virtual owner whose dependents
// disagree on where it is.
const retryVirtualAfter = time.Second

// absentCacheSize bounds the owners remembered as absent (upstream's 500).
const absentCacheSize = 500

// DefaultDiscoveryPeriod is how often the collector reads discovery again,
// to watch new resources (custom ones) and stop watching removed ones; as
// upstream, which has no flag for it.
const DefaultDiscoveryPeriod = 30 * time.Second

// Options are the loop's flags.
type Options struct {
	// Syncs is --concurrent-gc-syncs, the workers of each queue.
	controller.Syncs
	// Enabled turns the collector on; off, it watches and deletes nothing.
	Enabled bool
	// DiscoveryPeriod is how often discovery is read again. It has no
	// flag; tests shorten it.
	DiscoveryPeriod time.Duration
}

// NewOptions returns the defaults: 20 workers, enabled, discovery every 30s.
func NewOptions() *Options {
	return &Options{
		Syncs: controller.NewSyncs("concurrent-gc-syncs", 20,
			"The number of garbage collector workers that are allowed to sync concurrently."),
		Enabled:         true,
		DiscoveryPeriod: DefaultDiscoveryPeriod,
	}
}

// AddFlags adds --concurrent-gc-syncs and --enable-garbage-collector.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.Syncs.AddFlags(fs)
	fs.BoolVar(&o.Enabled, "enable-garbage-collector", o.Enabled,
		"Enables the generic garbage collector. Deletions with propagation policy Foreground or Orphan wait for it.")
}

// Validate checks the worker count and the discovery period.
func (o *Options) Validate() []error {
	errs := o.Syncs.Validate()
	if o.DiscoveryPeriod <= 0 {
		errs = append(errs, fmt.Errorf("garbage collector discovery period must be positive, got %v", o.DiscoveryPeriod))
	}
	return errs
}

// Descriptor registers the garbage collector.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, New)
}

// New returns the collector: while it runs, discovery is read every
// DiscoveryPeriod and decides what it watches (every resource that can be
// listed, watched and deleted, custom ones included, events excepted); the
// informers feed the graph, and the two worker loops, attemptToDelete and
// attemptToOrphan, start once the first monitors have synced (or a period
// has passed).
func New(c controller.Context, o *Options) (run.Runnable, error) {
	lg := c.Logger.Named(Name)
	if !o.Enabled {
		lg.Info("garbage collector disabled by --enable-garbage-collector=false")
		return run.Func(func(ctx context.Context) error { <-ctx.Done(); return nil }), nil
	}
	typed, missing := typedTable(c.Clients, c.Informers)
	for _, r := range missing {
		lg.Warn("served resource has no typed client in the garbage collector; it is watched through its metadata",
			zap.String("resource", r.GroupResource().String()))
	}
	col := &collector{lg: lg, cat: &catalog{}, rec: c.Recorder}
	del, err := c.NewLoop("garbage_collector_attempt_to_delete", deleter{col}, o.Workers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	orph, err := c.NewLoop("garbage_collector_attempt_to_orphan", orphaner{col}, o.Workers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	col.queue = queues{
		delete:      func(uid meta.UID) { del.Enqueue(string(uid)) },
		deleteLater: func(uid meta.UID) { del.EnqueueAfter(string(uid), retryVirtualAfter) },
		orphan:      func(uid meta.UID) { orph.Enqueue(string(uid)) },
	}
	col.g = newGraph(col.cat.scope, col.queue, absentCacheSize)
	mons := &monitors{lg: lg, typed: typed, dyn: client.NewDynamic(c.REST), cat: col.cat, g: col.g,
		running: map[meta.GroupResource]*monitor{}}
	set := c.DiscoverySet()
	return run.Func(func(ctx context.Context) error {
		g, gctx := errgroup.WithContext(ctx)
		ready := make(chan struct{})
		g.Go(func() error {
			var once sync.Once
			set.Run(gctx, o.DiscoveryPeriod, func(snap discovery.Snapshot, err error) {
				if !resync(gctx, lg, mons, set, snap, err, o.DiscoveryPeriod) {
					return
				}
				once.Do(func() { close(ready) })
			})
			return nil
		})
		for _, loop := range []run.Runnable{del, orph} {
			g.Go(func() error {
				select {
				case <-ready:
				case <-gctx.Done():
					return nil
				}
				return loop.Run(gctx)
			})
		}
		err := g.Wait()
		mons.wait()
		return err
	}), nil
}

// resync applies one discovery to the monitors and waits, at most a
// period, for the new ones to sync. It reports false when there is
// nothing to apply: discovery failed and none ever succeeded.
func resync(ctx context.Context, lg *zap.Logger, mons *monitors, set *discovery.Set, snap discovery.Snapshot, err error, period time.Duration) bool {
	if err != nil {
		lg.Warn("discovery failed; the monitors stay as they are", zap.Error(err))
		if _, ok := set.Last(); !ok {
			return false
		}
	}
	for gv, e := range snap.Failed {
		lg.Warn("group version not discovered; its resources stay watched as last discovered",
			zap.String("groupVersion", gv.String()), zap.Error(e))
	}
	added, dropped := mons.sync(ctx, snap)
	for _, m := range added {
		lg.Debug("watching resource", zap.String("group", m.gk.Group), zap.String("kind", m.gk.Kind))
	}
	for _, gr := range dropped {
		lg.Info("resource no longer served; stopped watching it", zap.String("resource", gr.String()))
	}
	if !waitSynced(ctx, added, period) && ctx.Err() == nil {
		lg.Warn("some new monitors did not sync within the discovery period; going on", zap.Int("monitors", len(added)))
	}
	return true
}
