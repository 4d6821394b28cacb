package nodelifecycle

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	cloud "platform.io/client/cloudprovider"
	"platform.io/client/informer"
	"platform.io/client/record"

	"platform.io/platform/pkg/cloudprovider"
)

// Name is the loop's name in --controllers.
const Name = "cloud-node-lifecycle"

const (
	reasonDeleting = "DeletingNode"
	// conflictRetries bounds the read-modify-write attempts of one taint
	// change.
	conflictRetries = 5
)

// Options are the loop's flags.
type Options struct {
	// MonitorPeriod is how often nodes are checked with the provider.
	MonitorPeriod time.Duration
}

// NewOptions returns the defaults: 5s, as upstream.
func NewOptions() *Options { return &Options{MonitorPeriod: 5 * time.Second} }

// AddFlags registers --node-monitor-period.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.DurationVar(&o.MonitorPeriod, "node-monitor-period", o.MonitorPeriod, "The period for syncing NodeStatus in the cloud-node-lifecycle controller: how often nodes that are not ready are checked with the cloud provider.")
}

// Validate checks the flag.
func (o *Options) Validate() []error {
	if o.MonitorPeriod <= 0 {
		return []error{fmt.Errorf("--node-monitor-period: %v must be positive", o.MonitorPeriod)}
	}
	return nil
}

// Descriptor registers the loop.
func Descriptor() cloudprovider.Descriptor {
	return cloudprovider.Register(Name, cloudprovider.PartInstances, NewOptions, func(c cloudprovider.Context, o *Options) (*Loop, error) {
		return New(c, *o)
	})
}

// Loop checks nodes against their instances.
type Loop struct {
	lg      *zap.Logger
	opts    Options
	cloud   cloud.Interface
	clients *client.Set
	rec     record.Recorder
	nodes   informer.Lister[*corev1.Node]
}

// New builds the loop on c's informers.
func New(c cloudprovider.Context, opts Options) (*Loop, error) {
	nodes, err := client.Inform(c.Informers, c.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: nodes: %w", Name, err)
	}
	return &Loop{lg: c.Logger.Named(Name), opts: opts, cloud: c.Cloud, clients: c.Clients, rec: c.Recorder, nodes: nodes.Lister()}, nil
}

// Run checks every node each period until ctx ends. A failure on one node
// is logged and retried on the next pass.
func (l *Loop) Run(ctx context.Context) error {
	t := time.NewTicker(l.opts.MonitorPeriod)
	defer t.Stop()
	for {
		l.pass(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// pass checks every node once.
func (l *Loop) pass(ctx context.Context) {
	inst, ok := l.cloud.Instances()
	if !ok {
		l.lg.Warn("cloud provider implements no instances, nodes not checked")
		return
	}
	nodes, err := l.nodes.List(labels.Everything())
	if err != nil {
		l.lg.Error("list nodes", zap.Error(err))
		return
	}
	for _, n := range nodes {
		if err := l.check(ctx, inst, n); err != nil && ctx.Err() == nil {
			l.lg.Info("check node, will retry", zap.String("node", n.Name), zap.Error(err))
		}
	}
}

// check asks the provider about one node and acts on the answer.
func (l *Loop) check(ctx context.Context, inst cloud.Instances, n *corev1.Node) error {
	if isReady(n) && !hasShutdownTaint(n) {
		return nil
	}
	ref := cloud.Node{Name: n.Name, ProviderID: n.Spec.ProviderID}
	exists, err := inst.InstanceExists(ctx, ref)
	if err != nil {
		return fmt.Errorf("instance exists: %w", err)
	}
	p := probe{exists: exists}
	if exists {
		p.shutdown, err = inst.InstanceShutdown(ctx, ref)
		if errors.Is(err, cloud.ErrInstanceNotFound) {
			p.exists, err = false, nil
		}
		if err != nil {
			return fmt.Errorf("instance shutdown: %w", err)
		}
	}
	switch a := decide(n, p); a {
	case deleteNode:
		l.lg.Info("deleting node, its instance is gone", zap.String("node", n.Name))
		l.rec.Eventf(n, corev1.EventTypeNormal, reasonDeleting, "Deleting node %s because it does not exist in the cloud provider", n.Name)
		uid := n.UID
		err := l.clients.Nodes.Delete(ctx, n.Name, &meta.DeleteOptions{Preconditions: &meta.Preconditions{UID: &uid}})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete node: %w", err)
		}
	case addShutdownTaint, removeShutdownTaint:
		return l.setShutdownTaint(ctx, n.Name, a == addShutdownTaint)
	}
	return nil
}

// setShutdownTaint adds or removes the taint over the node as the server
// has it, retrying on conflicts.
func (l *Loop) setShutdownTaint(ctx context.Context, name string, on bool) error {
	var err error
	for range conflictRetries {
		var node *corev1.Node
		if node, err = l.clients.Nodes.Get(ctx, name, meta.GetOptions{}); err != nil {
			return fmt.Errorf("get node %s: %w", name, err)
		}
		if hasShutdownTaint(node) == on {
			return nil
		}
		n := *node
		if on {
			n.Spec.Taints = append(slices.Clone(node.Spec.Taints), corev1.Taint{Key: corev1.TaintNodeShutdown, Effect: corev1.TaintEffectNoSchedule})
		} else {
			n.Spec.Taints = slices.DeleteFunc(slices.Clone(node.Spec.Taints), func(t corev1.Taint) bool { return t.Key == corev1.TaintNodeShutdown })
		}
		if _, err = l.clients.Nodes.Update(ctx, &n, meta.WriteOptions{}); !apierrors.IsConflict(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("shutdown taint of node %s: %w", name, err)
	}
	l.lg.Info("shutdown taint changed", zap.String("node", name), zap.Bool("tainted", on))
	return nil
}
