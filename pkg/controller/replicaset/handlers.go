package replicaset

import (
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// handlers turn ReplicaSet and pod changes into keys, and pod changes into
// observed expectations.
type handlers struct {
	rsLister     informer.Lister[*appsv1.ReplicaSet]
	expectations *ctrl.Expectations
	enqueue      func(key string)
	enqueueAfter func(key string, d time.Duration)
}

func (h *handlers) replicaSetHandler() informer.ResourceEventHandler[*appsv1.ReplicaSet] {
	return informer.ResourceEventHandler[*appsv1.ReplicaSet]{
		OnAdd:    func(rs *appsv1.ReplicaSet, _ bool) { h.enqueue(informer.Key(rs)) },
		OnUpdate: func(_, rs *appsv1.ReplicaSet) { h.enqueue(informer.Key(rs)) },
		OnDelete: func(rs *appsv1.ReplicaSet) {
			h.expectations.Forget(informer.Key(rs))
			h.enqueue(informer.Key(rs))
		},
	}
}

func (h *handlers) podHandler() informer.ResourceEventHandler[*corev1.Pod] {
	return informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd:    h.addPod,
		OnUpdate: h.updatePod,
		OnDelete: h.deletePod,
	}
}

// owner returns the key of the ReplicaSet that controls pod, if it is in
// the cache with the referenced uid.
func (h *handlers) owner(pod *corev1.Pod) (string, bool) {
	ref := podcontrol.ControllerOf(&pod.ObjectMeta)
	if ref == nil || ref.Kind != "ReplicaSet" {
		return "", false
	}
	rs, err := h.rsLister.Namespace(pod.Namespace).Get(ref.Name)
	if err != nil || rs.UID != ref.UID {
		return "", false
	}
	return informer.Key(rs), true
}

// enqueueSelecting enqueues every ReplicaSet whose selector matches the
// orphan pod, so one of them can adopt it.
func (h *handlers) enqueueSelecting(pod *corev1.Pod) {
	if len(pod.Labels) == 0 {
		return
	}
	all, err := h.rsLister.Namespace(pod.Namespace).List(labels.Everything())
	if err != nil {
		return
	}
	for _, rs := range all {
		sel, err := labels.FromLabelSelector(rs.Spec.Selector)
		if err != nil || sel.Empty() {
			continue
		}
		if sel.Matches(labels.Set(pod.Labels)) {
			h.enqueue(informer.Key(rs))
		}
	}
}

func (h *handlers) addPod(pod *corev1.Pod, _ bool) {
	if pod.DeletionTimestamp != nil {
		// Seen for the first time already terminating (a restart or a
		// relist): count the delete that was asked for.
		if key, ok := h.owner(pod); ok {
			h.expectations.Observed(key, false)
			h.enqueue(key)
		}
		return
	}
	if key, ok := h.owner(pod); ok {
		h.expectations.Observed(key, true)
		h.enqueue(key)
		return
	}
	if podcontrol.ControllerOf(&pod.ObjectMeta) == nil {
		h.enqueueSelecting(pod)
	}
}

func (h *handlers) updatePod(old, cur *corev1.Pod) {
	if old.ResourceVersion == cur.ResourceVersion {
		// A resync: the ReplicaSet resync covers it.
		return
	}
	if cur.DeletionTimestamp != nil && old.DeletionTimestamp == nil {
		// Graceful deletion began: the delete this loop may have sent is
		// observed now; the final removal will not count again.
		if key, ok := h.owner(cur); ok {
			h.expectations.Observed(key, false)
			h.enqueue(key)
		}
	}
	oldRef, curRef := podcontrol.ControllerOf(&old.ObjectMeta), podcontrol.ControllerOf(&cur.ObjectMeta)
	if oldRef != nil && (curRef == nil || oldRef.UID != curRef.UID) {
		if key, ok := h.owner(old); ok {
			h.enqueue(key)
		}
	}
	key, owned := h.owner(cur)
	if !owned {
		if curRef == nil {
			h.enqueueSelecting(cur)
		}
		return
	}
	h.enqueue(key)
	if !podcontrol.IsPodReady(old) && podcontrol.IsPodReady(cur) {
		h.enqueueMinReady(key)
	}
}

// enqueueMinReady visits the owner again when a newly ready pod becomes
// available.
func (h *handlers) enqueueMinReady(key string) {
	ns, name := splitKey(key)
	rs, err := h.rsLister.Namespace(ns).Get(name)
	if err != nil || rs.Spec.MinReadySeconds == 0 {
		return
	}
	h.enqueueAfter(key, time.Duration(rs.Spec.MinReadySeconds)*time.Second+time.Second)
}

func (h *handlers) deletePod(pod *corev1.Pod) {
	key, ok := h.owner(pod)
	if !ok {
		return
	}
	// A pod whose last known state was terminating had its delete counted
	// when the deletionTimestamp appeared; count only the others.
	if pod.DeletionTimestamp == nil {
		h.expectations.Observed(key, false)
	}
	h.enqueue(key)
}
