package statefulset

import (
	"sort"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
)

// op is what a step does to one ordinal.
type op int

const (
	opCreate op = iota
	opDelete
	opRecreate // delete a failed or succeeded pod so it is made again
	opRelabel  // restore the pod-name label
)

func (o op) String() string {
	return [...]string{"create", "delete", "recreate", "relabel"}[o]
}

// step is one write the plan asks for.
type step struct {
	op      op
	ordinal int
	// pod is the existing pod (delete, recreate, relabel).
	pod *corev1.Pod
	// revision is the revision a created pod is made from.
	revision string
}

// view is what a plan is computed from: the set, its member pods by
// ordinal, the current and update revision names, and the time.
type view struct {
	set              *appsv1.StatefulSet
	pods             []*corev1.Pod
	current, updated string
	now              time.Time
}

// plan is the outcome: the writes to send, in order, and how soon to look
// again when a pod is waiting out minReadySeconds.
type plan struct {
	steps   []step
	requeue time.Duration
}

// planner walks a view the way upstream's StatefulSet control does.
type planner struct {
	view
	monotonic bool
	start     int
	replicas  []*corev1.Pod // index ordinal-start
	condemned []*corev1.Pod // highest ordinal first
	out       plan
}

// compute returns the writes that move v's pods one move (OrderedReady) or
// one round (Parallel) toward the set's spec: first make every ordinal in
// range exist, healthy, then remove the ordinals out of range from the
// highest down, then, for RollingUpdate, replace the highest-ordinal pod
// at or above the partition that is not at the update revision. In
// OrderedReady each phase stops at the first pod that is missing,
// terminating or not yet available.
func compute(v view) plan {
	p := &planner{view: v, monotonic: v.set.Spec.PodManagementPolicy != appsv1.ParallelPodManagement}
	start, count := ordinalRange(v.set)
	p.start = start
	p.replicas = make([]*corev1.Pod, count)
	for _, pod := range v.pods {
		ord, ok := ordinalOf(v.set, pod)
		if !ok {
			continue
		}
		if ord >= start && ord < start+count {
			p.replicas[ord-start] = pod
		} else {
			p.condemned = append(p.condemned, pod)
		}
	}
	sort.Slice(p.condemned, func(i, j int) bool {
		a, _ := ordinalOf(v.set, p.condemned[i])
		b, _ := ordinalOf(v.set, p.condemned[j])
		return a > b
	})
	if p.set.DeletionTimestamp != nil {
		return p.out
	}
	if p.scaleUp() && p.scaleDown() && v.set.Spec.UpdateStrategy.Type != appsv1.OnDeleteStatefulSetStrategyType {
		p.rollOut()
	}
	return p.out
}

// wait records that a pod needs d more to become available.
func (p *planner) wait(d time.Duration) {
	if d > 0 && (p.out.requeue == 0 || d < p.out.requeue) {
		p.out.requeue = d
	}
}

// scaleUp brings every ordinal in range into being; it reports whether the
// plan may go on to the next phase.
func (p *planner) scaleUp() bool {
	for i, pod := range p.replicas {
		ord := p.start + i
		switch {
		case pod == nil:
			p.out.steps = append(p.out.steps, step{op: opCreate, ordinal: ord, revision: p.revisionFor(ord)})
			if p.monotonic {
				return false
			}
			continue
		case isFinished(pod) && !isTerminating(pod):
			p.out.steps = append(p.out.steps, step{op: opRecreate, ordinal: ord, pod: pod})
			if p.monotonic {
				return false
			}
			continue
		case pod.Labels[PodNameLabel] != pod.Name && !isTerminating(pod):
			p.out.steps = append(p.out.steps, step{op: opRelabel, ordinal: ord, pod: pod})
		}
		if !p.monotonic {
			continue
		}
		left := availableIn(pod, p.set.Spec.MinReadySeconds, p.now)
		if left != 0 {
			p.wait(left)
			return false
		}
	}
	return true
}

// scaleDown removes the ordinals out of range, highest first. In
// OrderedReady one pod goes at a time, and only while every other pod is
// healthy: the pod being removed may itself be unhealthy.
func (p *planner) scaleDown() bool {
	for i, pod := range p.condemned {
		if isTerminating(pod) {
			if p.monotonic {
				return false
			}
			continue
		}
		if p.monotonic && !p.othersHealthy(i) {
			return false
		}
		ord, _ := ordinalOf(p.set, pod)
		p.out.steps = append(p.out.steps, step{op: opDelete, ordinal: ord, pod: pod})
		if p.monotonic {
			return false
		}
	}
	return len(p.condemned) == 0 || !p.monotonic
}

// othersHealthy reports whether every pod in range and every condemned pod
// below condemned[i] is healthy.
func (p *planner) othersHealthy(i int) bool {
	for _, pod := range p.replicas {
		if pod == nil || !isHealthy(pod) {
			return false
		}
	}
	for _, pod := range p.condemned[i+1:] {
		if !isHealthy(pod) {
			return false
		}
	}
	return true
}

// rollOut replaces, from the highest ordinal down to the partition, the
// first pod not at the update revision, once every pod above it is at the
// update revision and available. One pod is replaced at a time; the
// controller recreates it at the update revision.
func (p *planner) rollOut() {
	if len(p.out.steps) > 0 {
		return
	}
	min := p.partition()
	for i := len(p.replicas) - 1; i >= 0 && p.start+i >= min; i-- {
		pod := p.replicas[i]
		if pod == nil {
			return
		}
		if revisionOf(pod) != p.updated && !isTerminating(pod) {
			p.out.steps = append(p.out.steps, step{op: opDelete, ordinal: p.start + i, pod: pod})
			return
		}
		if left := availableIn(pod, p.set.Spec.MinReadySeconds, p.now); left != 0 {
			p.wait(left)
			return
		}
	}
}

// partition is the lowest ordinal a rolling update replaces.
func (p *planner) partition() int {
	ru := p.set.Spec.UpdateStrategy.RollingUpdate
	if ru == nil || ru.Partition == nil {
		return p.start
	}
	return p.start + int(*ru.Partition)
}

// revisionFor picks the revision a new pod with ordinal is made from: the
// current one below the partition of a RollingUpdate (or, without a
// rollingUpdate block, below the count of current replicas), the update
// revision otherwise (OnDelete included).
func (p *planner) revisionFor(ord int) string {
	us := p.set.Spec.UpdateStrategy
	if us.Type != appsv1.RollingUpdateStatefulSetStrategyType {
		return p.updated
	}
	if us.RollingUpdate == nil {
		if ord-p.start < int(p.set.Status.CurrentReplicas) {
			return p.current
		}
		return p.updated
	}
	if ord < p.partition() {
		return p.current
	}
	return p.updated
}
