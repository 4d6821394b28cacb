package cloudnode

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	cloud "platform.io/client/cloudprovider"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/record"

	"platform.io/platform/pkg/cloudprovider"
)

// Name is the loop's name in --controllers.
const Name = "cloud-node"

// workers reconcile nodes at once.
const workers = 4

const reasonSynced = "Synced"

// Options are the loop's flags.
type Options struct {
	// StatusUpdateFrequency is how often initialized nodes' addresses are
	// refreshed from the provider.
	StatusUpdateFrequency time.Duration
}

// NewOptions returns the defaults: 5m, as upstream.
func NewOptions() *Options { return &Options{StatusUpdateFrequency: 5 * time.Minute} }

// AddFlags registers --node-status-update-frequency.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&o.StatusUpdateFrequency, "node-status-update-frequency", o.StatusUpdateFrequency, "Specifies how often the controller updates nodes' status (addresses from the cloud provider).")
}

// Validate checks the flag.
func (o *Options) Validate() []error {
	if o.StatusUpdateFrequency <= 0 {
		return []error{fmt.Errorf("--node-status-update-frequency: %v must be positive", o.StatusUpdateFrequency)}
	}
	return nil
}

// Descriptor registers the loop.
func Descriptor() cloudprovider.Descriptor {
	return cloudprovider.Register(Name, cloudprovider.PartInstances, NewOptions, func(c cloudprovider.Context, o *Options) (*Loop, error) {
		return New(c, *o)
	})
}

// Loop initializes and refreshes nodes.
type Loop struct {
	lg      *zap.Logger
	opts    Options
	cloud   cloud.Interface
	clients *client.Set
	rec     record.Recorder
	nodes   informer.Lister[*corev1.Node]
	loop    *ctrl.Controller
}

// New builds the loop on c's informers.
func New(c cloudprovider.Context, opts Options) (*Loop, error) {
	nodes, err := client.Inform(c.Informers, c.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: nodes: %w", Name, err)
	}
	l := &Loop{lg: c.Logger.Named(Name), opts: opts, cloud: c.Cloud, clients: c.Clients, rec: c.Recorder, nodes: nodes.Lister()}
	if l.loop, err = c.NewLoop(Name, l, workers); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	enqueue := func(n *corev1.Node) {
		if uninitialized(n) {
			l.loop.Enqueue(n.Name)
		}
	}
	if _, err := nodes.AddEventHandler(informer.ResourceEventHandler[*corev1.Node]{
		OnAdd:    func(n *corev1.Node, _ bool) { enqueue(n) },
		OnUpdate: func(_, n *corev1.Node) { enqueue(n) },
	}); err != nil {
		return nil, fmt.Errorf("%s: node handler: %w", Name, err)
	}
	return l, nil
}

// Run runs the worker loop and the periodic refresh of every node.
func (l *Loop) Run(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return l.loop.Run(ctx) })
	g.Go(func() error {
		t := time.NewTicker(l.opts.StatusUpdateFrequency)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil
			case <-t.C:
			}
			nodes, err := l.nodes.List(labels.Everything())
			if err != nil {
				continue
			}
			for _, n := range nodes {
				l.loop.Enqueue(n.Name)
			}
		}
	})
	return g.Wait()
}

// Reconcile initializes the node, or refreshes its addresses.
func (l *Loop) Reconcile(ctx context.Context, name string) (ctrl.Result, error) {
	node, err := l.nodes.Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	inst, ok := l.cloud.Instances()
	if !ok {
		return ctrl.Result{}, fmt.Errorf("%w: %s", cloudprovider.ErrPartMissing, cloudprovider.PartInstances)
	}
	md, err := inst.InstanceMetadata(ctx, cloud.Node{Name: node.Name, ProviderID: node.Spec.ProviderID})
	if err != nil {
		if errors.Is(err, cloud.ErrInstanceNotFound) && !uninitialized(node) {
			// The lifecycle loop deletes it.
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, fmt.Errorf("instance metadata of node %s: %w", name, err)
	}
	if err := l.syncAddresses(ctx, node, md); err != nil {
		return ctrl.Result{}, err
	}
	if !uninitialized(node) {
		return ctrl.Result{}, nil
	}
	zone := md.Zone
	if zone == (cloud.Zone{}) {
		if zs, ok := l.cloud.Zones(); ok {
			if zone, err = zs.GetZone(ctx, cloud.Node{Name: node.Name, ProviderID: md.ProviderID}); err != nil {
				return ctrl.Result{}, fmt.Errorf("zone of node %s: %w", name, err)
			}
		}
	}
	return ctrl.Result{}, l.initialize(ctx, name, md, zone)
}

// syncAddresses writes the provider's addresses into the node's status
// when they differ.
func (l *Loop) syncAddresses(ctx context.Context, node *corev1.Node, md *cloud.InstanceMetadata) error {
	want := addresses(node, md)
	if len(want) == 0 || slices.Equal(want, node.Status.Addresses) {
		return nil
	}
	n := *node
	n.Status.Addresses = want
	if _, err := l.clients.Nodes.UpdateStatus(ctx, &n, meta.WriteOptions{}); err != nil {
		return fmt.Errorf("update addresses of node %s: %w", node.Name, err)
	}
	return nil
}

// initialize sets the node's provider ID and labels and removes the taint,
// over the node as the server has it now.
func (l *Loop) initialize(ctx context.Context, name string, md *cloud.InstanceMetadata, zone cloud.Zone) error {
	node, err := l.clients.Nodes.Get(ctx, name, meta.GetOptions{})
	if err != nil {
		return fmt.Errorf("get node %s: %w", name, err)
	}
	if !uninitialized(node) {
		return nil
	}
	n := initialized(node, md, zone)
	if _, err := l.clients.Nodes.Update(ctx, &n, meta.WriteOptions{}); err != nil {
		return fmt.Errorf("initialize node %s: %w", name, err)
	}
	l.lg.Info("node initialized", zap.String("node", name), zap.String("providerID", n.Spec.ProviderID),
		zap.String("zone", zone.Zone), zap.String("instanceType", md.InstanceType))
	l.rec.Eventf(&n, corev1.EventTypeNormal, reasonSynced, "Node synced successfully")
	return nil
}
