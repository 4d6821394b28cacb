package route

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/client"
	cloud "platform.io/client/cloudprovider"
	"platform.io/client/informer"
	"platform.io/client/record"

	"platform.io/platform/pkg/cloudprovider"
)

// Name is the loop's name in --controllers.
const Name = "route"

const (
	reasonFailedToCreateRoute = "FailedToCreateRoute"
)

// Options are the loop's flags.
type Options struct {
	ReconciliationPeriod time.Duration
	ConfigureCloudRoutes bool
	AllocateNodeCIDRs    bool
	ClusterCIDR          string
}

// NewOptions returns the defaults, as upstream: every 10s, routes
// configured, node CIDRs not allocated (so the loop is off).
func NewOptions() *Options {
	return &Options{ReconciliationPeriod: 10 * time.Second, ConfigureCloudRoutes: true}
}

// AddFlags registers the loop's flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&o.ReconciliationPeriod, "route-reconciliation-period", o.ReconciliationPeriod, "The period for reconciling routes created for Nodes by cloud provider.")
	fs.BoolVar(&o.ConfigureCloudRoutes, "configure-cloud-routes", o.ConfigureCloudRoutes, "Should CIDRs allocated by allocate-node-cidrs be configured on the cloud provider.")
	fs.BoolVar(&o.AllocateNodeCIDRs, "allocate-node-cidrs", o.AllocateNodeCIDRs, "Should CIDRs for Pods be allocated and set on the cloud provider (the controller manager's node IPAM allocates them; the route loop runs only when this is set).")
	fs.StringVar(&o.ClusterCIDR, "cluster-cidr", o.ClusterCIDR, "CIDR Range for Pods in cluster: routes inside it that match no node are deleted. Requires --allocate-node-cidrs.")
}

// Validate checks the flags.
func (o *Options) Validate() []error {
	var errs []error
	if o.ReconciliationPeriod <= 0 {
		errs = append(errs, fmt.Errorf("--route-reconciliation-period: %v must be positive", o.ReconciliationPeriod))
	}
	if o.ClusterCIDR != "" {
		if _, err := netip.ParsePrefix(o.ClusterCIDR); err != nil {
			errs = append(errs, fmt.Errorf("--cluster-cidr: %w", err))
		}
	}
	if o.AllocateNodeCIDRs && o.ConfigureCloudRoutes && o.ClusterCIDR == "" {
		errs = append(errs, errors.New("--cluster-cidr is required with --allocate-node-cidrs and --configure-cloud-routes"))
	}
	return errs
}

// Descriptor registers the loop.
func Descriptor() cloudprovider.Descriptor {
	return cloudprovider.Register(Name, cloudprovider.PartRoutes, NewOptions, func(c cloudprovider.Context, o *Options) (*Loop, error) {
		return New(c, *o)
	})
}

// Loop keeps the route table in step with the nodes' pod CIDRs.
type Loop struct {
	lg      *zap.Logger
	leading func() error
	opts    Options
	cluster netip.Prefix
	name    string
	cloud   cloud.Interface
	rec     record.Recorder
	nodes   informer.Lister[*corev1.Node]
	// changed wakes the loop when a node's pod CIDRs change.
	changed chan struct{}
}

// New builds the loop on c's informers.
func New(c cloudprovider.Context, opts Options) (*Loop, error) {
	l := &Loop{lg: c.Logger.Named(Name), leading: c.Leading, opts: opts, name: c.ClusterName, cloud: c.Cloud, rec: c.Recorder, changed: make(chan struct{}, 1)}
	if !l.enabled() {
		return l, nil
	}
	var err error
	if l.cluster, err = netip.ParsePrefix(opts.ClusterCIDR); err != nil {
		return nil, fmt.Errorf("%s: --cluster-cidr: %w", Name, err)
	}
	nodes, err := client.Inform(c.Informers, c.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: nodes: %w", Name, err)
	}
	l.nodes = nodes.Lister()
	wake := func() {
		select {
		case l.changed <- struct{}{}:
		default:
		}
	}
	if _, err := nodes.AddEventHandler(informer.ResourceEventHandler[*corev1.Node]{
		OnAdd: func(*corev1.Node, bool) { wake() },
		OnUpdate: func(old, cur *corev1.Node) {
			if fmt.Sprint(old.Spec.PodCIDRs) != fmt.Sprint(cur.Spec.PodCIDRs) {
				wake()
			}
		},
		OnDelete: func(*corev1.Node) { wake() },
	}); err != nil {
		return nil, fmt.Errorf("%s: node handler: %w", Name, err)
	}
	return l, nil
}

func (l *Loop) enabled() bool { return l.opts.AllocateNodeCIDRs && l.opts.ConfigureCloudRoutes }

// Run reconciles every period and on node changes until ctx ends.
func (l *Loop) Run(ctx context.Context) error {
	if !l.enabled() {
		l.lg.Info("routes not configured: the route loop runs with --allocate-node-cidrs and --configure-cloud-routes")
		<-ctx.Done()
		return nil
	}
	t := time.NewTicker(l.opts.ReconciliationPeriod)
	defer t.Stop()
	for {
		if err := l.reconcile(ctx); err != nil && ctx.Err() == nil {
			l.lg.Info("reconcile routes, will retry", zap.Error(err))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-l.changed:
		}
	}
}

// reconcile creates the missing routes and deletes the stale ones.
func (l *Loop) reconcile(ctx context.Context) error {
	rt, ok := l.cloud.Routes()
	if !ok {
		return fmt.Errorf("%w: %s", cloudprovider.ErrPartMissing, cloudprovider.PartRoutes)
	}
	routes, err := rt.ListRoutes(ctx, l.name)
	if err != nil {
		return fmt.Errorf("list routes: %w", err)
	}
	nodes, err := l.nodes.List(labels.Everything())
	if err != nil {
		return err
	}
	create, remove := plan(nodes, routes, l.cluster)
	if len(create)+len(remove) == 0 {
		return nil
	}
	if err := l.leading(); err != nil {
		return err
	}
	var errs []error
	for _, r := range create {
		if err := rt.CreateRoute(ctx, l.name, nameHint(l.name, r), r); err != nil {
			if n, gerr := l.nodes.Get(r.TargetNode); gerr == nil {
				l.rec.Eventf(n, corev1.EventTypeWarning, reasonFailedToCreateRoute, "Could not create route %s for node %s: %v", r.DestinationCIDR, r.TargetNode, err)
			}
			errs = append(errs, fmt.Errorf("create route %s -> %s: %w", r.DestinationCIDR, r.TargetNode, err))
			continue
		}
		l.lg.Info("route created", zap.String("node", r.TargetNode), zap.String("cidr", r.DestinationCIDR))
	}
	for _, r := range remove {
		if err := rt.DeleteRoute(ctx, l.name, r); err != nil {
			errs = append(errs, fmt.Errorf("delete route %s -> %s: %w", r.DestinationCIDR, r.TargetNode, err))
			continue
		}
		l.lg.Info("route deleted", zap.String("node", r.TargetNode), zap.String("cidr", r.DestinationCIDR))
	}
	return errors.Join(errs...)
}
