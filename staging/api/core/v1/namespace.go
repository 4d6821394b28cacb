package v1

import "platform.io/client/api/meta"

// Namespace is a scope for the names of namespaced objects.
type Namespace struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   NamespaceSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status NamespaceStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// NamespaceList is a list of namespaces.
type NamespaceList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Namespace `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// FinalizerName names a namespace finalizer (spec.finalizers, distinct from metadata.finalizers).
type FinalizerName string

// FinalizerPlatform is the finalizer the namespace controller removes once
// the namespace's content is gone.
const FinalizerPlatform FinalizerName = "platform"

// NamespaceSpec is the desired state of a namespace.
type NamespaceSpec struct {
	Finalizers []FinalizerName `json:"finalizers,omitempty" protobuf:"bytes,1,rep,name=finalizers,casttype=FinalizerName"`
}

// NamespaceStatus is the observed state of a namespace.
type NamespaceStatus struct {
	Phase      NamespacePhase       `json:"phase,omitempty" protobuf:"bytes,1,opt,name=phase,casttype=NamespacePhase"`
	Conditions []NamespaceCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,2,rep,name=conditions"`
}

// NamespacePhase is the lifecycle phase of a namespace.
type NamespacePhase string

// The values of NamespacePhase.
const (
	NamespaceActive      NamespacePhase = "Active"
	NamespaceTerminating NamespacePhase = "Terminating"
)

// NamespaceTerminatingCause is the status cause returned when a write is
// refused because its namespace is being deleted.
const NamespaceTerminatingCause meta.CauseType = "NamespaceTerminating"

// NamespaceConditionType names a namespace condition.
type NamespaceConditionType string

// The built-in namespace conditions, all reported by the namespace deleter.
const (
	NamespaceDeletionDiscoveryFailure NamespaceConditionType = "NamespaceDeletionDiscoveryFailure"
	NamespaceDeletionContentFailure   NamespaceConditionType = "NamespaceDeletionContentFailure"
	NamespaceDeletionGVParsingFailure NamespaceConditionType = "NamespaceDeletionGroupVersionParsingFailure"
	NamespaceContentRemaining         NamespaceConditionType = "NamespaceContentRemaining"
	NamespaceFinalizersRemaining      NamespaceConditionType = "NamespaceFinalizersRemaining"
)

// NamespaceCondition is one observed condition of a namespace. Field number 3 is unused.
type NamespaceCondition struct {
	Type               NamespaceConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=NamespaceConditionType"`
	Status             ConditionStatus        `json:"status" protobuf:"bytes,2,opt,name=status,casttype=ConditionStatus"`
	LastTransitionTime meta.Time              `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string                 `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string                 `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}
