package v1

import "platform.io/client/api/meta"

// Scale reads or sets the replica count of a scalable object through its
// /scale subresource. Its metadata mirrors the target object's.
type Scale struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   ScaleSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status ScaleStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ScaleSpec is the wanted size.
type ScaleSpec struct {
	// Replicas is the wanted number of instances.
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
}

// ScaleStatus is the observed size.
type ScaleStatus struct {
	// Replicas is the number of instances last observed.
	Replicas int32 `json:"replicas" protobuf:"varint,1,opt,name=replicas"`
	// Selector is the target's pod selector in query-parameter syntax
	// ("app=web,tier in (fe)"), so clients need not understand the target's
	// own selector shape.
	Selector string `json:"selector,omitempty" protobuf:"bytes,2,opt,name=selector"`
}
