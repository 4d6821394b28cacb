package daemonset

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
const Name = "daemonset"

// Options are the loop's flags: --concurrent-daemonset-syncs, the
// DaemonSets synced at once.
type Options struct{ controller.Syncs }

// NewOptions returns the defaults.
func NewOptions() *Options {
	return &Options{controller.NewSyncs("concurrent-daemonset-syncs", 2,
		"The number of daemonset objects that are allowed to sync concurrently. Larger number = more responsive daemonsets, but more CPU (and network) load")}
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, New)
}

// New declares the informers the loop reads (DaemonSets, pods, nodes,
// ControllerRevisions), wires their handlers to its queue, and returns the
// loop.
func New(c controller.Context, o *Options) (run.Runnable, error) {
	dsInf, err := client.Inform(c.Informers, c.Clients.DaemonSets)
	if err != nil {
		return nil, fmt.Errorf("daemonset: %w", err)
	}
	podInf, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("daemonset: %w", err)
	}
	nodeInf, err := client.Inform(c.Informers, c.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("daemonset: %w", err)
	}
	revInf, err := client.Inform(c.Informers, c.Clients.ControllerRevisions)
	if err != nil {
		return nil, fmt.Errorf("daemonset: %w", err)
	}
	lg := c.Logger.Named(Name)
	r := &Reconciler{
		lg: lg, sets: dsInf.Lister(), pods: podInf.Lister(), nodes: nodeInf.Lister(), revisions: revInf.Lister(),
		clients:      c.Clients,
		control:      podcontrol.New(lg, podcontrol.ClientWriter(c.Clients.Pods), c.Recorder),
		rec:          c.Recorder,
		expectations: ctrl.NewExpectations(0, nil),
		backoff:      newBackoff(time.Now),
		now:          time.Now,
	}
	loop, err := c.NewLoop(Name, r, o.Workers)
	if err != nil {
		return nil, fmt.Errorf("daemonset: %w", err)
	}
	h := &handlers{sets: r.sets, expectations: r.expectations, enqueue: loop.Enqueue}
	for _, add := range []func() error{
		func() error {
			_, err := dsInf.AddEventHandler(ctrl.EnqueueHandler[*appsv1.DaemonSet](loop.Enqueue))
			return err
		},
		func() error { _, err := podInf.AddEventHandler(h.podHandler()); return err },
		func() error { _, err := nodeInf.AddEventHandler(h.nodeHandler()); return err },
		func() error { _, err := revInf.AddEventHandler(h.revisionHandler()); return err },
	} {
		if err := add(); err != nil {
			return nil, fmt.Errorf("daemonset: %w", err)
		}
	}
	return loop, nil
}

// ownerOf is ds as the owner of its pods and revisions.
func ownerOf(ds *appsv1.DaemonSet) podcontrol.Owner {
	return podcontrol.Owner{Meta: &ds.ObjectMeta, GVK: appsv1.Kind("DaemonSet")}
}
