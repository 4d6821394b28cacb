package daemonset

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
const Name = "daemonset"

// Options are the loop's flags.
type Options struct {
	// ConcurrentSyncs is how many DaemonSets are synced at once.
	ConcurrentSyncs int
}

// NewOptions returns the defaults.
func NewOptions() *Options { return &Options{ConcurrentSyncs: 2} }

// AddFlags adds the loop's flags to fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.ConcurrentSyncs, "concurrent-daemonset-syncs", o.ConcurrentSyncs,
		"The number of daemonset objects that are allowed to sync concurrently. Larger number = more responsive daemonsets, but more CPU (and network) load")
}

// Validate checks the flags.
func (o *Options) Validate() []error {
	if o.ConcurrentSyncs < 1 {
		return []error{fmt.Errorf("--concurrent-daemonset-syncs must be at least 1, got %d", o.ConcurrentSyncs)}
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
				return nil, fmt.Errorf("daemonset: options of type %T", opts)
			}
			return New(c, o)
		},
	}
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
	loop, err := ctrl.New(r, ctrl.Options{
		Name: Name, Workers: o.ConcurrentSyncs, MetricsProvider: c.Queues,
		OnError: func(key string, err error) { lg.Info("sync failed", zap.String("key", key), zap.Error(err)) },
	})
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
	return run.Func(func(ctx context.Context) error { return loop.Run(ctx) }), nil
}

// ownerOf is ds as the owner of its pods and revisions.
func ownerOf(ds *appsv1.DaemonSet) podcontrol.Owner {
	return podcontrol.Owner{Meta: &ds.ObjectMeta, GVK: appsv1.Kind("DaemonSet")}
}
