package v1

import "platform.io/client/api/meta"

// LimitRange bounds, and gives defaults for, the compute resources of the
// containers and pods (and the storage of the claims) of its namespace.
// The LimitRanger admission plugin applies it to every create and update.
type LimitRange struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec holds the limits the namespace enforces.
	Spec LimitRangeSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// LimitRangeList is a list of limit ranges.
type LimitRangeList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []LimitRange `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// LimitRangeSpec is the set of limits a LimitRange enforces.
type LimitRangeSpec struct {
	// Limits are the enforced limits, one item per kind of object.
	Limits []LimitRangeItem `json:"limits" protobuf:"bytes,1,rep,name=limits"`
}

// LimitType names the kind of object a LimitRangeItem applies to.
type LimitType string

// The values of LimitType.
const (
	// LimitTypePod bounds the sum over a pod's containers.
	LimitTypePod LimitType = "Pod"
	// LimitTypeContainer bounds, and defaults, each container.
	LimitTypeContainer LimitType = "Container"
	// LimitTypePersistentVolumeClaim bounds a claim's storage request.
	LimitTypePersistentVolumeClaim LimitType = "PersistentVolumeClaim"
)

// LimitRangeItem is the minimum, maximum, defaults and largest
// limit-to-request ratio of each resource, for one kind of object.
type LimitRangeItem struct {
	// Type is the kind of object these limits apply to.
	Type LimitType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=LimitType"`
	// Max is the largest amount of each resource an object may use.
	Max ResourceList `json:"max,omitempty" protobuf:"bytes,2,rep,name=max,casttype=ResourceList,castkey=ResourceName"`
	// Min is the smallest amount of each resource an object may use.
	Min ResourceList `json:"min,omitempty" protobuf:"bytes,3,rep,name=min,casttype=ResourceList,castkey=ResourceName"`
	// Default is the limit a container gets for a resource it sets no
	// limit for.
	Default ResourceList `json:"default,omitempty" protobuf:"bytes,4,rep,name=default,casttype=ResourceList,castkey=ResourceName"`
	// DefaultRequest is the request a container gets for a resource it
	// sets no request for.
	DefaultRequest ResourceList `json:"defaultRequest,omitempty" protobuf:"bytes,5,rep,name=defaultRequest,casttype=ResourceList,castkey=ResourceName"`
	// MaxLimitRequestRatio is, per resource, the largest a limit may be
	// divided by its request.
	MaxLimitRequestRatio ResourceList `json:"maxLimitRequestRatio,omitempty" protobuf:"bytes,6,rep,name=maxLimitRequestRatio,casttype=ResourceList,castkey=ResourceName"`
}
