package v1

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

// DaemonSet runs one copy of a pod on every eligible node.
type DaemonSet struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   DaemonSetSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status DaemonSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// DaemonSetSpec is what a DaemonSet is asked to run.
type DaemonSetSpec struct {
	// Selector picks the pods the DaemonSet owns; it must match the
	// template's labels.
	Selector *meta.LabelSelector `json:"selector" protobuf:"bytes,1,opt,name=selector"`
	// Template is the pod placed on each node its node selector and
	// affinity allow (every node when it has none).
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,2,opt,name=template"`
	// UpdateStrategy says how pods are replaced after a template change.
	UpdateStrategy DaemonSetUpdateStrategy `json:"updateStrategy,omitempty" protobuf:"bytes,3,opt,name=updateStrategy"`
	// MinReadySeconds is how long a new pod must stay ready before it counts
	// as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,4,opt,name=minReadySeconds"`
	// RevisionHistoryLimit caps how many old ControllerRevisions are kept;
	// nil means the default of 10.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,6,opt,name=revisionHistoryLimit"`
}

// DaemonSetUpdateStrategy chooses and tunes how a DaemonSet's pods are
// replaced.
type DaemonSetUpdateStrategy struct {
	// Type is RollingUpdate (the default) or OnDelete.
	Type DaemonSetUpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type"`
	// RollingUpdate tunes a RollingUpdate strategy; it must be unset otherwise.
	RollingUpdate *RollingUpdateDaemonSet `json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"`
}

// DaemonSetUpdateStrategyType names a replacement method.
type DaemonSetUpdateStrategyType string

// The replacement methods of a DaemonSet.
const (
	// RollingUpdateDaemonSetStrategyType replaces pods node by node.
	RollingUpdateDaemonSetStrategyType DaemonSetUpdateStrategyType = "RollingUpdate"
	// OnDeleteDaemonSetStrategyType replaces a pod only after someone
	// deletes it.
	OnDeleteDaemonSetStrategyType DaemonSetUpdateStrategyType = "OnDelete"
)

// RollingUpdateDaemonSet bounds a DaemonSet rolling update. Each bound is a
// count or a percentage of status.desiredNumberScheduled.
type RollingUpdateDaemonSet struct {
	// MaxUnavailable is how many nodes may be without an available daemon
	// pod during the update (percentages round up). Defaults to 1.
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,1,opt,name=maxUnavailable"`
	// MaxSurge is how many nodes may run a new pod next to the old one
	// before the old one is removed (percentages round up, to at least 1).
	// Defaults to 0.
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty" protobuf:"bytes,2,opt,name=maxSurge"`
}

// DaemonSetStatus is what the controller last observed of a DaemonSet.
type DaemonSetStatus struct {
	// CurrentNumberScheduled counts nodes that should run the pod and run at
	// least one.
	CurrentNumberScheduled int32 `json:"currentNumberScheduled" protobuf:"varint,1,opt,name=currentNumberScheduled"`
	// NumberMisscheduled counts nodes that run the pod but should not.
	NumberMisscheduled int32 `json:"numberMisscheduled" protobuf:"varint,2,opt,name=numberMisscheduled"`
	// DesiredNumberScheduled counts nodes that should run the pod.
	DesiredNumberScheduled int32 `json:"desiredNumberScheduled" protobuf:"varint,3,opt,name=desiredNumberScheduled"`
	// NumberReady counts nodes that should run the pod and have a ready one.
	NumberReady int32 `json:"numberReady" protobuf:"varint,4,opt,name=numberReady"`
	// ObservedGeneration is the metadata.generation the controller acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,5,opt,name=observedGeneration"`
	// UpdatedNumberScheduled counts nodes running a pod of the current template.
	UpdatedNumberScheduled int32 `json:"updatedNumberScheduled,omitempty" protobuf:"varint,6,opt,name=updatedNumberScheduled"`
	// NumberAvailable counts nodes that should run the pod and have one
	// ready for at least minReadySeconds.
	NumberAvailable int32 `json:"numberAvailable,omitempty" protobuf:"varint,7,opt,name=numberAvailable"`
	// NumberUnavailable counts nodes that should run the pod but have no
	// available one.
	NumberUnavailable int32 `json:"numberUnavailable,omitempty" protobuf:"varint,8,opt,name=numberUnavailable"`
	// CollisionCount is bumped when a new ControllerRevision name collides
	// with an existing one, and salts the next name hash.
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,9,opt,name=collisionCount"`
	// Conditions are the latest observations, at most one per type.
	Conditions []DaemonSetCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,10,rep,name=conditions"`
}

// DaemonSetConditionType names an aspect of a DaemonSet's state. No values
// are defined yet.
type DaemonSetConditionType string

// DaemonSetCondition is one observation about a DaemonSet.
type DaemonSetCondition struct {
	Type   DaemonSetConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=DaemonSetConditionType"`
	Status corev1.ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=platform.io/client/api/core/v1.ConditionStatus"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime meta.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a CamelCase word explaining the last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Message is a sentence for humans about the last transition.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// DaemonSetList is a page of DaemonSets.
type DaemonSetList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []DaemonSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}
