package statefulset

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
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Name is the loop's name in --controllers.
const Name = "statefulset"

// Options are the loop's flags.
type Options struct {
	// ConcurrentSyncs is how many StatefulSets are synced at once.
	ConcurrentSyncs int
}

// NewOptions returns the defaults.
func NewOptions() *Options { return &Options{ConcurrentSyncs: 5} }

// AddFlags adds the loop's flags to fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.ConcurrentSyncs, "concurrent-statefulset-syncs", o.ConcurrentSyncs,
		"The number of StatefulSet objects that are allowed to sync concurrently. Larger number = more responsive StatefulSets, but more CPU (and network) load")
}

// Validate checks the flags.
func (o *Options) Validate() []error {
	if o.ConcurrentSyncs < 1 {
		return []error{fmt.Errorf("--concurrent-statefulset-syncs must be at least 1, got %d", o.ConcurrentSyncs)}
	}
	return nil
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Descriptor{
		Name:       Name,
		NewOptions: func() controller.Options { return NewOptions() },
		New: func(c controller.Context, opts controller.Options) (run.Runnable, error) {
			o, ok := opts.(*Options)
			if !ok {
				return nil, fmt.Errorf("statefulset: options of type %T", opts)
			}
			return New(c, o)
		},
	}
}

// New declares the informers the loop reads (StatefulSets, pods,
// ControllerRevisions), wires their handlers to its queue, and returns the
// loop.
func New(c controller.Context, o *Options) (run.Runnable, error) {
	setInf, err := client.Inform(c.Informers, c.Clients.StatefulSets)
	if err != nil {
		return nil, fmt.Errorf("statefulset: %w", err)
	}
	podInf, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("statefulset: %w", err)
	}
	revInf, err := client.Inform(c.Informers, c.Clients.ControllerRevisions)
	if err != nil {
		return nil, fmt.Errorf("statefulset: %w", err)
	}
	lg := c.Logger.Named(Name)
	r := &Reconciler{
		lg:        lg,
		sets:      setInf.Lister(),
		pods:      podInf.Lister(),
		revisions: revInf.Lister(),
		clients:   c.Clients,
		rec:       c.Recorder,
		now:       time.Now,
	}
	loop, err := ctrl.New(r, ctrl.Options{
		Name: Name, Workers: o.ConcurrentSyncs, MetricsProvider: c.Queues,
		OnError: func(key string, err error) { lg.Info("sync failed", zap.String("key", key), zap.Error(err)) },
	})
	if err != nil {
		return nil, fmt.Errorf("statefulset: %w", err)
	}
	h := &handlers{sets: r.sets, enqueue: loop.Enqueue}
	if _, err := setInf.AddEventHandler(ctrl.EnqueueHandler[*appsv1.StatefulSet](loop.Enqueue)); err != nil {
		return nil, fmt.Errorf("statefulset: %w", err)
	}
	if _, err := podInf.AddEventHandler(h.podHandler()); err != nil {
		return nil, fmt.Errorf("statefulset: %w", err)
	}
	if _, err := revInf.AddEventHandler(h.revisionHandler()); err != nil {
		return nil, fmt.Errorf("statefulset: %w", err)
	}
	return run.Func(func(ctx context.Context) error { return loop.Run(ctx) }), nil
}

// ownerOf is set as the owner of its pods and revisions.
func ownerOf(set *appsv1.StatefulSet) podcontrol.Owner {
	return podcontrol.Owner{Meta: &set.ObjectMeta, GVK: appsv1.Kind("StatefulSet")}
}
