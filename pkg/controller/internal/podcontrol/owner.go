package podcontrol

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// Owner is the controller object pods are created for and claimed by.
type Owner struct {
	// Meta is the owner's metadata (name, namespace, uid, deletion).
	Meta *meta.ObjectMeta
	// GVK is the owner's kind, as it appears in ownerReferences.
	GVK meta.GroupVersionKind
}

// Ref returns the controller ownerReference that marks a dependent as
// owned by o: controller and blockOwnerDeletion are true.
func (o Owner) Ref() meta.OwnerReference {
	yes := true
	return meta.OwnerReference{
		APIVersion:         o.GVK.GroupVersion().String(),
		Kind:               o.GVK.Kind,
		Name:               o.Meta.Name,
		UID:                o.Meta.UID,
		Controller:         &yes,
		BlockOwnerDeletion: &yes,
	}
}

// Reference returns o as the involved object of an event.
func (o Owner) Reference() corev1.ObjectReference {
	return corev1.ObjectReference{
		APIVersion:      o.GVK.GroupVersion().String(),
		Kind:            o.GVK.Kind,
		Namespace:       o.Meta.Namespace,
		Name:            o.Meta.Name,
		UID:             o.Meta.UID,
		ResourceVersion: o.Meta.ResourceVersion,
	}
}

// ControllerOf returns the ownerReference of m that has controller set,
// or nil.
func ControllerOf(m *meta.ObjectMeta) *meta.OwnerReference {
	for i := range m.OwnerReferences {
		r := &m.OwnerReferences[i]
		if r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// IsControlledBy reports whether m's controller is the object with uid.
func IsControlledBy(m *meta.ObjectMeta, uid meta.UID) bool {
	r := ControllerOf(m)
	return r != nil && r.UID == uid
}
