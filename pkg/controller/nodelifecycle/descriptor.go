package nodelifecycle

import (
	"fmt"
	"slices"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "nodelifecycle"

// workers of the pod and node loops; the monitor pass is one goroutine.
const workers = 4

// Descriptor registers the loop.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (*Controller, error) {
		return New(c, *o, time.Now)
	})
}

// New builds the loop on c's informers with the clock now.
func New(c controller.Context, opts Options, now func() time.Time) (*Controller, error) {
	lc := newController(c.Logger.Named(Name), opts, now, apiWriter{clients: c.Clients}, c.Recorder)
	nodes, err := client.Inform(c.Informers, c.Clients.Nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: nodes: %w", Name, err)
	}
	pods, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("%s: pods: %w", Name, err)
	}
	leases, err := client.Inform(c.Informers, c.Clients.Leases)
	if err != nil {
		return nil, fmt.Errorf("%s: leases: %w", Name, err)
	}
	if err := pods.AddIndexers(informer.Indexers[*corev1.Pod]{indexPodsByNode: func(p *corev1.Pod) []string {
		if p.Spec.NodeName == "" {
			return nil
		}
		return []string{p.Spec.NodeName}
	}}); err != nil {
		return nil, fmt.Errorf("%s: pod index: %w", Name, err)
	}
	store := pods.GetStore()
	lc.nodes, lc.pods, lc.leases = nodes.Lister(), pods.Lister(), leases.Lister()
	lc.podsOn = func(node string) ([]*corev1.Pod, error) { return store.ByIndex(indexPodsByNode, node) }
	if lc.podLoop, err = c.NewLoop(Name+"-pods", ctrl.Func(lc.reconcilePod), workers); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if lc.nodeLoop, err = c.NewLoop(Name+"-nodes", ctrl.Func(lc.reconcileNode), workers); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if err := lc.handle(nodes, pods); err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return lc, nil
}

// handle enqueues nodes on every change, the pods of a node whose
// NoExecute taints change, and a pod that changes on a node that has
// NoExecute taints.
func (c *Controller) handle(nodes *informer.Informer[*corev1.Node], pods *informer.Informer[*corev1.Pod]) error {
	nodeChanged := func(old, cur *corev1.Node) {
		c.nodeLoop.Enqueue(cur.Name)
		if old != nil && slices.EqualFunc(noExecuteTaints(old), noExecuteTaints(cur), sameTaint) {
			return
		}
		pods, err := c.podsOn(cur.Name)
		if err != nil {
			return
		}
		for _, p := range pods {
			c.podLoop.Enqueue(informer.Key(p))
		}
	}
	if _, err := nodes.AddEventHandler(informer.ResourceEventHandler[*corev1.Node]{
		OnAdd:    func(n *corev1.Node, _ bool) { nodeChanged(nil, n) },
		OnUpdate: nodeChanged,
		OnDelete: func(n *corev1.Node) { c.nodeLoop.Enqueue(n.Name) },
	}); err != nil {
		return fmt.Errorf("node handler: %w", err)
	}
	podChanged := func(p *corev1.Pod) {
		if p.Spec.NodeName == "" || p.DeletionTimestamp != nil {
			return
		}
		if node, err := c.nodes.Get(p.Spec.NodeName); err == nil && len(noExecuteTaints(node)) > 0 {
			c.podLoop.Enqueue(informer.Key(p))
		}
	}
	_, err := pods.AddEventHandler(informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd:    func(p *corev1.Pod, _ bool) { podChanged(p) },
		OnUpdate: func(_, p *corev1.Pod) { podChanged(p) },
	})
	if err != nil {
		return fmt.Errorf("pod handler: %w", err)
	}
	return nil
}

func noExecuteTaints(n *corev1.Node) []corev1.Taint {
	var out []corev1.Taint
	for _, t := range n.Spec.Taints {
		if t.Effect == corev1.TaintEffectNoExecute {
			out = append(out, t)
		}
	}
	return out
}
