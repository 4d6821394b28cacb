package garbagecollector

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	"platform.io/client/api/meta"

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

// Options are the loop's flags.
type Options struct {
	// Syncs is --concurrent-gc-syncs, the workers of each queue.
	controller.Syncs
	// Enabled turns the collector on; off, it watches and deletes nothing.
	Enabled bool
}

// NewOptions returns the defaults: 20 workers, enabled.
func NewOptions() *Options {
	return &Options{
		Syncs: controller.NewSyncs("concurrent-gc-syncs", 20,
			"The number of garbage collector workers that are allowed to sync concurrently."),
		Enabled: true,
	}
}

// AddFlags adds --concurrent-gc-syncs and --enable-garbage-collector.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.Syncs.AddFlags(fs)
	fs.BoolVar(&o.Enabled, "enable-garbage-collector", o.Enabled,
		"Enables the generic garbage collector. Deletions with propagation policy Foreground or Orphan wait for it.")
}

// Descriptor registers the garbage collector.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, New)
}

// New declares an informer for every served resource but events, builds
// the graph from them, and returns the two worker loops: attemptToDelete
// and attemptToOrphan.
func New(c controller.Context, o *Options) (run.Runnable, error) {
	lg := c.Logger.Named(Name)
	if !o.Enabled {
		lg.Info("garbage collector disabled by --enable-garbage-collector=false")
		return run.Func(func(ctx context.Context) error { <-ctx.Done(); return nil }), nil
	}
	table, missing := resourceTable(c.Clients)
	for _, r := range missing {
		lg.Warn("served resource has no typed client in the garbage collector; its objects are not collected",
			zap.String("resource", r.GroupResource().String()))
	}
	col := &collector{lg: lg, ops: table, rec: c.Recorder}
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
	col.g = newGraph(scopeOf(table), col.queue, absentCacheSize)
	if err := inform(c, table, col.g); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return run.Func(func(ctx context.Context) error {
		g, gctx := errgroup.WithContext(ctx)
		g.Go(func() error { return del.Run(gctx) })
		g.Go(func() error { return orph.Run(gctx) })
		return g.Wait()
	}), nil
}

// inform declares the informers of the watched resources, in a stable
// order, all feeding g.
func inform(c controller.Context, table map[groupKind]ops, g *graph) error {
	keys := make([]groupKind, 0, len(table))
	for gk := range table {
		keys = append(keys, gk)
	}
	slices.SortFunc(keys, func(a, b groupKind) int {
		return strings.Compare(a.Group+"/"+a.Kind, b.Group+"/"+b.Kind)
	})
	var errs []error
	for _, gk := range keys {
		if o := table[gk]; o.watch {
			errs = append(errs, o.inform(c.Informers, g.process))
		}
	}
	return errors.Join(errs...)
}

// scopeOf answers the graph's scope questions from the table.
func scopeOf(table map[groupKind]ops) scopeFunc {
	return func(gk groupKind) (bool, bool) {
		o, ok := table[gk]
		return o.info.Namespaced, ok
	}
}
