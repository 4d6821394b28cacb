package v1

import "platform.io/client/api/meta"

// GroupName is the API group of this package.
const GroupName = "audit.platform.io"

// SchemeGroupVersion is the group version of this package.
var SchemeGroupVersion = meta.GroupVersion{Group: GroupName, Version: "v1"}

// UpstreamGroupVersion is upstream's name of the same schema,
// audit.k8s.io/v1, which policy files and log consumers written for the
// upstream platform use.
var UpstreamGroupVersion = meta.GroupVersion{Group: "audit.k8s.io", Version: "v1"}

// KnownGroupVersion reports whether gv (e.g. "audit.k8s.io/v1") names
// this package's schema.
func KnownGroupVersion(gv string) bool {
	return gv == SchemeGroupVersion.String() || gv == UpstreamGroupVersion.String()
}
