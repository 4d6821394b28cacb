package v1

import "platform.io/client/api/meta"

// ObjectReference points at another object, possibly in another namespace,
// and optionally at a field inside it.
type ObjectReference struct {
	Kind            string   `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	Namespace       string   `json:"namespace,omitempty" protobuf:"bytes,2,opt,name=namespace"`
	Name            string   `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
	UID             meta.UID `json:"uid,omitempty" protobuf:"bytes,4,opt,name=uid,casttype=platform.io/client/api/meta.UID"`
	APIVersion      string   `json:"apiVersion,omitempty" protobuf:"bytes,5,opt,name=apiVersion"`
	ResourceVersion string   `json:"resourceVersion,omitempty" protobuf:"bytes,6,opt,name=resourceVersion"`
	// FieldPath selects part of the object, e.g. "spec.containers{app}".
	FieldPath string `json:"fieldPath,omitempty" protobuf:"bytes,7,opt,name=fieldPath"`
}

// LocalObjectReference names an object in the referrer's own namespace.
type LocalObjectReference struct {
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
}

// TypedLocalObjectReference names an object of a given kind and group in the
// referrer's namespace; an empty group means the core group.
type TypedLocalObjectReference struct {
	APIGroup *string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	Kind     string  `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	Name     string  `json:"name" protobuf:"bytes,3,opt,name=name"`
}

// TypedObjectReference is a TypedLocalObjectReference that may name another namespace.
type TypedObjectReference struct {
	APIGroup  *string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	Kind      string  `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	Name      string  `json:"name" protobuf:"bytes,3,opt,name=name"`
	Namespace *string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// SecretReference names a secret in any namespace.
type SecretReference struct {
	Name      string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,2,opt,name=namespace"`
}

// Binding attaches one object to another; the scheduler posts one to a pod's
// binding subresource to place the pod on a node.
type Binding struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Target is the object the named object is bound to, such as a Node.
	Target ObjectReference `json:"target" protobuf:"bytes,2,opt,name=target"`
}

// ConditionStatus is the tri-state value of a condition.
type ConditionStatus string

// The values of ConditionStatus.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Condition is the generic condition shape upstream publishes as
// meta.platform.io/v1 Condition; the core group uses it for Service status.
type Condition struct {
	Type               string          `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status             ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	ObservedGeneration int64           `json:"observedGeneration,omitempty" protobuf:"varint,3,opt,name=observedGeneration"`
	LastTransitionTime meta.Time       `json:"lastTransitionTime" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string          `json:"reason" protobuf:"bytes,5,opt,name=reason"`
	Message            string          `json:"message" protobuf:"bytes,6,opt,name=message"`
}

// Protocol is a transport protocol for ports.
type Protocol string

// The supported protocols.
const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)
