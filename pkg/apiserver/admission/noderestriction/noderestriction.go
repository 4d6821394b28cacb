package noderestriction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/apiserver/authz/node"
	"platform.io/platform/pkg/component/authn"
)

// Name is the plugin's upstream name.
const Name = "NodeRestriction"

// Getter reads one object, from a cache that never misses a fresh write
// (registry.Store's GetCached).
type Getter interface {
	GetCached(ctx context.Context, ns, name string) (meta.Object, error)
}

// Plugin is the NodeRestriction admission plugin. It only checks, so it
// is a validator: it sees the object as it will be stored, after every
// mutating plugin, and again on each retry of an update.
type Plugin struct {
	pods  Getter
	nodes Getter
}

var _ admission.Validator = (*Plugin)(nil)

// New returns the plugin, reading pods and nodes from the given stores.
func New(pods, nodes Getter) *Plugin {
	return &Plugin{pods: pods, nodes: nodes}
}

// Handles implements admission.Interface: writes of every kind.
func (p *Plugin) Handles(op admission.Operation) bool {
	return op == admission.Create || op == admission.Update || op == admission.Delete
}

// denyf is a refusal in upstream's words; the chain makes it a 403 on the
// object written.
func denyf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// Validate refuses a node's write to anything that is not its own.
func (p *Plugin) Validate(ctx context.Context, a *admission.Attributes) error {
	name, isNode := identity(a.User)
	if !isNode {
		return nil
	}
	if name == "" {
		return denyf("could not determine node from user %q", a.User.Name)
	}
	gr := a.GroupResource()
	switch {
	case gr == meta.GroupResource{Resource: "pods"}:
		switch a.Subresource {
		case "":
			return p.pod(ctx, name, a)
		case "status":
			return podStatus(name, a)
		case "eviction":
			return p.eviction(ctx, name, a)
		default:
			return denyf("unexpected subresource %q, only 'status' and 'eviction' are allowed", a.Subresource)
		}
	case gr == meta.GroupResource{Resource: "nodes"}:
		return nodeWrite(name, a)
	case gr == meta.GroupResource{Resource: "serviceaccounts"}:
		return p.token(ctx, name, a)
	case gr == meta.GroupResource{Group: "coordination.platform.io", Resource: "leases"}:
		return lease(name, a)
	case gr == meta.GroupResource{Resource: "persistentvolumeclaims"}:
		if a.Subresource != "status" {
			return errors.New("may only update PVC status")
		}
	}
	return nil
}

// identity returns the node u is. isNode is true for any user named
// system:node:... in group system:nodes, with name "" when nothing
// follows the prefix: such a user is refused, not let through.
func identity(u *authn.User) (name string, isNode bool) {
	if u == nil || !slices.Contains(u.Groups, node.NodesGroup) {
		return "", false
	}
	name, ok := strings.CutPrefix(u.Name, node.NodeUserPrefix)
	return name, ok
}

// objectName is the name the write is about: the attributes', else the
// object's (a create with the name only in the body).
func objectName(a *admission.Attributes) string {
	if a.Name != "" || a.Object == nil {
		return a.Name
	}
	return a.Object.GetObjectMeta().Name
}

// getPod reads a pod. Not found stays a 404, as upstream; any other
// failure refuses the write (its message kept, its status dropped).
func (p *Plugin) getPod(ctx context.Context, ns, name string) (*corev1.Pod, error) {
	obj, err := p.pods.GetCached(ctx, ns, name)
	if apierrors.IsNotFound(err) {
		return nil, err
	}
	if err != nil {
		return nil, denyf("%s", err.Error())
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, denyf("unexpected type %T", obj)
	}
	return pod, nil
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
