package nodeipam

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/record"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "nodeipam"

const (
	workers                = 1
	reasonCIDRNotAvailable = "CIDRNotAvailable"
)

// Options are the loop's flags.
type Options struct {
	AllocateNodeCIDRs bool
	ClusterCIDR       string
	NodeCIDRMaskSize  int
}

// NewOptions returns the defaults, as upstream: off, /24 node CIDRs.
func NewOptions() *Options { return &Options{NodeCIDRMaskSize: 24} }

// AddFlags registers the flags.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.AllocateNodeCIDRs, "allocate-node-cidrs", o.AllocateNodeCIDRs, "Should CIDRs for Pods be allocated and set on the nodes.")
	fs.StringVar(&o.ClusterCIDR, "cluster-cidr", o.ClusterCIDR, "CIDR Range for Pods in cluster. Requires --allocate-node-cidrs.")
	fs.IntVar(&o.NodeCIDRMaskSize, "node-cidr-mask-size", o.NodeCIDRMaskSize, "Mask size for node CIDRs in the cluster.")
}

// Validate checks the flags.
func (o *Options) Validate() []error {
	if !o.AllocateNodeCIDRs {
		if o.ClusterCIDR != "" {
			if _, err := netip.ParsePrefix(o.ClusterCIDR); err != nil {
				return []error{fmt.Errorf("--cluster-cidr: %w", err)}
			}
		}
		return nil
	}
	if o.ClusterCIDR == "" {
		return []error{errors.New("--cluster-cidr is required with --allocate-node-cidrs")}
	}
	p, err := netip.ParsePrefix(o.ClusterCIDR)
	if err != nil {
		return []error{fmt.Errorf("--cluster-cidr: %w", err)}
	}
	if _, err := newAllocator(p, o.NodeCIDRMaskSize); err != nil {
		return []error{fmt.Errorf("--node-cidr-mask-size: %w", err)}
	}
	return nil
}

// Descriptor registers the loop.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (run.Runnable, error) {
		return New(c, *o)
	})
}

// Loop assigns pod CIDRs. mu guards alloc and byNode.
type Loop struct {
	lg      *zap.Logger
	clients *client.Set
	rec     record.Recorder
	nodes   informer.Lister[*corev1.Node]
	loop    *ctrl.Controller

	mu     sync.Mutex
	alloc  *allocator
	byNode map[string]netip.Prefix
}

// New builds the loop on c's informers; with --allocate-node-cidrs off it
// returns a Runnable that does nothing but wait, as upstream leaves the
// loop unstarted.
func New(c controller.Context, opts Options) (run.Runnable, error) {
	lg := c.Logger.Named(Name)
	if !opts.AllocateNodeCIDRs {
		return run.Func(func(ctx context.Context) error {
			lg.Info("node CIDRs are not allocated: --allocate-node-cidrs is off")
			<-ctx.Done()
			return nil
		}), nil
	}
	alloc, err := newAllocator(netip.MustParsePrefix(opts.ClusterCIDR), opts.NodeCIDRMaskSize)
	if err != nil {
		return nil, err
	}
	nodes, err := client.Inform(c.Informers, c.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: nodes: %w", Name, err)
	}
	l := &Loop{lg: lg, clients: c.Clients, rec: c.Recorder, nodes: nodes.Lister(), alloc: alloc, byNode: map[string]netip.Prefix{}}
	if l.loop, err = c.NewLoop(Name, ctrl.Func(l.reconcile), workers); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if _, err := nodes.AddEventHandler(ctrl.EnqueueHandler[*corev1.Node](l.loop.Enqueue)); err != nil {
		return nil, fmt.Errorf("%s: node handler: %w", Name, err)
	}
	return l, nil
}

// Run marks the CIDRs the nodes already have as used, then assigns.
func (l *Loop) Run(ctx context.Context) error {
	nodes, err := l.nodes.List(labels.Everything())
	if err != nil {
		return err
	}
	l.mu.Lock()
	for _, n := range nodes {
		l.occupyLocked(n)
	}
	l.mu.Unlock()
	return l.loop.Run(ctx)
}

// occupyLocked records the node's pod CIDR as used.
func (l *Loop) occupyLocked(n *corev1.Node) {
	if n.Spec.PodCIDR == "" {
		return
	}
	p, err := netip.ParsePrefix(n.Spec.PodCIDR)
	if err != nil || !l.alloc.occupy(p) {
		l.lg.Info("node pod CIDR outside the cluster CIDR, left alone", zap.String("node", n.Name), zap.String("podCIDR", n.Spec.PodCIDR))
		return
	}
	l.byNode[n.Name] = p
}

// reconcile frees the CIDR of a node that is gone and assigns one to a node
// that has none.
func (l *Loop) reconcile(ctx context.Context, name string) (ctrl.Result, error) {
	node, err := l.nodes.Get(name)
	if apierrors.IsNotFound(err) {
		l.mu.Lock()
		if p, ok := l.byNode[name]; ok {
			l.alloc.release(p)
			delete(l.byNode, name)
			l.lg.Info("pod CIDR released", zap.String("node", name), zap.Stringer("podCIDR", p))
		}
		l.mu.Unlock()
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	l.mu.Lock()
	if node.Spec.PodCIDR != "" {
		if _, ok := l.byNode[name]; !ok {
			l.occupyLocked(node)
		}
		l.mu.Unlock()
		return ctrl.Result{}, nil
	}
	p, ok := l.byNode[name]
	if !ok {
		if p, err = l.alloc.allocate(); err != nil {
			l.mu.Unlock()
			l.rec.Eventf(node, corev1.EventTypeNormal, reasonCIDRNotAvailable, "Node %s status is now: %s", name, reasonCIDRNotAvailable)
			return ctrl.Result{}, err
		}
		l.byNode[name] = p
	}
	l.mu.Unlock()
	n := *node
	n.Spec.PodCIDR, n.Spec.PodCIDRs = p.String(), []string{p.String()}
	if _, err := l.clients.Nodes.Update(ctx, &n, meta.WriteOptions{}); err != nil {
		// Keep the reservation: the retry writes the same CIDR.
		return ctrl.Result{}, fmt.Errorf("assign pod CIDR %s to node %s: %w", p, name, err)
	}
	l.lg.Info("pod CIDR assigned", zap.String("node", name), zap.Stringer("podCIDR", p))
	return ctrl.Result{}, nil
}
