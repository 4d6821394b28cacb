package deployment

import (
	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// handlers turn ReplicaSet and pod changes into Deployment keys.
type handlers struct {
	dLister  informer.Lister[*appsv1.Deployment]
	rsLister informer.Lister[*appsv1.ReplicaSet]
	enqueue  func(key string)
}

// ownerKey returns the key of the Deployment controlling m, if cached
// with the referenced uid.
func (h *handlers) ownerKey(namespace string, ref *meta.OwnerReference) (string, bool) {
	if ref == nil || ref.Kind != "Deployment" {
		return "", false
	}
	d, err := h.dLister.Namespace(namespace).Get(ref.Name)
	if err != nil || d.UID != ref.UID {
		return "", false
	}
	return informer.Key(d), true
}

// enqueueSelecting enqueues the Deployments whose selector matches an
// orphan ReplicaSet, so one can adopt it.
func (h *handlers) enqueueSelecting(rs *appsv1.ReplicaSet) {
	ds, err := h.dLister.Namespace(rs.Namespace).List(labels.Everything())
	if err != nil {
		return
	}
	for _, d := range ds {
		sel, err := labels.FromLabelSelector(d.Spec.Selector)
		if err != nil || sel.Empty() {
			continue
		}
		if sel.Matches(labels.Set(rs.Labels)) {
			h.enqueue(informer.Key(d))
		}
	}
}

func (h *handlers) replicaSetHandler() informer.ResourceEventHandler[*appsv1.ReplicaSet] {
	return informer.ResourceEventHandler[*appsv1.ReplicaSet]{
		OnAdd: func(rs *appsv1.ReplicaSet, _ bool) { h.replicaSetChanged(nil, rs) },
		OnUpdate: func(old, cur *appsv1.ReplicaSet) {
			if old.ResourceVersion != cur.ResourceVersion {
				h.replicaSetChanged(old, cur)
			}
		},
		OnDelete: func(rs *appsv1.ReplicaSet) {
			if key, ok := h.ownerKey(rs.Namespace, podcontrol.ControllerOf(&rs.ObjectMeta)); ok {
				h.enqueue(key)
			}
		},
	}
}

func (h *handlers) replicaSetChanged(old, cur *appsv1.ReplicaSet) {
	curRef := podcontrol.ControllerOf(&cur.ObjectMeta)
	if old != nil {
		if oldRef := podcontrol.ControllerOf(&old.ObjectMeta); oldRef != nil && (curRef == nil || oldRef.UID != curRef.UID) {
			if key, ok := h.ownerKey(old.Namespace, oldRef); ok {
				h.enqueue(key)
			}
		}
	}
	if key, ok := h.ownerKey(cur.Namespace, curRef); ok {
		h.enqueue(key)
		return
	}
	if curRef == nil && cur.DeletionTimestamp == nil {
		h.enqueueSelecting(cur)
	}
}

// podHandler wakes a Deployment when one of its pods goes away: a
// Recreate rollout waits for the old pods to be gone.
func (h *handlers) podHandler() informer.ResourceEventHandler[*corev1.Pod] {
	return informer.ResourceEventHandler[*corev1.Pod]{
		OnDelete: func(pod *corev1.Pod) {
			ref := podcontrol.ControllerOf(&pod.ObjectMeta)
			if ref == nil || ref.Kind != "ReplicaSet" {
				return
			}
			rs, err := h.rsLister.Namespace(pod.Namespace).Get(ref.Name)
			if err != nil || rs.UID != ref.UID {
				return
			}
			if key, ok := h.ownerKey(rs.Namespace, podcontrol.ControllerOf(&rs.ObjectMeta)); ok {
				h.enqueue(key)
			}
		},
	}
}
