package statefulset

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
const Name = "statefulset"

// Options are the loop's flags: --concurrent-statefulset-syncs, the
// StatefulSets synced at once.
type Options struct{ controller.Syncs }

// NewOptions returns the defaults.
func NewOptions() *Options {
	return &Options{controller.NewSyncs("concurrent-statefulset-syncs", 5,
		"The number of StatefulSet objects that are allowed to sync concurrently. Larger number = more responsive StatefulSets, but more CPU (and network) load")}
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, New)
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
	loop, err := c.NewLoop(Name, r, o.Workers)
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
	return loop, nil
}

// ownerOf is set as the owner of its pods and revisions.
func ownerOf(set *appsv1.StatefulSet) podcontrol.Owner {
	return podcontrol.Owner{Meta: &set.ObjectMeta, GVK: appsv1.Kind("StatefulSet")}
}
