package admission

import (
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/authn"
)

// Operation is the kind of write being admitted, as upstream names it.
type Operation string

// The operations.
const (
	Create  Operation = "CREATE"
	Update  Operation = "UPDATE"
	Delete  Operation = "DELETE"
	Connect Operation = "CONNECT"
)

// Attributes describe one write. The store builds them; mutating plugins
// may change Object in place (or replace it), and nothing else.
type Attributes struct {
	Operation Operation
	// Kind is Object's kind (OldObject's on a delete), in the served version.
	Kind meta.GroupVersionKind
	// Resource is the resource written, in the group version of the request.
	Resource meta.GroupVersionResource
	// Subresource is "" for the main resource, else "status", "scale",
	// "binding", "eviction", "token", "finalize", ...
	Subresource string
	Namespace   string
	// Name is the object's name; "" on a create with generateName until the
	// store has chosen one.
	Name string
	// Object is the object to be stored: nil on a delete. On a
	// subresource action (pods/binding) it is the action's body.
	Object meta.Object
	// OldObject is the stored object on an update or delete, nil on a create.
	OldObject meta.Object
	// Options are the request's options as webhooks receive them:
	// *meta.CreateOptions, *meta.UpdateOptions, *meta.PatchOptions or
	// *meta.DeleteOptions.
	Options any
	// DryRun is set for dryRun=All: nothing will be stored, and plugins
	// must have no side effects.
	DryRun bool
	// User made the request (after impersonation).
	User *authn.User

	// reinvoked is set during the second mutating pass (see Reinvoker).
	reinvoked bool
	// reinvokeRequested is set when a plugin asks for a second pass.
	reinvokeRequested bool
}

// IsReinvoke reports whether this call is the chain's second mutating pass.
func (a *Attributes) IsReinvoke() bool { return a.reinvoked }

// RequestReinvocation asks the chain for one more mutating pass after this
// one (a webhook with reinvocationPolicy IfNeeded whose object a later
// plugin changed). It has no effect during the second pass.
func (a *Attributes) RequestReinvocation() {
	if !a.reinvoked {
		a.reinvokeRequested = true
	}
}

// GroupResource returns the group and resource written.
func (a *Attributes) GroupResource() meta.GroupResource {
	return meta.GroupResource{Group: a.Resource.Group, Resource: a.Resource.Resource}
}
