package simnode

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/watch"
)

// ErrUnknownNode is returned for a node this agent does not run.
var ErrUnknownNode = errors.New("simnode: unknown node")

// Config is the agent's options, parsed.
type Config struct {
	Nodes          int
	NamePrefix     string
	Zones          []string
	CPU, Memory    resource.Quantity
	Pods           int
	Images         []string
	LeaseInterval  time.Duration
	LeaseDuration  time.Duration
	StatusInterval time.Duration
	ReadinessDelay time.Duration
	JobPodDuration time.Duration
	Workers        int
	// ExternalCloud registers nodes uninitialized, for a cloud controller
	// manager (--cloud-provider=external).
	ExternalCloud bool
	// Now is the clock; nil means the wall clock.
	Now func() time.Time
	// NodeClients, when set, returns the clients node name writes its
	// Node, Lease and pods' status through, so each node acts on its own
	// identity (system:node:<name>) and the Node authorizer applies; nil
	// means every node uses the agent's clients.
	NodeClients func(name string) (*client.Set, error)
	// ResourceMetricsAddress, when set, is the IP each node serves its
	// usage on (GET /metrics/resource over TLS), on a port of its own; the
	// node publishes both as a kubelet does. Empty serves nothing.
	ResourceMetricsAddress string
	// ServingCert is the certificate of those endpoints; required with
	// ResourceMetricsAddress.
	ServingCert *tls.Certificate
	// Usage is what each running container uses unless its pod's
	// annotations say otherwise (AnnotationCPUUsage, AnnotationMemoryUsage).
	Usage Usage
}

// Config returns the options as a Config; call Validate first.
func (o *Options) Config() (*Config, error) {
	if errs := o.Validate(); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &Config{
		Nodes: o.Nodes, NamePrefix: o.NamePrefix, Zones: slices.Clone(o.Zones),
		CPU: resource.MustParse(o.CPU), Memory: resource.MustParse(o.Memory), Pods: o.Pods,
		Images: slices.Clone(o.Images), LeaseInterval: o.LeaseInterval, LeaseDuration: o.LeaseDuration,
		StatusInterval: o.StatusInterval, ReadinessDelay: o.ReadinessDelay, JobPodDuration: o.JobPodDuration,
		Workers: o.Workers, ExternalCloud: o.CloudProvider == "external",
		ResourceMetricsAddress: o.ResourceMetricsAddress,
		Usage:                  Usage{CPU: resource.MustParse(o.ContainerCPUUsage), Memory: resource.MustParse(o.ContainerMemoryUsage)},
	}, nil
}

// Agent runs the simulated nodes.
type Agent struct {
	lg      *zap.Logger
	cfg     Config
	clients *client.Set
	now     func() time.Time
	// nodes is fixed after New; names keeps their order.
	nodes map[string]*simNode
	names []string

	factory   *informer.Factory
	podLister informer.Lister[*corev1.Pod]
	podStore  *informer.Store[*corev1.Pod]
	nodeList  informer.Lister[*corev1.Node]
	podLoop   *ctrl.Controller
	leaseLoop *ctrl.Controller
}

// New builds an agent for cfg talking through clients.
func New(lg *zap.Logger, clients *client.Set, cfg Config) (*Agent, error) {
	if cfg.Nodes > maxNodes || len(cfg.Zones) == 0 || cfg.Workers <= 0 || cfg.LeaseInterval <= 0 {
		return nil, fmt.Errorf("simnode: invalid config: %d nodes, %d zones, %d workers, lease interval %v",
			cfg.Nodes, len(cfg.Zones), cfg.Workers, cfg.LeaseInterval)
	}
	if cfg.ResourceMetricsAddress != "" && cfg.ServingCert == nil {
		return nil, errors.New("simnode: invalid config: resource metrics need a serving certificate")
	}
	a := &Agent{lg: lg, cfg: cfg, clients: clients, now: cfg.Now, nodes: map[string]*simNode{}}
	if a.now == nil {
		a.now = time.Now
	}
	for i := 0; i < cfg.Nodes; i++ {
		n := newSimNode(cfg.NamePrefix, i, cfg.Zones)
		n.meter = newMeter(a.now())
		n.clients = clients
		if cfg.NodeClients != nil {
			var err error
			if n.clients, err = cfg.NodeClients(n.name); err != nil {
				return nil, fmt.Errorf("simnode: clients of node %s: %w", n.name, err)
			}
		}
		a.nodes[n.name] = n
		a.names = append(a.names, n.name)
	}
	var err error
	if a.podLoop, err = ctrl.New(ctrl.Func(a.reconcilePod), ctrl.Options{Name: "simnode-pods", Workers: cfg.Workers,
		OnError: a.logError("pod")}); err != nil {
		return nil, fmt.Errorf("simnode: pod loop: %w", err)
	}
	if a.leaseLoop, err = ctrl.New(ctrl.Func(a.reconcileNode), ctrl.Options{Name: "simnode-nodes", Workers: cfg.Workers,
		OnError: a.logError("node")}); err != nil {
		return nil, fmt.Errorf("simnode: node loop: %w", err)
	}
	return a, a.inform()
}

func (a *Agent) logError(what string) func(string, error) {
	return func(key string, err error) {
		a.lg.Info("Sync failed, will retry", zap.String("kind", what), zap.String("key", key), zap.Error(err))
	}
}

// inform declares the agent's two informers: pods bound to any node
// (filtered to the agent's own nodes here), and nodes.
func (a *Agent) inform() error {
	a.factory = informer.NewFactory(informer.Options{})
	pods, err := informer.For(a.factory, "pods", informer.ListerWatcher[*corev1.Pod](boundPods{a.clients.Pods.ListWatch()}))
	if err != nil {
		return fmt.Errorf("simnode: pod informer: %w", err)
	}
	if err := pods.AddIndexers(informer.Indexers[*corev1.Pod]{podsByNode: func(p *corev1.Pod) []string {
		return []string{p.Spec.NodeName}
	}}); err != nil {
		return fmt.Errorf("simnode: pod index: %w", err)
	}
	enqueuePod := func(p *corev1.Pod) {
		if n, ok := a.nodes[p.Spec.NodeName]; ok {
			a.observeUsage(n)
			a.podLoop.Enqueue(informer.Key(p))
		}
	}
	if _, err := pods.AddEventHandler(informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd:    func(p *corev1.Pod, _ bool) { enqueuePod(p) },
		OnUpdate: func(_, p *corev1.Pod) { enqueuePod(p) },
		OnDelete: a.forgetPod,
	}); err != nil {
		return fmt.Errorf("simnode: pod handler: %w", err)
	}
	nodes, err := client.Inform(a.factory, a.clients.Nodes)
	if err != nil {
		return fmt.Errorf("simnode: node informer: %w", err)
	}
	enqueueNode := func(node *corev1.Node) {
		if _, ok := a.nodes[node.Name]; ok && !healthy(node) {
			a.leaseLoop.Enqueue(node.Name)
		}
	}
	if _, err := nodes.AddEventHandler(informer.ResourceEventHandler[*corev1.Node]{
		OnUpdate: func(_, n *corev1.Node) { enqueueNode(n) },
	}); err != nil {
		return fmt.Errorf("simnode: node handler: %w", err)
	}
	a.podLister, a.podStore, a.nodeList = pods.Lister(), pods.GetStore(), nodes.Lister()
	return nil
}

// boundPods lists and watches only pods bound to a node.
type boundPods struct {
	lw informer.ListerWatcher[*corev1.Pod]
}

func (b boundPods) List(ctx context.Context, opts meta.ListOptions) ([]*corev1.Pod, meta.ListMeta, error) {
	opts.FieldSelector = "spec.nodeName!="
	return b.lw.List(ctx, opts)
}

func (b boundPods) Watch(ctx context.Context, opts meta.ListOptions) (watch.Interface[*corev1.Pod], error) {
	opts.FieldSelector = "spec.nodeName!="
	return b.lw.Watch(ctx, opts)
}

// NodeNames returns the names of the agent's nodes.
func (a *Agent) NodeNames() []string { return slices.Clone(a.names) }

// Run registers the nodes, then renews their leases and runs their pods
// until ctx ends.
func (a *Agent) Run(ctx context.Context) error {
	if a.cfg.ResourceMetricsAddress != "" {
		for _, name := range a.names {
			if err := a.serveResourceMetrics(ctx, a.nodes[name]); err != nil {
				return err
			}
		}
	}
	if err := a.register(ctx); err != nil {
		return err
	}
	a.factory.Start(ctx)
	defer a.factory.Shutdown()
	if !a.factory.WaitForCacheSync(ctx) {
		return fmt.Errorf("simnode: informers did not sync: %w", ctx.Err())
	}
	// Spread the first renewals over one interval so that thousands of
	// nodes renew at an even rate rather than all at once.
	for i, name := range a.names {
		a.leaseLoop.EnqueueAfter(name, time.Duration(int64(a.cfg.LeaseInterval)*int64(i)/int64(max(len(a.names), 1))))
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return a.podLoop.Run(gctx) })
	g.Go(func() error { return a.leaseLoop.Run(gctx) })
	return g.Wait()
}

// register creates every node, or reports the status of one that exists,
// a few at a time.
func (a *Agent) register(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(a.cfg.Workers)
	for _, name := range a.names {
		n := a.nodes[name]
		g.Go(func() error {
			now := a.now()
			_, err := n.clients.Nodes.Create(gctx, n.object(&a.cfg, now), meta.WriteOptions{})
			if apierrors.IsAlreadyExists(err) {
				err = a.updateStatus(gctx, n, now)
			}
			if err != nil {
				return fmt.Errorf("simnode: register node %s: %w", n.name, err)
			}
			n.mu.Lock()
			n.lastReport = now
			n.mu.Unlock()
			return nil
		})
	}
	return g.Wait()
}

// StopHeartbeat stops renewing the node's lease, reporting its status and
// writing its pods' status, as a node cut off from the control plane: its
// pods run on, and the deletions asked meanwhile wait for its return.
func (a *Agent) StopHeartbeat(name string) error {
	n, ok := a.nodes[name]
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownNode, name)
	}
	n.mu.Lock()
	n.stopped = true
	n.mu.Unlock()
	return nil
}

// ResumeHeartbeat renews the node's lease and reports its status at once,
// and on schedule from then on.
func (a *Agent) ResumeHeartbeat(name string) error {
	n, ok := a.nodes[name]
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownNode, name)
	}
	n.mu.Lock()
	n.stopped = false
	n.lastReport = time.Time{}
	n.mu.Unlock()
	a.leaseLoop.Enqueue(name)
	pods, err := a.podLister.List(labels.Everything())
	if err != nil {
		return fmt.Errorf("simnode: list pods: %w", err)
	}
	for _, p := range pods {
		if p.Spec.NodeName == name {
			a.podLoop.Enqueue(informer.Key(p))
		}
	}
	return nil
}
