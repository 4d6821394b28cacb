package deployment

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "deployment"

// Options are the loop's flags.
type Options struct {
	// ConcurrentSyncs is how many Deployments are synced at once.
	ConcurrentSyncs int
	// SyncPeriod is how often every Deployment is synced even when nothing
	// changed.
	SyncPeriod time.Duration
}

// NewOptions returns the defaults.
func NewOptions() *Options { return &Options{ConcurrentSyncs: 5, SyncPeriod: 30 * time.Second} }

// AddFlags adds the loop's flags to fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.ConcurrentSyncs, "concurrent-deployment-syncs", o.ConcurrentSyncs,
		"The number of deployment objects that are allowed to sync concurrently. Larger number = more responsive deployments, but more CPU (and network) load")
	fs.DurationVar(&o.SyncPeriod, "deployment-controller-sync-period", o.SyncPeriod,
		"Period for syncing the deployments.")
}

// Validate checks the flags.
func (o *Options) Validate() []error {
	var errs []error
	if o.ConcurrentSyncs < 1 {
		errs = append(errs, fmt.Errorf("--concurrent-deployment-syncs must be at least 1, got %d", o.ConcurrentSyncs))
	}
	if o.SyncPeriod < time.Second {
		errs = append(errs, fmt.Errorf("--deployment-controller-sync-period must be at least 1s, got %v", o.SyncPeriod))
	}
	return errs
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Descriptor{
		Name:       Name,
		NewOptions: func() controller.Options { return NewOptions() },
		New: func(c controller.Context, opts controller.Options) (run.Runnable, error) {
			o, ok := opts.(*Options)
			if !ok {
				return nil, fmt.Errorf("deployment: options of type %T", opts)
			}
			return New(c, o)
		},
	}
}

// New declares the informers the loop reads (Deployments, ReplicaSets,
// pods), wires their handlers to its queue, and returns the loop.
func New(c controller.Context, o *Options) (run.Runnable, error) {
	dInf, err := client.Inform(c.Informers, c.Clients.Deployments)
	if err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	rsInf, err := client.Inform(c.Informers, c.Clients.ReplicaSets)
	if err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	podInf, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	lg := c.Logger.Named(Name)
	r := &Reconciler{
		lg:        lg,
		dLister:   dInf.Lister(),
		rsLister:  rsInf.Lister(),
		podLister: podInf.Lister(),
		dClient:   c.Clients.Deployments,
		rsClient:  c.Clients.ReplicaSets,
		rec:       c.Recorder,
		now:       time.Now,
	}
	loop, err := ctrl.New(r, ctrl.Options{
		Name: Name, Workers: o.ConcurrentSyncs, MetricsProvider: c.Queues,
		OnError: func(key string, err error) { lg.Info("sync failed", zap.String("key", key), zap.Error(err)) },
	})
	if err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	h := &handlers{dLister: r.dLister, rsLister: r.rsLister, enqueue: loop.Enqueue}
	if _, err := dInf.AddEventHandlerWithResync(ctrl.EnqueueHandler[*appsv1.Deployment](loop.Enqueue), o.SyncPeriod); err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	if _, err := rsInf.AddEventHandler(h.replicaSetHandler()); err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	if _, err := podInf.AddEventHandler(h.podHandler()); err != nil {
		return nil, fmt.Errorf("deployment: %w", err)
	}
	return run.Func(func(ctx context.Context) error { return loop.Run(ctx) }), nil
}
