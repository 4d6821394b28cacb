package v1

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// ReplicaSet keeps a given number of pods matching its selector running.
type ReplicaSet struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   ReplicaSetSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status ReplicaSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ReplicaSetSpec is what a ReplicaSet is asked to maintain.
type ReplicaSetSpec struct {
	// Replicas is the wanted pod count; nil means the default of 1.
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// MinReadySeconds is how long a new pod must stay ready before it counts
	// as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,4,opt,name=minReadySeconds"`
	// Selector picks the pods counted against Replicas; it must match the
	// template's labels.
	Selector *meta.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template is the pod created when too few match.
	Template corev1.PodTemplateSpec `json:"template,omitempty" protobuf:"bytes,3,opt,name=template"`
}

// ReplicaSetStatus is what the controller last observed of a ReplicaSet.
type ReplicaSetStatus struct {
	// Replicas counts the non-terminating pods the selector matches.
	Replicas int32 `json:"replicas" protobuf:"varint,1,opt,name=replicas"`
	// FullyLabeledReplicas counts those pods carrying every template label.
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty" protobuf:"varint,2,opt,name=fullyLabeledReplicas"`
	// ReadyReplicas counts those pods whose Ready condition is true.
	ReadyReplicas int32 `json:"readyReplicas,omitempty" protobuf:"varint,4,opt,name=readyReplicas"`
	// AvailableReplicas counts those pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty" protobuf:"varint,5,opt,name=availableReplicas"`
	// TerminatingReplicas counts matched pods being deleted; nil when the
	// server does not track it.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty" protobuf:"varint,7,opt,name=terminatingReplicas"`
	// ObservedGeneration is the metadata.generation the controller acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,3,opt,name=observedGeneration"`
	// Conditions are the latest observations, at most one per type.
	Conditions []ReplicaSetCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,6,rep,name=conditions"`
}

// ReplicaSetConditionType names an aspect of a ReplicaSet's state.
type ReplicaSetConditionType string

// The condition types the ReplicaSet controller reports.
const (
	// ReplicaSetReplicaFailure is set when a pod cannot be created (quota,
	// admission, ...) or deleted.
	ReplicaSetReplicaFailure ReplicaSetConditionType = "ReplicaFailure"
)

// ReplicaSetCondition is one observation about a ReplicaSet.
type ReplicaSetCondition struct {
	Type   ReplicaSetConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=ReplicaSetConditionType"`
	Status corev1.ConditionStatus  `json:"status" protobuf:"bytes,2,opt,name=status,casttype=platform.io/client/api/core/v1.ConditionStatus"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime meta.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a CamelCase word explaining the last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Message is a sentence for humans about the last transition.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// ReplicaSetList is a page of ReplicaSets.
type ReplicaSetList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []ReplicaSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}
