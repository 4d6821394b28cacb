package namespace

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/workqueue"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "namespace"

// Options are the loop's flags.
type Options struct {
	// ConcurrentNamespaceSyncs is the number of namespaces emptied at once.
	ConcurrentNamespaceSyncs int
	// SyncPeriod is how often every namespace is looked at again.
	SyncPeriod time.Duration
}

// NewOptions returns the defaults: 10 workers, a 5m resync.
func NewOptions() *Options {
	return &Options{ConcurrentNamespaceSyncs: 10, SyncPeriod: 5 * time.Minute}
}

// AddFlags adds --concurrent-namespace-syncs and --namespace-sync-period.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.ConcurrentNamespaceSyncs, "concurrent-namespace-syncs", o.ConcurrentNamespaceSyncs,
		"The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load")
	fs.DurationVar(&o.SyncPeriod, "namespace-sync-period", o.SyncPeriod,
		"The period for syncing namespace life-cycle updates")
}

// Validate checks the worker count and the period.
func (o *Options) Validate() []error {
	var errs []error
	if o.ConcurrentNamespaceSyncs < 1 {
		errs = append(errs, fmt.Errorf("--concurrent-namespace-syncs must be at least 1, got %d", o.ConcurrentNamespaceSyncs))
	}
	if o.SyncPeriod <= 0 {
		errs = append(errs, fmt.Errorf("--namespace-sync-period must be positive, got %v", o.SyncPeriod))
	}
	return errs
}

// Descriptor registers the namespace loop.
func Descriptor() controller.Descriptor {
	return controller.Descriptor{
		Name:       Name,
		NewOptions: func() controller.Options { return NewOptions() },
		New: func(c controller.Context, opts controller.Options) (run.Runnable, error) {
			o, ok := opts.(*Options)
			if !ok {
				return nil, fmt.Errorf("%s: options of type %T", Name, opts)
			}
			return New(c, o)
		},
	}
}

// New declares the namespace informer, resynced every SyncPeriod, and
// returns the worker loop.
func New(c controller.Context, o *Options) (run.Runnable, error) {
	lg := c.Logger.Named(Name)
	inf, err := client.Inform(c.Informers, c.Clients.Namespaces)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	limiter, err := workqueue.NewExponentialRateLimiter[string](workqueue.ExponentialOptions{Base: 5 * time.Millisecond, Max: time.Minute})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	r := &reconciler{
		lg: lg, lister: inf.Lister(), resources: namespacedResources(),
		content: dynamicContent{client.NewDynamic(c.REST)},
		write:   apiWriter{c: c.Clients, rc: c.REST},
		now:     time.Now,
	}
	loop, err := ctrl.New(r, ctrl.Options{Name: Name, Workers: o.ConcurrentNamespaceSyncs, RateLimiter: limiter,
		MetricsProvider: c.Queues, OnError: func(key string, err error) {
			lg.Info("namespace sync failed", zap.String("namespace", key), zap.Error(err))
		}})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	enqueue := func(ns *corev1.Namespace) {
		if ns.DeletionTimestamp != nil {
			loop.Enqueue(ns.Name)
		}
	}
	_, err = inf.AddEventHandlerWithResync(informer.ResourceEventHandler[*corev1.Namespace]{
		OnAdd:    func(ns *corev1.Namespace, _ bool) { enqueue(ns) },
		OnUpdate: func(_, ns *corev1.Namespace) { enqueue(ns) },
	}, o.SyncPeriod)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return loop, nil
}
