package statefulset

import (
	"maps"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// handlers map pod and revision changes to the keys of the sets that
// care: the controlling set, or for an orphan every set that selects it
// (so it can be adopted).
type handlers struct {
	sets    informer.Lister[*appsv1.StatefulSet]
	enqueue func(key string)
}

func (h *handlers) podHandler() informer.ResourceEventHandler[*corev1.Pod] {
	return informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd: func(p *corev1.Pod, _ bool) { h.enqueueFor(&p.ObjectMeta) },
		OnUpdate: func(old, cur *corev1.Pod) {
			if o, c := podcontrol.ControllerOf(&old.ObjectMeta), podcontrol.ControllerOf(&cur.ObjectMeta); o != nil && (c == nil || o.UID != c.UID) {
				h.enqueueRef(old.Namespace, o)
			}
			if !maps.Equal(old.Labels, cur.Labels) {
				h.enqueueSelecting(&old.ObjectMeta)
			}
			h.enqueueFor(&cur.ObjectMeta)
		},
		OnDelete: func(p *corev1.Pod) { h.enqueueFor(&p.ObjectMeta) },
	}
}

func (h *handlers) revisionHandler() informer.ResourceEventHandler[*appsv1.ControllerRevision] {
	return informer.ResourceEventHandler[*appsv1.ControllerRevision]{
		OnAdd:    func(r *appsv1.ControllerRevision, _ bool) { h.enqueueFor(&r.ObjectMeta) },
		OnUpdate: func(_, r *appsv1.ControllerRevision) { h.enqueueFor(&r.ObjectMeta) },
		OnDelete: func(r *appsv1.ControllerRevision) { h.enqueueFor(&r.ObjectMeta) },
	}
}

// enqueueFor enqueues m's controlling set, or, for an orphan, the sets
// selecting it.
func (h *handlers) enqueueFor(m *meta.ObjectMeta) {
	if ref := podcontrol.ControllerOf(m); ref != nil {
		h.enqueueRef(m.Namespace, ref)
		return
	}
	if m.DeletionTimestamp == nil {
		h.enqueueSelecting(m)
	}
}

func (h *handlers) enqueueRef(namespace string, ref *meta.OwnerReference) {
	if ref.Kind != "StatefulSet" {
		return
	}
	set, err := h.sets.Namespace(namespace).Get(ref.Name)
	if err != nil || set.UID != ref.UID {
		return
	}
	h.enqueue(informer.KeyFor(namespace, ref.Name))
}

func (h *handlers) enqueueSelecting(m *meta.ObjectMeta) {
	if len(m.Labels) == 0 {
		return
	}
	sets, err := h.sets.Namespace(m.Namespace).List(nil)
	if err != nil {
		return
	}
	for _, s := range sets {
		sel, err := labels.FromLabelSelector(s.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(labels.Set(m.Labels)) {
			continue
		}
		h.enqueue(informer.KeyFor(s.Namespace, s.Name))
	}
}
