package daemonset

import (
	"sort"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"

	"platform.io/platform/pkg/controller/internal/history"
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// desired counts the nodes that should run a pod.
func (p *planner) desired() int {
	n := 0
	for _, f := range p.fits {
		if f.shouldRun {
			n++
		}
	}
	return n
}

// limits resolves maxSurge and maxUnavailable against the desired count,
// rounding percentages up. Both zero would stall a rollout, so
// maxUnavailable is then 1. Only RollingUpdate surges.
func (p *planner) limits() (maxSurge, maxUnavailable int) {
	maxUnavailable = 1
	ru := p.ds.Spec.UpdateStrategy.RollingUpdate
	if p.ds.Spec.UpdateStrategy.Type != appsv1.RollingUpdateDaemonSetStrategyType || ru == nil {
		return 0, maxUnavailable
	}
	desired := p.desired()
	if ru.MaxSurge != nil {
		if v, err := intstr.ScaledValue(ru.MaxSurge, desired, true); err == nil {
			maxSurge = v
		}
	}
	if ru.MaxUnavailable != nil {
		if v, err := intstr.ScaledValue(ru.MaxUnavailable, desired, true); err == nil {
			maxUnavailable = v
		}
	}
	if maxSurge == 0 && maxUnavailable == 0 {
		maxUnavailable = 1
	}
	return maxSurge, maxUnavailable
}

// updatedPods splits a node's live pods into the one at the current hash
// and the older one; ok is false when there are two of a kind (manage
// cleans that up first).
func (p *planner) updatedPods(pods []*corev1.Pod) (newPod, oldPod *corev1.Pod, ok bool) {
	for _, pod := range pods {
		if isTerminating(pod) {
			continue
		}
		if pod.Labels[history.HashLabel] == p.hash {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = pod
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = pod
		}
	}
	return newPod, oldPod, true
}

func (p *planner) available(pod *corev1.Pod) bool {
	return podcontrol.IsPodAvailable(pod, p.ds.Spec.MinReadySeconds, p.now)
}

// nodesWithPods returns the names of the nodes that have pods, sorted, so
// that a rollout walks the nodes in a stable order.
func (p *planner) nodesWithPods() []string {
	names := make([]string, 0, len(p.byNode))
	for n := range p.byNode {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// rollingUpdate deletes old pods, never leaving more than maxUnavailable
// nodes without an available pod: old pods that are not available anyway
// go at once, available ones while the budget lasts. manage then creates
// their replacements at the current revision.
func (p *planner) rollingUpdate(maxUnavailable int) {
	unavailable := 0
	var replace, candidates []*corev1.Pod
	for _, node := range p.nodesWithPods() {
		newPod, oldPod, ok := p.updatedPods(p.byNode[node])
		switch {
		case !ok, oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
			unavailable++
		case newPod != nil:
			if !p.available(newPod) {
				unavailable++
			}
		case !p.available(oldPod):
			replace = append(replace, oldPod)
		case unavailable < maxUnavailable:
			candidates = append(candidates, oldPod)
		}
	}
	budget := min(max(maxUnavailable-unavailable, 0), len(candidates))
	p.out.delete = append(p.out.delete, replace...)
	p.out.delete = append(p.out.delete, candidates[:budget]...)
}

// surge creates pods at the current revision beside old ones, at most
// maxSurge at a time (nodes whose old pod is not available do not count),
// and deletes an old pod once its replacement is available.
func (p *planner) surge(maxSurge int) {
	surging := 0
	var allowed, candidates []string
	for _, node := range p.nodesWithPods() {
		newPod, oldPod, ok := p.updatedPods(p.byNode[node])
		f, known := p.fits[node]
		switch {
		case !ok:
			surging++
		case oldPod == nil:
		case newPod == nil && (!known || !f.shouldRun):
			// manage removes pods from nodes they no longer fit.
		case newPod == nil && !p.available(oldPod):
			allowed = append(allowed, node)
		case newPod == nil:
			if surging < maxSurge {
				candidates = append(candidates, node)
			}
		case !p.available(newPod):
			surging++
		default:
			p.out.delete = append(p.out.delete, oldPod)
		}
	}
	budget := min(max(maxSurge-surging, 0), len(candidates))
	p.out.create = append(p.out.create, allowed...)
	p.out.create = append(p.out.create, candidates[:budget]...)
}
