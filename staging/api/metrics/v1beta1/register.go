package v1beta1

import "platform.io/client/api/meta"

// GroupName is the API group served by this package.
const GroupName = "metrics.platform.io"

// UpstreamGroupName is the unbranded group the same kinds are also served
// under, because stock clients (`kubectl top`) ask for it by that name.
const UpstreamGroupName = "metrics.k8s.io"

// SchemeGroupVersion is the group and version of every kind in this package.
var SchemeGroupVersion = meta.GroupVersion{Group: GroupName, Version: "v1beta1"}

// Kind qualifies a kind name with this package's group and version.
func Kind(kind string) meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: GroupName, Version: SchemeGroupVersion.Version, Kind: kind}
}

// Resource qualifies a resource name (such as "pods") with this package's group.
func Resource(resource string) meta.GroupResource {
	return meta.GroupResource{Group: GroupName, Resource: resource}
}
