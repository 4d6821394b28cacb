package client

import (
	"slices"

	"platform.io/client/api/meta"
)

// Subresources a Resource may list.
const (
	SubresourceStatus   = "status"
	SubresourceScale    = "scale"
	SubresourceBinding  = "binding"
	SubresourceFinalize = "finalize"
)

// Resource describes one resource in one group version: where it is served
// and what it holds.
type Resource struct {
	// Group is the API group, "" for the core group.
	Group string
	// Version is the API version, such as "v1".
	Version string
	// Name is the plural name used in paths, such as "pods".
	Name string
	// Kind is the kind of its objects, such as "Pod".
	Kind string
	// Namespaced says whether its objects live in namespaces.
	Namespaced bool
	// Subresources are the subresources served besides the object itself,
	// such as SubresourceStatus.
	Subresources []string
}

// GroupVersion returns the resource's group and version.
func (r Resource) GroupVersion() meta.GroupVersion {
	return meta.GroupVersion{Group: r.Group, Version: r.Version}
}

// APIVersion returns the apiVersion its objects carry ("v1", "apps/v1").
func (r Resource) APIVersion() string { return r.GroupVersion().String() }

// GroupVersionResource returns the resource's group, version and name.
func (r Resource) GroupVersionResource() meta.GroupVersionResource {
	return meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Name}
}

// GroupVersionKind returns the kind of its objects.
func (r Resource) GroupVersionKind() meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.Kind}
}

// GroupResource returns the resource's group and name.
func (r Resource) GroupResource() meta.GroupResource {
	return meta.GroupResource{Group: r.Group, Resource: r.Name}
}

// ListKind returns the kind of its lists ("PodList").
func (r Resource) ListKind() string { return r.Kind + "List" }

// Has reports whether the resource serves the subresource sub.
func (r Resource) Has(sub string) bool { return slices.Contains(r.Subresources, sub) }

// Resources returns the descriptor of every resource the API server serves,
// in the order of its discovery documents. Each call returns a new slice.
func Resources() []Resource {
	rows := builtins()
	out := make([]Resource, len(rows))
	for i, b := range rows {
		out[i] = b.res
	}
	return out
}

// ResourceFor returns the descriptor of a served resource.
func ResourceFor(gvr meta.GroupVersionResource) (Resource, bool) {
	for _, r := range Resources() {
		if r.GroupVersionResource() == gvr {
			return r, true
		}
	}
	return Resource{}, false
}

// ResourceForKind returns the descriptor of the served resource whose
// objects are of kind gvk.
func ResourceForKind(gvk meta.GroupVersionKind) (Resource, bool) {
	for _, r := range Resources() {
		if r.GroupVersionKind() == gvk {
			return r, true
		}
	}
	return Resource{}, false
}
