package namespace

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/workqueue"

	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "namespace"

// Options are the loop's flags.
type Options struct {
	// Syncs is --concurrent-namespace-syncs, the namespaces emptied at
	// once.
	controller.Syncs
	// SyncPeriod is how often every namespace is looked at again.
	SyncPeriod time.Duration
}

// NewOptions returns the defaults: 10 workers, a 5m resync.
func NewOptions() *Options {
	return &Options{
		Syncs: controller.NewSyncs("concurrent-namespace-syncs", 10,
			"The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load"),
		SyncPeriod: 5 * time.Minute,
	}
}

// AddFlags adds --concurrent-namespace-syncs and --namespace-sync-period.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.Syncs.AddFlags(fs)
	fs.DurationVar(&o.SyncPeriod, "namespace-sync-period", o.SyncPeriod,
		"The period for syncing namespace life-cycle updates")
}

// Validate checks the worker count and the period.
func (o *Options) Validate() []error {
	errs := o.Syncs.Validate()
	if o.SyncPeriod <= 0 {
		errs = append(errs, fmt.Errorf("--namespace-sync-period must be positive, got %v", o.SyncPeriod))
	}
	return errs
}

// Descriptor registers the namespace loop.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, New)
}

// New declares the namespace informer, resynced every SyncPeriod, and
// returns the worker loop.
func New(c controller.Context, o *Options) (*ctrl.Controller, error) {
	lg := c.Logger.Named(Name)
	inf, err := client.Inform(c.Informers, c.Clients.Namespaces)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	limiter, err := workqueue.NewExponentialRateLimiter[string](workqueue.ExponentialOptions{Base: 5 * time.Millisecond, Max: time.Minute})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	resources := c.DiscoverySet()
	r := &reconciler{
		lg: lg, lister: inf.Lister(), discover: resources.Refresh,
		content: dynamicContent{client.NewDynamic(c.REST)},
		write:   apiWriter{c: c.Clients, rc: c.REST},
		now:     time.Now,
	}
	loop, err := c.NewLoopWith(r, ctrl.Options{Name: Name, Workers: o.Workers, RateLimiter: limiter})
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
