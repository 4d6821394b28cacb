package testing

import (
	"sort"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// NodeWrapper builds a node fluently: MakeNode().Name("n").Capacity(...).Obj().
type NodeWrapper struct{ corev1.Node }

// MakeNode returns a wrapper of an empty node that allows 32 pods (so that
// the pod count does not get in the way of tests about other resources).
func MakeNode() *NodeWrapper {
	n := &NodeWrapper{}
	n.Status.Capacity = ResourceList(map[corev1.ResourceName]string{corev1.ResourcePods: "32"})
	n.Status.Allocatable = ResourceList(map[corev1.ResourceName]string{corev1.ResourcePods: "32"})
	return n
}

// Obj returns the built node.
func (n *NodeWrapper) Obj() *corev1.Node { return &n.Node }

// Name sets the name, the UID to the name, and the label
// platform.io/hostname to the name, as the node agent does.
func (n *NodeWrapper) Name(s string) *NodeWrapper {
	n.Node.Name = s
	n.Node.UID = meta.UID(s)
	return n.Label("platform.io/hostname", s)
}

// UID sets the UID.
func (n *NodeWrapper) UID(s string) *NodeWrapper {
	n.Node.UID = meta.UID(s)
	return n
}

// Label adds a label.
func (n *NodeWrapper) Label(k, v string) *NodeWrapper {
	if n.Node.Labels == nil {
		n.Node.Labels = map[string]string{}
	}
	n.Node.Labels[k] = v
	return n
}

// Labels adds labels.
func (n *NodeWrapper) Labels(m map[string]string) *NodeWrapper {
	for k, v := range m {
		n.Label(k, v)
	}
	return n
}

// Capacity sets status.capacity and status.allocatable to the amounts; a
// pod count is kept at 32 unless m sets "pods".
func (n *NodeWrapper) Capacity(m map[corev1.ResourceName]string) *NodeWrapper {
	full := map[corev1.ResourceName]string{corev1.ResourcePods: "32"}
	for k, v := range m {
		full[k] = v
	}
	n.Status.Capacity = ResourceList(full)
	n.Status.Allocatable = ResourceList(full)
	return n
}

// Allocatable sets only status.allocatable, exactly to m.
func (n *NodeWrapper) Allocatable(m map[corev1.ResourceName]string) *NodeWrapper {
	n.Status.Allocatable = ResourceList(m)
	return n
}

// Taints adds taints.
func (n *NodeWrapper) Taints(ts []corev1.Taint) *NodeWrapper {
	n.Spec.Taints = append(n.Spec.Taints, ts...)
	return n
}

// Taint adds one taint.
func (n *NodeWrapper) Taint(key, value string, effect corev1.TaintEffect) *NodeWrapper {
	return n.Taints([]corev1.Taint{{Key: key, Value: value, Effect: effect}})
}

// Unschedulable sets spec.unschedulable.
func (n *NodeWrapper) Unschedulable(v bool) *NodeWrapper {
	n.Spec.Unschedulable = v
	return n
}

// Images adds an image per entry (name -> size in bytes), in name order.
func (n *NodeWrapper) Images(m map[string]int64) *NodeWrapper {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		n.Status.Images = append(n.Status.Images, corev1.ContainerImage{Names: []string{name}, SizeBytes: m[name]})
	}
	return n
}

// Image adds one image known by several names.
func (n *NodeWrapper) Image(size int64, names ...string) *NodeWrapper {
	n.Status.Images = append(n.Status.Images, corev1.ContainerImage{Names: names, SizeBytes: size})
	return n
}

// Condition sets (replacing one of the same type) a status condition.
func (n *NodeWrapper) Condition(t corev1.NodeConditionType, s corev1.ConditionStatus) *NodeWrapper {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			n.Status.Conditions[i].Status = s
			return n
		}
	}
	n.Status.Conditions = append(n.Status.Conditions, corev1.NodeCondition{Type: t, Status: s})
	return n
}

// Ready sets the Ready condition to True.
func (n *NodeWrapper) Ready() *NodeWrapper {
	return n.Condition(corev1.NodeReady, corev1.ConditionTrue)
}
