package nodelifecycle

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sync/errgroup"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/record"
)

// Event reasons.
const (
	reasonNodeNotReady     = "NodeNotReady"
	reasonTaintEviction    = "TaintManagerEviction"
	taintPassPeriod        = 100 * time.Millisecond
	indexPodsByNode        = "nodelifecycle.spec.nodeName"
	nodeStatusNotReadyText = "NodeNotReady"
)

// Controller is the node lifecycle loop.
type Controller struct {
	lg     *zap.Logger
	opts   Options
	now    func() time.Time
	w      writer
	rec    record.Recorder
	nodes  informer.Lister[*corev1.Node]
	leases informer.Lister[*coordinationv1.Lease]
	pods   informer.Lister[*corev1.Pod]
	// podsOn lists the pods bound to a node.
	podsOn func(node string) ([]*corev1.Pod, error)

	// mu guards health, zoneStates, queues and seen.
	mu         sync.Mutex
	health     map[string]*health
	zoneStates map[string]zoneState
	queues     map[string]*zoneQueue
	// seen is when a NoExecute taint without timeAdded was first seen,
	// by node name and taint key.
	seen map[string]time.Time

	podLoop  *ctrl.Controller
	nodeLoop *ctrl.Controller
}

func newController(lg *zap.Logger, opts Options, now func() time.Time, w writer, rec record.Recorder) *Controller {
	return &Controller{
		lg: lg, opts: opts, now: now, w: w, rec: rec,
		health: map[string]*health{}, zoneStates: map[string]zoneState{}, queues: map[string]*zoneQueue{}, seen: map[string]time.Time{},
	}
}

// Run runs the monitor, the tainting pass and the two worker loops until
// ctx ends.
func (c *Controller) Run(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return c.podLoop.Run(gctx) })
	g.Go(func() error { return c.nodeLoop.Run(gctx) })
	g.Go(func() error { return every(gctx, c.opts.NodeMonitorPeriod, c.monitor) })
	g.Go(func() error { return every(gctx, min(taintPassPeriod, c.opts.NodeMonitorPeriod), c.taintPass) })
	return g.Wait()
}

// every calls f now and then every period until ctx ends.
func every(ctx context.Context, period time.Duration, f func(context.Context)) error {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		f(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// monitor is one pass over all nodes: their health (marking silent ones
// Unknown), the zones' states and eviction rates, then the NoExecute taint
// each node should carry.
func (c *Controller) monitor(ctx context.Context) {
	now := c.now()
	nodes, err := c.nodes.List(labels.Everything())
	if err != nil {
		c.lg.Error("List nodes", zap.Error(err))
		return
	}
	ready := make(map[string]corev1.ConditionStatus, len(nodes))
	zones := map[string][]corev1.ConditionStatus{}
	for _, node := range nodes {
		s, err := c.checkHealth(ctx, node, now)
		if err != nil {
			c.lg.Info("Update node health, will retry", zap.String("node", node.Name), zap.Error(err))
			continue
		}
		ready[node.Name] = s
		zones[zoneOf(node)] = append(zones[zoneOf(node)], s)
	}
	if c.handleDisruption(ctx, zones, nodes, now) {
		return
	}
	for _, node := range nodes {
		if s, ok := ready[node.Name]; ok {
			if err := c.decideNoExecute(ctx, node, s); err != nil {
				c.lg.Info("Update NoExecute taint, will retry", zap.String("node", node.Name), zap.Error(err))
			}
		}
	}
}

// checkHealth observes the node's heartbeats, marks its conditions Unknown
// when it has been silent too long, and returns its Ready status. When
// the node stops being ready, it records an event and marks its pods not
// ready.
func (c *Controller) checkHealth(ctx context.Context, node *corev1.Node, now time.Time) (corev1.ConditionStatus, error) {
	lease, err := c.leases.Namespace(corev1.NamespaceNodeLease).Get(node.Name)
	if err != nil && !apierrors.IsNotFound(err) {
		return "", fmt.Errorf("read lease: %w", err)
	}
	c.mu.Lock()
	h, ok := c.health[node.Name]
	if !ok {
		h = &health{}
		c.health[node.Name] = h
	}
	grace := h.observe(node, lease, now, &c.opts)
	silent := h.silent(now, grace)
	c.mu.Unlock()
	status := corev1.ConditionUnknown
	if r := condition(node, corev1.NodeReady); r != nil {
		status = r.Status
	}
	if silent {
		conds, changed := markUnknown(node.Status.Conditions, now)
		if changed {
			n := *node
			n.Status.Conditions = conds
			if err := c.w.updateNodeStatus(ctx, &n); err != nil {
				return "", err
			}
			r := condition(&n, corev1.NodeReady)
			c.mu.Lock()
			h.readyBeat, h.readyChange = r.LastHeartbeatTime.Time, r.LastTransitionTime.Time
			c.mu.Unlock()
		}
		status = corev1.ConditionUnknown
	}
	c.mu.Lock()
	wasReady := h.lastReadyTrue
	h.lastReadyTrue, h.ready = status == corev1.ConditionTrue, status
	c.mu.Unlock()
	if wasReady && status != corev1.ConditionTrue {
		c.rec.Eventf(nodeRef(node), corev1.EventTypeNormal, reasonNodeNotReady, "Node %s status is now: %s", node.Name, nodeStatusNotReadyText)
		if err := c.markPodsNotReady(ctx, node.Name); err != nil {
			return status, err
		}
	}
	return status, nil
}

// markPodsNotReady sets the Ready condition of the node's pods False.
func (c *Controller) markPodsNotReady(ctx context.Context, name string) error {
	pods, err := c.podsOn(name)
	if err != nil {
		return fmt.Errorf("list pods of node %s: %w", name, err)
	}
	var errs []error
	for _, pod := range pods {
		if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			continue
		}
		i := podConditionIndex(pod, corev1.PodReady)
		if i < 0 || pod.Status.Conditions[i].Status == corev1.ConditionFalse {
			continue
		}
		p := *pod
		p.Status.Conditions = append([]corev1.PodCondition(nil), pod.Status.Conditions...)
		p.Status.Conditions[i].Status = corev1.ConditionFalse
		p.Status.Conditions[i].LastTransitionTime = metaNow(c.now())
		if err := c.w.updatePodStatus(ctx, &p); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, err)
			continue
		}
		c.rec.Eventf(podRef(pod), corev1.EventTypeWarning, reasonNodeNotReady, "Node is not ready")
	}
	return errors.Join(errs...)
}

// decideNoExecute removes the lifecycle NoExecute taint of a ready node at
// once, swaps not-ready and unreachable at once, and queues a node that
// needs its first one for the zone's rate-limited tainting pass.
func (c *Controller) decideNoExecute(ctx context.Context, node *corev1.Node, ready corev1.ConditionStatus) error {
	want := wantNoExecute(ready)
	have := noExecuteKey(node)
	c.mu.Lock()
	q := c.queues[zoneOf(node)]
	if want == "" || have != "" {
		if q != nil {
			q.remove(node.Name)
		}
	} else if q != nil {
		q.add(node.Name)
	}
	c.mu.Unlock()
	if want == have || (have == "" && want != "") {
		return nil
	}
	now := c.now()
	return c.w.updateTaints(ctx, node.Name, func(t []corev1.Taint) ([]corev1.Taint, bool) { return withNoExecute(t, want, now) })
}

// wantNoExecute is the lifecycle NoExecute taint of a node whose Ready
// condition is s.
func wantNoExecute(s corev1.ConditionStatus) string {
	switch s {
	case corev1.ConditionTrue:
		return ""
	case corev1.ConditionFalse:
		return corev1.TaintNodeNotReady
	}
	return corev1.TaintNodeUnreachable
}

// taintPass taints the queued nodes of each zone as fast as the zone's
// rate allows, skipping those that no longer need it.
func (c *Controller) taintPass(ctx context.Context) {
	now := c.now()
	c.mu.Lock()
	var due []string
	for _, q := range c.queues {
		for len(q.nodes) > 0 {
			node, err := c.nodes.Get(q.nodes[0])
			if err != nil || noExecuteKey(node) != "" || wantNoExecute(c.lastReadyLocked(node.Name)) == "" {
				q.nodes = q.nodes[1:]
				continue
			}
			if !q.bucket.take(now) {
				break
			}
			due = append(due, q.nodes[0])
			q.nodes = q.nodes[1:]
		}
	}
	c.mu.Unlock()
	for _, name := range due {
		node, err := c.nodes.Get(name)
		if err != nil {
			continue
		}
		want := wantNoExecute(c.lastReady(name))
		if want == "" {
			continue
		}
		err = c.w.updateTaints(ctx, name, func(t []corev1.Taint) ([]corev1.Taint, bool) { return withNoExecute(t, want, now) })
		if err != nil {
			c.lg.Info("Taint node, will retry", zap.String("node", name), zap.Error(err))
			c.mu.Lock()
			if q := c.queues[zoneOf(node)]; q != nil {
				q.add(name)
			}
			c.mu.Unlock()
		}
	}
}

// lastReady is the node's Ready status as the last monitor pass decided,
// True for a node not yet seen.
func (c *Controller) lastReady(name string) corev1.ConditionStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastReadyLocked(name)
}

func (c *Controller) lastReadyLocked(name string) corev1.ConditionStatus {
	if h, ok := c.health[name]; ok && h.ready != "" {
		return h.ready
	}
	return corev1.ConditionTrue
}
