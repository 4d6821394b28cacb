package namespacelifecycle

import (
	"context"
	"errors"
	"fmt"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
)

// Name is the plugin's name in --enable-admission-plugins.
const Name = "NamespaceLifecycle"

// Namespaces reads a namespace, from a cache that includes this server's
// own writes, as an object shared with other readers that the plugin only
// looks at (registry.Store's GetShared); it returns a NotFound API error
// for a missing one.
type Namespaces interface {
	GetShared(ctx context.Context, ns, name string) (meta.Object, error)
}

// Plugin guards namespaces' lifecycle.
type Plugin struct {
	namespaces Namespaces
}

var _ admission.Validator = (*Plugin)(nil)

// New returns the plugin reading namespaces from ns.
func New(ns Namespaces) *Plugin { return &Plugin{namespaces: ns} }

// immortal are the namespaces that may not be deleted.
var immortal = map[string]bool{corev1.NamespaceDefault: true, corev1.NamespaceSystem: true, corev1.NamespacePublic: true}

var namespacesResource = meta.GroupResource{Resource: "namespaces"}

// Handles is true for creates and deletes.
func (p *Plugin) Handles(op admission.Operation) bool {
	return op == admission.Create || op == admission.Delete
}

// Validate refuses the deletion of an immortal namespace, and the creation
// of an object in a missing (404) or terminating (403) namespace. Actions
// on existing objects (pods/binding, pods/eviction, tokens) are allowed
// in a terminating namespace: its deletion needs them to finish.
func (p *Plugin) Validate(ctx context.Context, a *admission.Attributes) error {
	isNamespace := a.GroupResource() == namespacesResource
	if a.Operation == admission.Delete {
		if isNamespace && a.Subresource == "" && immortal[a.Name] {
			return apierrors.NewForbidden(namespacesResource, a.Name, errors.New("this namespace may not be deleted"))
		}
		return nil
	}
	if a.Namespace == "" || isNamespace {
		return nil
	}
	obj, err := p.namespaces.GetShared(ctx, "", a.Namespace)
	if err != nil {
		return err
	}
	ns, ok := obj.(*corev1.Namespace)
	if !ok {
		return fmt.Errorf("namespace %s: unexpected %T", a.Namespace, obj)
	}
	if a.Subresource == "" && (ns.DeletionTimestamp != nil || ns.Status.Phase == corev1.NamespaceTerminating) {
		return apierrors.NewForbidden(a.GroupResource(), a.Name,
			fmt.Errorf("unable to create new content in namespace %s because it is being terminated", a.Namespace))
	}
	return nil
}
