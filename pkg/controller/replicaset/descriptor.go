package replicaset

import (
	"fmt"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Name is the loop's name in --controllers.
const Name = "replicaset"

// Options are the loop's flags: --concurrent-replicaset-syncs, the
// ReplicaSets synced at once.
type Options struct{ controller.Syncs }

// NewOptions returns the defaults.
func NewOptions() *Options {
	return &Options{controller.NewSyncs("concurrent-replicaset-syncs", 5,
		"The number of replica sets that are allowed to sync concurrently. Larger number = more responsive replica management, but more CPU (and network) load")}
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, New)
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
	loop, err := c.NewLoop(Name, r, o.Workers)
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
	return loop, nil
}

// ownerOf is rs as the owner of its pods.
func ownerOf(rs *appsv1.ReplicaSet) podcontrol.Owner {
	return podcontrol.Owner{Meta: &rs.ObjectMeta, GVK: appsv1.Kind("ReplicaSet")}
}

func nowFunc() time.Time { return time.Now() }
