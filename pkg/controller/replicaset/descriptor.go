package replicaset

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
const Name = "replicaset"

// Options are the loop's flags.
type Options struct {
	// ConcurrentSyncs is how many ReplicaSets are synced at once.
	ConcurrentSyncs int
}

// NewOptions returns the defaults.
func NewOptions() *Options { return &Options{ConcurrentSyncs: 5} }

// AddFlags adds the loop's flags to fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.ConcurrentSyncs, "concurrent-replicaset-syncs", o.ConcurrentSyncs,
		"The number of replica sets that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load")
}

// Validate checks the flags.
func (o *Options) Validate() []error {
	if o.ConcurrentSyncs < 1 {
		return []error{fmt.Errorf("--concurrent-replicaset-syncs must be at least 1, got %d", o.ConcurrentSyncs)}
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
				return nil, fmt.Errorf("replicaset: options of type %T", opts)
			}
			return New(c, o)
		},
	}
}

// New declares the informers the loop reads, wires their handlers to its
// queue, and returns the loop.
func New(c controller.Context, o *Options) (run.Runnable, error) {
	rsInf, err := client.Inform(c.Informers, c.Clients.ReplicaSets)
	if err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	podInf, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	lg := c.Logger.Named(Name)
	r := &Reconciler{
		lg:           lg,
		rsLister:     rsInf.Lister(),
		podLister:    podInf.Lister(),
		rsClient:     c.Clients.ReplicaSets,
		pods:         podcontrol.New(lg, podcontrol.ClientWriter(c.Clients.Pods), c.Recorder),
		expectations: ctrl.NewExpectations(0, nil),
		now:          nowFunc,
		burst:        BurstReplicas,
	}
	loop, err := ctrl.New(r, ctrl.Options{
		Name: Name, Workers: o.ConcurrentSyncs, MetricsProvider: c.Queues,
		OnError: func(key string, err error) { lg.Info("sync failed", zap.String("key", key), zap.Error(err)) },
	})
	if err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	h := &handlers{rsLister: r.rsLister, expectations: r.expectations, enqueue: loop.Enqueue, enqueueAfter: loop.EnqueueAfter}
	if _, err := rsInf.AddEventHandler(h.replicaSetHandler()); err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	if _, err := podInf.AddEventHandler(h.podHandler()); err != nil {
		return nil, fmt.Errorf("replicaset: %w", err)
	}
	return run.Func(func(ctx context.Context) error { return loop.Run(ctx) }), nil
}

// ownerOf is rs as the owner of its pods.
func ownerOf(rs *appsv1.ReplicaSet) podcontrol.Owner {
	return podcontrol.Owner{Meta: &rs.ObjectMeta, GVK: appsv1.Kind("ReplicaSet")}
}

func nowFunc() time.Time { return time.Now() }
