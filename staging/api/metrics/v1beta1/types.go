package v1beta1

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// NodeMetrics is the resource usage of one node, measured over the
// interval [Timestamp-Window, Timestamp]. Its name is the node's name.
type NodeMetrics struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Timestamp is the end of the interval the sample covers.
	Timestamp meta.Time `json:"timestamp" protobuf:"bytes,2,opt,name=timestamp"`
	// Window is the length of the interval the sample covers.
	Window meta.Duration `json:"window" protobuf:"bytes,3,opt,name=window"`
	// Usage is the node's usage: "cpu" in cores, "memory" as the working set.
	Usage corev1.ResourceList `json:"usage" protobuf:"bytes,4,rep,name=usage"`
}

// NodeMetricsList is a page of NodeMetrics.
type NodeMetricsList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []NodeMetrics `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// PodMetrics is the resource usage of one pod's containers, all measured
// over the same interval [Timestamp-Window, Timestamp]. Its name and
// namespace are the pod's.
type PodMetrics struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Timestamp is the end of the interval the sample covers.
	Timestamp meta.Time `json:"timestamp" protobuf:"bytes,2,opt,name=timestamp"`
	// Window is the length of the interval the sample covers.
	Window meta.Duration `json:"window" protobuf:"bytes,3,opt,name=window"`
	// Containers holds one entry per running container of the pod.
	Containers []ContainerMetrics `json:"containers" protobuf:"bytes,4,rep,name=containers"`
}

// PodMetricsList is a page of PodMetrics.
type PodMetricsList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []PodMetrics `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ContainerMetrics is one container's usage.
type ContainerMetrics struct {
	// Name is the container's name in the pod's spec.containers.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Usage is the container's usage: "cpu" in cores, "memory" as the
	// working set.
	Usage corev1.ResourceList `json:"usage" protobuf:"bytes,2,rep,name=usage"`
}
