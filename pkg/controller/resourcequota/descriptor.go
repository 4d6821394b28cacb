package resourcequota

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/quota"
)

// Name is the loop's name in --controllers.
const Name = "resourcequota"

// Options are the loop's flags.
type Options struct {
	controller.Syncs
	// SyncPeriod is --resource-quota-sync-period: how often every quota
	// is recounted.
	SyncPeriod time.Duration
}

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options {
	return &Options{
		Syncs: controller.NewSyncs("concurrent-resource-quota-syncs", 5,
			"How many resource quotas are recounted at once. More workers bring status.used up to date sooner, at the cost of more CPU and API traffic."),
		SyncPeriod: 5 * time.Minute,
	}
}

// AddFlags registers the loop's flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.Syncs.AddFlags(fs)
	fs.DurationVar(&o.SyncPeriod, "resource-quota-sync-period", o.SyncPeriod, "How often every resource quota's status.used is recounted from scratch, besides the recounts that deletions and spec changes trigger.")
}

// Validate reports invalid flag values.
func (o *Options) Validate() []error {
	errs := o.Syncs.Validate()
	if o.SyncPeriod <= 0 {
		errs = append(errs, fmt.Errorf("--resource-quota-sync-period must be positive, got %s", o.SyncPeriod))
	}
	return errs
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (run.Runnable, error) {
		return New(c, o, time.Now)
	})
}

// New declares the informers of quotas and of every tracked resource on c
// and returns the loop, which recounts quotas on o.Workers workers.
func New(c controller.Context, o *Options, now func() time.Time) (run.Runnable, error) {
	qinf, err := client.Inform(c.Informers, c.Clients.ResourceQuotas)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	quotas := qinf.Lister()
	r := &reconciler{quotas: quotas, write: apiWriter{c.Clients}, now: now}
	loop, err := c.NewLoop(Name, r, o.Workers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	enqueueNamespace := func(ns string) {
		qs, _ := quotas.Namespace(ns).List(nil)
		for _, q := range qs {
			loop.Enqueue(informer.KeyFor(q.Namespace, q.Name))
		}
	}
	if _, err := qinf.AddEventHandler(informer.ResourceEventHandler[*corev1.ResourceQuota]{
		OnAdd: func(q *corev1.ResourceQuota, _ bool) { loop.Enqueue(informer.KeyFor(q.Namespace, q.Name)) },
		OnUpdate: func(old, q *corev1.ResourceQuota) {
			if !quota.Equal(q.Spec.Hard, q.Status.Hard) || !quota.Equal(old.Spec.Hard, q.Spec.Hard) ||
				!equalSelectors(old, q) {
				loop.Enqueue(informer.KeyFor(q.Namespace, q.Name))
			}
		},
		OnDelete: func(q *corev1.ResourceQuota) { enqueueNamespace(q.Namespace) },
	}); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	r.sources, err = sources(c, now, enqueueNamespace)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return run.Func(func(ctx context.Context) error {
		go resyncEvery(ctx, o.SyncPeriod, func() {
			qs, _ := quotas.List(nil)
			for _, q := range qs {
				loop.Enqueue(informer.KeyFor(q.Namespace, q.Name))
			}
		})
		return loop.Run(ctx)
	}), nil
}

// resyncEvery calls f every period until ctx ends.
func resyncEvery(ctx context.Context, period time.Duration, f func()) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

func equalSelectors(a, b *corev1.ResourceQuota) bool {
	return fmt.Sprint(a.Spec.Scopes, a.Spec.ScopeSelector) == fmt.Sprint(b.Spec.Scopes, b.Spec.ScopeSelector)
}

// apiWriter writes quota status through the API server.
type apiWriter struct{ c *client.Set }

func (a apiWriter) updateStatus(ctx context.Context, q *corev1.ResourceQuota) error {
	_, err := a.c.ResourceQuotas.Namespace(q.Namespace).UpdateStatus(ctx, q, meta.WriteOptions{})
	return err
}

var _ ctrl.Reconciler = (*reconciler)(nil)
