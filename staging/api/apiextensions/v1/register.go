package v1

import "platform.io/client/api/meta"

// GroupName is the API group served by this package.
const GroupName = "apiextensions.platform.io"

// SchemeGroupVersion is the group and version of every kind in this package.
var SchemeGroupVersion = meta.GroupVersion{Group: GroupName, Version: "v1"}

// Kind qualifies a kind name with this package's group and version.
func Kind(kind string) meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: GroupName, Version: SchemeGroupVersion.Version, Kind: kind}
}

// Resource qualifies a resource name with this package's group.
func Resource(resource string) meta.GroupResource {
	return meta.GroupResource{Group: GroupName, Resource: resource}
}
