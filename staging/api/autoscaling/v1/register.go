package v1

import "platform.io/client/api/meta"

// GroupName is the API group of the kinds in this package.
const GroupName = "autoscaling"

// SchemeGroupVersion is the group and version served by this package.
var SchemeGroupVersion = meta.GroupVersion{Group: GroupName, Version: "v1"}

// Kind qualifies a kind name with this package's group and version.
func Kind(kind string) meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: GroupName, Version: SchemeGroupVersion.Version, Kind: kind}
}
