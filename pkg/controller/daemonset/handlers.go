package daemonset

import (
	"maps"
	"reflect"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// handlers map pod, node and revision changes to DaemonSet keys, and
// count observed pod creates and deletes against the expectations.
type handlers struct {
	sets         informer.Lister[*appsv1.DaemonSet]
	expectations *ctrl.Expectations
	enqueue      func(key string)
}

func (h *handlers) podHandler() informer.ResourceEventHandler[*corev1.Pod] {
	return informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd: func(p *corev1.Pod, _ bool) {
			if key, ok := h.owner(&p.ObjectMeta); ok {
				h.expectations.Observed(key, true)
				h.enqueue(key)
				return
			}
			h.enqueueSelecting(&p.ObjectMeta)
		},
		OnUpdate: func(old, cur *corev1.Pod) {
			if old == cur {
				return
			}
			oldKey, oldOwned := h.owner(&old.ObjectMeta)
			key, owned := h.owner(&cur.ObjectMeta)
			if oldOwned && (!owned || oldKey != key) {
				h.enqueue(oldKey)
			}
			if owned && old.DeletionTimestamp == nil && cur.DeletionTimestamp != nil {
				// A graceful delete: what we asked for is seen now.
				h.expectations.Observed(key, false)
			}
			if !maps.Equal(old.Labels, cur.Labels) {
				h.enqueueSelecting(&old.ObjectMeta)
			}
			if owned {
				h.enqueue(key)
			} else {
				h.enqueueSelecting(&cur.ObjectMeta)
			}
		},
		OnDelete: func(p *corev1.Pod) {
			if key, ok := h.owner(&p.ObjectMeta); ok {
				h.expectations.Observed(key, false)
				h.enqueue(key)
			}
		},
	}
}

// nodeHandler re-evaluates every DaemonSet when a node comes, goes, or
// changes in what decides fit: labels, taints, unschedulable, or name.
func (h *handlers) nodeHandler() informer.ResourceEventHandler[*corev1.Node] {
	return informer.ResourceEventHandler[*corev1.Node]{
		OnAdd: func(*corev1.Node, bool) { h.enqueueAll() },
		OnUpdate: func(old, cur *corev1.Node) {
			if old == cur || (maps.Equal(old.Labels, cur.Labels) && reflect.DeepEqual(old.Spec.Taints, cur.Spec.Taints) &&
				old.Spec.Unschedulable == cur.Spec.Unschedulable) {
				return
			}
			h.enqueueAll()
		},
		OnDelete: func(*corev1.Node) { h.enqueueAll() },
	}
}

func (h *handlers) revisionHandler() informer.ResourceEventHandler[*appsv1.ControllerRevision] {
	return informer.ResourceEventHandler[*appsv1.ControllerRevision]{
		OnAdd:    func(r *appsv1.ControllerRevision, _ bool) { h.enqueueOwner(&r.ObjectMeta) },
		OnUpdate: func(_, r *appsv1.ControllerRevision) { h.enqueueOwner(&r.ObjectMeta) },
		OnDelete: func(r *appsv1.ControllerRevision) { h.enqueueOwner(&r.ObjectMeta) },
	}
}

// owner returns the key of m's controlling DaemonSet, if it is one we
// know (same name and uid).
func (h *handlers) owner(m *meta.ObjectMeta) (string, bool) {
	ref := podcontrol.ControllerOf(m)
	if ref == nil || ref.Kind != "DaemonSet" {
		return "", false
	}
	ds, err := h.sets.Namespace(m.Namespace).Get(ref.Name)
	if err != nil || ds.UID != ref.UID {
		return "", false
	}
	return informer.KeyFor(m.Namespace, ref.Name), true
}

func (h *handlers) enqueueOwner(m *meta.ObjectMeta) {
	if key, ok := h.owner(m); ok {
		h.enqueue(key)
	}
}

// enqueueSelecting enqueues the DaemonSets whose selector matches an
// orphan's labels, so they may adopt it.
func (h *handlers) enqueueSelecting(m *meta.ObjectMeta) {
	if len(m.Labels) == 0 || m.DeletionTimestamp != nil || podcontrol.ControllerOf(m) != nil {
		return
	}
	sets, err := h.sets.Namespace(m.Namespace).List(nil)
	if err != nil {
		return
	}
	for _, ds := range sets {
		sel, err := labels.FromLabelSelector(ds.Spec.Selector)
		if err == nil && !sel.Empty() && sel.Matches(labels.Set(m.Labels)) {
			h.enqueue(informer.KeyFor(ds.Namespace, ds.Name))
		}
	}
}

func (h *handlers) enqueueAll() {
	sets, err := h.sets.List(nil)
	if err != nil {
		return
	}
	for _, ds := range sets {
		h.enqueue(informer.KeyFor(ds.Namespace, ds.Name))
	}
}
