package deployment

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

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
	// Syncs is --concurrent-deployment-syncs, the Deployments synced at
	// once.
	controller.Syncs
	// SyncPeriod is how often every Deployment is synced even when nothing
	// changed.
	SyncPeriod time.Duration
}

// NewOptions returns the defaults.
func NewOptions() *Options {
	return &Options{
		Syncs: controller.NewSyncs("concurrent-deployment-syncs", 5,
			"The number of deployment objects that are allowed to sync concurrently. Larger number = more responsive deployments, but more CPU (and network) load"),
		SyncPeriod: 30 * time.Second,
	}
}

// AddFlags adds the loop's flags to fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	o.Syncs.AddFlags(fs)
	fs.DurationVar(&o.SyncPeriod, "deployment-controller-sync-period", o.SyncPeriod,
		"Period for syncing the deployments.")
}

// Validate checks the flags.
func (o *Options) Validate() []error {
	errs := o.Syncs.Validate()
	if o.SyncPeriod < time.Second {
		errs = append(errs, fmt.Errorf("--deployment-controller-sync-period must be at least 1s, got %v", o.SyncPeriod))
	}
	return errs
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, New)
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
	r := &Reconciler{
		lg:        c.Logger.Named(Name),
		dLister:   dInf.Lister(),
		rsLister:  rsInf.Lister(),
		podLister: podInf.Lister(),
		dClient:   c.Clients.Deployments,
		rsClient:  c.Clients.ReplicaSets,
		rec:       c.Recorder,
		now:       time.Now,
	}
	loop, err := c.NewLoop(Name, r, o.Workers)
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
	return loop, nil
}
