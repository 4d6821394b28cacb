package meta

import "strings"

// GroupName is the API group of the kinds in this package.
const GroupName = "meta.platform.io"

// Object is implemented by every top-level API object: a pointer to a struct
// that embeds TypeMeta inline and ObjectMeta as "metadata".
type Object interface {
	GetTypeMeta() *TypeMeta
	GetObjectMeta() *ObjectMeta
}

// ListObject is implemented by every list kind: a pointer to a struct that
// embeds TypeMeta inline and ListMeta as "metadata".
type ListObject interface {
	GetTypeMeta() *TypeMeta
	GetListMeta() *ListMeta
}

// TypeMeta names the schema of a serialized object. It is embedded inline.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,2,opt,name=apiVersion"`
}

// GetTypeMeta lets every type that embeds TypeMeta satisfy Object.
func (t *TypeMeta) GetTypeMeta() *TypeMeta { return t }

// GroupVersion is an API group and version, such as apps/v1 or the core
// group's v1 (whose Group is empty).
type GroupVersion struct {
	Group   string
	Version string
}

// String renders the apiVersion form: "v1" for the core group, "group/version" otherwise.
func (gv GroupVersion) String() string {
	if gv.Group == "" {
		return gv.Version
	}
	return gv.Group + "/" + gv.Version
}

// ParseGroupVersion splits an apiVersion string. "v1" is the core group.
func ParseGroupVersion(apiVersion string) GroupVersion {
	if g, v, ok := strings.Cut(apiVersion, "/"); ok {
		return GroupVersion{Group: g, Version: v}
	}
	return GroupVersion{Version: apiVersion}
}

// GroupVersionKind names a kind within a group and version.
type GroupVersionKind struct {
	Group   string
	Version string
	Kind    string
}

// GroupVersion drops the kind.
func (gvk GroupVersionKind) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvk.Group, Version: gvk.Version}
}

// GroupVersionResource names a resource (the plural used in URLs) within a group and version.
type GroupVersionResource struct {
	Group    string
	Version  string
	Resource string
}

// GroupResource names a resource independent of version.
type GroupResource struct {
	Group    string
	Resource string
}

// String renders "resource.group", or just "resource" for the core group, as upstream messages do.
func (gr GroupResource) String() string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}
