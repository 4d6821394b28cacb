package daemonset

import (
	"sort"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/controller/internal/history"
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// view is what a plan is computed from: the DaemonSet, the nodes, the
// pods it owns, the hash of its current revision and the time. inBackoff
// reports how long a node's failed pod must still wait before it is
// replaced (false when it need not).
type view struct {
	ds        *appsv1.DaemonSet
	nodes     []*corev1.Node
	pods      []*corev1.Pod
	hash      string
	now       time.Time
	inBackoff func(node string) (time.Duration, bool)
}

// plan is the outcome: the nodes to create a pod for, the pods to delete,
// the nodes whose failed pod is being deleted (their backoff grows), and
// how soon to look again.
type plan struct {
	create  []string
	delete  []*corev1.Pod
	failed  []string
	requeue time.Duration
}

func (p *plan) wait(d time.Duration) {
	if d > 0 && (p.requeue == 0 || d < p.requeue) {
		p.requeue = d
	}
}

// planner holds a view's derived state.
type planner struct {
	view
	fits   map[string]fit
	byNode map[string][]*corev1.Pod
	out    plan
}

func newPlanner(v view) *planner {
	p := &planner{view: v, fits: make(map[string]fit, len(v.nodes)), byNode: map[string][]*corev1.Pod{}}
	f := newFitter(v.ds)
	for _, n := range v.nodes {
		p.fits[n.Name] = f.fit(n)
	}
	for _, pod := range v.pods {
		node := targetNode(pod)
		p.byNode[node] = append(p.byNode[node], pod)
	}
	for _, pods := range p.byNode {
		sortOldestFirst(pods)
	}
	return p
}

// compute returns the writes that bring a pod to every node that should
// run one and remove them elsewhere; when those are none and the strategy
// is RollingUpdate, the writes of the next rolling-update step.
func compute(v view) plan {
	p := newPlanner(v)
	if v.ds.DeletionTimestamp != nil {
		return p.out
	}
	p.manage()
	if len(p.out.create) == 0 && len(p.out.delete) == 0 &&
		v.ds.Spec.UpdateStrategy.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		maxSurge, maxUnavailable := p.limits()
		if maxSurge > 0 {
			p.surge(maxSurge)
		} else {
			p.rollingUpdate(maxUnavailable)
		}
	}
	return p.out
}

// manage decides node by node, in name order.
func (p *planner) manage() {
	for _, n := range p.nodes {
		f, pods := p.fits[n.Name], p.byNode[n.Name]
		switch {
		case f.shouldRun && len(pods) == 0:
			p.out.create = append(p.out.create, n.Name)
		case f.shouldContinue:
			p.keepOne(n.Name, pods)
		default:
			for _, pod := range pods {
				if !isTerminating(pod) {
					p.out.delete = append(p.out.delete, pod)
				}
			}
		}
	}
	// Pods meant for a node that is gone but never bound: nothing will
	// ever run them. Bound ones are the pod garbage collector's.
	for node, pods := range p.byNode {
		if _, ok := p.fits[node]; ok {
			continue
		}
		for _, pod := range pods {
			if pod.Spec.NodeName == "" && !isTerminating(pod) {
				p.out.delete = append(p.out.delete, pod)
			}
		}
	}
}

// keepOne handles a node whose pods may stay: finished pods are deleted
// (failed ones only once their backoff has passed), and of the running
// ones the oldest stays. With maxSurge, the oldest pod of the current
// revision may stay beside the oldest older one, until it is available or
// the old one is not ready.
func (p *planner) keepOne(node string, pods []*corev1.Pod) {
	var running []*corev1.Pod
	for _, pod := range pods {
		switch {
		case isTerminating(pod):
		case pod.Status.Phase == corev1.PodFailed:
			if d, wait := p.inBackoff(node); wait {
				p.out.wait(d)
				continue
			}
			p.out.failed = append(p.out.failed, node)
			p.out.delete = append(p.out.delete, pod)
		case pod.Status.Phase == corev1.PodSucceeded:
			p.out.delete = append(p.out.delete, pod)
		default:
			running = append(running, pod)
		}
	}
	if len(running) <= 1 {
		return
	}
	if maxSurge, _ := p.limits(); maxSurge == 0 {
		p.out.delete = append(p.out.delete, running[1:]...)
		return
	}
	var oldestNew, oldestOld *corev1.Pod
	for _, pod := range running {
		switch {
		case pod.Labels[history.HashLabel] == p.hash && oldestNew == nil:
			oldestNew = pod
		case pod.Labels[history.HashLabel] != p.hash && oldestOld == nil:
			oldestOld = pod
		default:
			p.out.delete = append(p.out.delete, pod)
		}
	}
	if oldestNew != nil && oldestOld != nil &&
		(!podcontrol.IsPodReady(oldestOld) || podcontrol.IsPodAvailable(oldestNew, p.ds.Spec.MinReadySeconds, p.now)) {
		p.out.delete = append(p.out.delete, oldestOld)
	}
}

func isTerminating(pod *corev1.Pod) bool { return pod.DeletionTimestamp != nil }

// sortOldestFirst orders pods by creation time, then name.
func sortOldestFirst(pods []*corev1.Pod) {
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i].CreationTimestamp.Time, pods[j].CreationTimestamp.Time
		if !a.Equal(b) {
			return a.Before(b)
		}
		return pods[i].Name < pods[j].Name
	})
}
