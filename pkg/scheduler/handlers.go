package scheduler

import (
	"context"
	"reflect"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/informer"

	"platform.io/platform/pkg/scheduler/framework"
)

// The cluster events the handlers report to the queue.
var (
	eventAssignedPodAdd    = framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Add, Label: "AssignedPodAdd"}
	eventAssignedPodUpdate = framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.UpdatePodLabel, Label: "AssignedPodUpdate"}
	eventAssignedPodDelete = framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Delete, Label: "AssignedPodDelete"}
	eventNodeAdd           = framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.Add, Label: "NodeAdd"}
)

func assigned(p *corev1.Pod) bool { return p.Spec.NodeName != "" }

func terminal(p *corev1.Pod) bool {
	return p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
}

// responsible reports a pending pod one of the profiles schedules.
func (s *Scheduler) responsible(p *corev1.Pod) bool {
	_, ok := s.Profiles[p.Spec.SchedulerName]
	return ok && !assigned(p) && p.DeletionTimestamp == nil && !terminal(p)
}

// addHandlers feeds the cache and queue from the informers and keeps the
// registrations, which Run waits on.
func (s *Scheduler) addHandlers(pods *informer.Informer[*corev1.Pod], nodes *informer.Informer[*corev1.Node]) error {
	podReg, err := pods.AddEventHandler(informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd:    func(p *corev1.Pod, _ bool) { s.onPodAdd(p) },
		OnUpdate: s.onPodUpdate,
		OnDelete: s.onPodDelete,
	})
	if err != nil {
		return err
	}
	nodeReg, err := nodes.AddEventHandler(informer.ResourceEventHandler[*corev1.Node]{
		OnAdd: func(n *corev1.Node, _ bool) {
			s.Cache.AddNode(n)
			s.Queue.MoveAllToActiveOrBackoffQueue(eventNodeAdd, nil)
		},
		OnUpdate: func(old, n *corev1.Node) {
			s.Cache.UpdateNode(old, n)
			if ev, ok := nodeUpdateEvent(old, n); ok {
				s.Queue.MoveAllToActiveOrBackoffQueue(ev, nil)
			}
		},
		OnDelete: s.Cache.RemoveNode,
	})
	if err != nil {
		return err
	}
	s.handlers = []*informer.Registration{podReg, nodeReg}
	return nil
}

// handlersSyncPoll is how often Run checks whether the handlers have
// consumed the informers' first lists.
const handlersSyncPoll = 5 * time.Millisecond

// waitForHandlers waits until the handlers have been given every object of
// the informers' first lists, so the first cycle sees every node and
// assigned pod the lists held: informers that have synced may still have
// handler calls queued. It reports false if ctx ended first.
func (s *Scheduler) waitForHandlers(ctx context.Context) bool {
	synced := func() bool {
		for _, r := range s.handlers {
			if !r.HasSynced() {
				return false
			}
		}
		return true
	}
	if synced() {
		return true
	}
	t := time.NewTicker(handlersSyncPoll)
	defer t.Stop()
	for !synced() {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
	return true
}

func (s *Scheduler) onPodAdd(p *corev1.Pod) {
	switch {
	case assigned(p) && !terminal(p):
		if err := s.Cache.AddPod(p); err != nil {
			s.lg.Error("cache pod", zap.String("pod", p.Namespace+"/"+p.Name), zap.Error(err))
		}
		s.Queue.MoveAllToActiveOrBackoffQueue(eventAssignedPodAdd, nil)
	case s.responsible(p):
		// A pod whose deadline passed before the scheduler saw it (a busy
		// informer, a restart) still gets one cycle: the cycle drops it
		// and records why it is not bound, so it is never ignored silently.
		s.Queue.Add(p)
	}
}

func (s *Scheduler) onPodUpdate(old, p *corev1.Pod) {
	switch {
	case assigned(p) && terminal(p):
		if assigned(old) && !terminal(old) {
			s.removeAssigned(old)
		}
	case assigned(p):
		if !assigned(old) {
			s.Queue.Delete(old)
		}
		if err := s.Cache.UpdatePod(old, p); err != nil {
			s.lg.Error("cache pod", zap.String("pod", p.Namespace+"/"+p.Name), zap.Error(err))
		}
		if !assigned(old) {
			s.Queue.MoveAllToActiveOrBackoffQueue(eventAssignedPodAdd, nil)
		} else if !reflect.DeepEqual(old.Labels, p.Labels) {
			s.Queue.MoveAllToActiveOrBackoffQueue(eventAssignedPodUpdate, nil)
		}
	case s.responsible(p) && !s.deadlinePassed(p):
		if s.Cache.IsAssumedPod(p) {
			return // being bound; the binding's update follows
		}
		s.Queue.Update(old, p)
	default:
		s.Queue.Delete(p)
	}
}

func (s *Scheduler) onPodDelete(p *corev1.Pod) {
	if assigned(p) {
		if !terminal(p) {
			s.removeAssigned(p)
		}
		return
	}
	s.Queue.Delete(p)
	for _, fwk := range s.Profiles {
		fwk.RejectWaitingPod(p.UID, "pod was deleted")
	}
}

func (s *Scheduler) removeAssigned(p *corev1.Pod) {
	if err := s.Cache.RemovePod(p); err != nil {
		s.lg.Debug("uncache pod", zap.String("pod", p.Namespace+"/"+p.Name), zap.Error(err))
	}
	s.Queue.MoveAllToActiveOrBackoffQueue(eventAssignedPodDelete, nil)
}

// nodeUpdateEvent returns the event of a node change that may let pods
// fit, ignoring heartbeats and other status noise.
func nodeUpdateEvent(old, n *corev1.Node) (framework.ClusterEvent, bool) {
	var a framework.ActionType
	if !reflect.DeepEqual(old.Status.Allocatable, n.Status.Allocatable) {
		a |= framework.UpdateNodeAllocatable
	}
	if !reflect.DeepEqual(old.Labels, n.Labels) {
		a |= framework.UpdateNodeLabel
	}
	if !reflect.DeepEqual(old.Spec.Taints, n.Spec.Taints) || old.Spec.Unschedulable != n.Spec.Unschedulable {
		a |= framework.UpdateNodeTaint
	}
	if !sameConditions(old.Status.Conditions, n.Status.Conditions) {
		a |= framework.UpdateNodeCondition
	}
	if a == 0 {
		return framework.ClusterEvent{}, false
	}
	return framework.ClusterEvent{Resource: framework.NodeResource, ActionType: a, Label: "NodeUpdate"}, true
}

func sameConditions(a, b []corev1.NodeCondition) bool {
	if len(a) != len(b) {
		return false
	}
	m := make(map[corev1.NodeConditionType]corev1.ConditionStatus, len(a))
	for _, c := range a {
		m[c.Type] = c.Status
	}
	for _, c := range b {
		if s, ok := m[c.Type]; !ok || s != c.Status {
			return false
		}
	}
	return true
}

// deadlinePassed reports a pod whose activeDeadlineSeconds ran out since
// it started (or was created, when it has no start time).
func (s *Scheduler) deadlinePassed(p *corev1.Pod) bool {
	_, passed := deadline(p, s.now())
	return passed
}

func deadline(p *corev1.Pod, now time.Time) (time.Time, bool) {
	if p.Spec.ActiveDeadlineSeconds == nil {
		return time.Time{}, false
	}
	start := p.CreationTimestamp.Time
	if p.Status.StartTime != nil {
		start = p.Status.StartTime.Time
	}
	if start.IsZero() {
		return time.Time{}, false
	}
	d := start.Add(time.Duration(*p.Spec.ActiveDeadlineSeconds) * time.Second)
	return d, !now.Before(d)
}
