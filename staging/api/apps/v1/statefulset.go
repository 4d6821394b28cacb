package v1

import (
	"encoding/json"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

// StatefulSet runs pods with stable identities: each ordinal keeps its
// hostname and its own persistent volume claims across rescheduling.
type StatefulSet struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   StatefulSetSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status StatefulSetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// StatefulSetSpec is what a StatefulSet is asked to run.
type StatefulSetSpec struct {
	// Replicas is the wanted pod count; nil means the default of 1.
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Selector picks the pods the StatefulSet owns; it must match the
	// template's labels.
	Selector *meta.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template is the pod each ordinal runs, named <set>-<ordinal>.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,3,opt,name=template"`
	// VolumeClaimTemplates are the claims created once per ordinal and
	// mounted by name; they win over template volumes of the same name.
	VolumeClaimTemplates []PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty" protobuf:"bytes,4,rep,name=volumeClaimTemplates"`
	// ServiceName is the headless Service that gives the pods their DNS names.
	ServiceName string `json:"serviceName" protobuf:"bytes,5,opt,name=serviceName"`
	// PodManagementPolicy is OrderedReady (the default) or Parallel.
	PodManagementPolicy PodManagementPolicyType `json:"podManagementPolicy,omitempty" protobuf:"bytes,6,opt,name=podManagementPolicy,casttype=PodManagementPolicyType"`
	// UpdateStrategy says how pods are replaced after a template change.
	UpdateStrategy StatefulSetUpdateStrategy `json:"updateStrategy,omitempty" protobuf:"bytes,7,opt,name=updateStrategy"`
	// RevisionHistoryLimit caps how many old ControllerRevisions are kept;
	// nil means the default of 10.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,8,opt,name=revisionHistoryLimit"`
	// MinReadySeconds is how long a new pod must stay ready before it counts
	// as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,9,opt,name=minReadySeconds"`
	// PersistentVolumeClaimRetentionPolicy says whether claims made from
	// VolumeClaimTemplates outlive the set and scale-downs; nil keeps them.
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty" protobuf:"bytes,10,opt,name=persistentVolumeClaimRetentionPolicy"`
	// Ordinals moves the first ordinal away from 0.
	Ordinals *StatefulSetOrdinals `json:"ordinals,omitempty" protobuf:"bytes,11,opt,name=ordinals"`
}

// PodManagementPolicyType says whether pods are started and stopped one at a
// time or all together.
type PodManagementPolicyType string

// The pod management policies of a StatefulSet.
const (
	// OrderedReadyPodManagement creates pods in increasing ordinal order and
	// removes them in decreasing order, each step waiting until the previous
	// pod is ready or gone.
	OrderedReadyPodManagement PodManagementPolicyType = "OrderedReady"
	// ParallelPodManagement creates and removes pods without waiting for
	// one another.
	ParallelPodManagement PodManagementPolicyType = "Parallel"
)

// StatefulSetUpdateStrategy chooses and tunes how a StatefulSet's pods are
// replaced.
type StatefulSetUpdateStrategy struct {
	// Type is RollingUpdate (the default) or OnDelete.
	Type StatefulSetUpdateStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=StatefulSetStrategyType"`
	// RollingUpdate tunes a RollingUpdate strategy.
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"`
}

// StatefulSetUpdateStrategyType names a replacement method.
type StatefulSetUpdateStrategyType string

// The replacement methods of a StatefulSet.
const (
	// RollingUpdateStatefulSetStrategyType replaces pods from the highest
	// ordinal down, honouring the ordering rules.
	RollingUpdateStatefulSetStrategyType StatefulSetUpdateStrategyType = "RollingUpdate"
	// OnDeleteStatefulSetStrategyType replaces a pod only after someone
	// deletes it.
	OnDeleteStatefulSetStrategyType StatefulSetUpdateStrategyType = "OnDelete"
)

// RollingUpdateStatefulSetStrategy tunes a StatefulSet rolling update.
type RollingUpdateStatefulSetStrategy struct {
	// Partition keeps ordinals below it on the old revision (a canary
	// rollout); nil means 0.
	Partition *int32 `json:"partition,omitempty" protobuf:"varint,1,opt,name=partition"`
	// MaxUnavailable is how many pods may be unavailable during the update,
	// as a count or a percentage (rounded up); nil means 1. Only honoured
	// when the MaxUnavailableStatefulSet feature is on.
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,2,opt,name=maxUnavailable"`
}

// PersistentVolumeClaimRetentionPolicyType says whether a claim made from a
// volume claim template is kept or deleted.
type PersistentVolumeClaimRetentionPolicyType string

// The claim retention policies.
const (
	// RetainPersistentVolumeClaimRetentionPolicyType leaves the claims in
	// place (the default).
	RetainPersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Retain"
	// DeletePersistentVolumeClaimRetentionPolicyType deletes the claims.
	DeletePersistentVolumeClaimRetentionPolicyType PersistentVolumeClaimRetentionPolicyType = "Delete"
)

// StatefulSetPersistentVolumeClaimRetentionPolicy says what happens to the
// claims made from VolumeClaimTemplates.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	// WhenDeleted applies when the StatefulSet itself is deleted.
	WhenDeleted PersistentVolumeClaimRetentionPolicyType `json:"whenDeleted,omitempty" protobuf:"bytes,1,opt,name=whenDeleted,casttype=PersistentVolumeClaimRetentionPolicyType"`
	// WhenScaled applies to the claims of ordinals removed by a scale-down.
	WhenScaled PersistentVolumeClaimRetentionPolicyType `json:"whenScaled,omitempty" protobuf:"bytes,2,opt,name=whenScaled,casttype=PersistentVolumeClaimRetentionPolicyType"`
}

// StatefulSetOrdinals controls how replicas are numbered.
type StatefulSetOrdinals struct {
	// Start is the first ordinal; replicas are numbered
	// [start, start+replicas).
	Start int32 `json:"start" protobuf:"varint,1,opt,name=start"`
}

// PersistentVolumeClaim is a claim template inside a StatefulSet. It keeps
// the claim's spec and status as raw JSON, so this package does not depend
// on the core storage types; decode them with the core/v1 types when needed.
type PersistentVolumeClaim struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is the claim's spec (accessModes, resources, storageClassName, ...).
	Spec json.RawMessage `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is the claim's status; templates normally leave it empty.
	Status json.RawMessage `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// StatefulSetStatus is what the controller last observed of a StatefulSet.
type StatefulSetStatus struct {
	// ObservedGeneration is the metadata.generation the controller acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// Replicas counts the pods the controller created.
	Replicas int32 `json:"replicas" protobuf:"varint,2,opt,name=replicas"`
	// ReadyReplicas counts those pods whose Ready condition is true.
	ReadyReplicas int32 `json:"readyReplicas,omitempty" protobuf:"varint,3,opt,name=readyReplicas"`
	// CurrentReplicas counts pods at CurrentRevision.
	CurrentReplicas int32 `json:"currentReplicas,omitempty" protobuf:"varint,4,opt,name=currentReplicas"`
	// UpdatedReplicas counts pods at UpdateRevision.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty" protobuf:"varint,5,opt,name=updatedReplicas"`
	// CurrentRevision is the revision of ordinals [0, currentReplicas).
	CurrentRevision string `json:"currentRevision,omitempty" protobuf:"bytes,6,opt,name=currentRevision"`
	// UpdateRevision is the revision of ordinals
	// [replicas-updatedReplicas, replicas).
	UpdateRevision string `json:"updateRevision,omitempty" protobuf:"bytes,7,opt,name=updateRevision"`
	// CollisionCount is bumped when a new ControllerRevision name collides
	// with an existing one, and salts the next name hash.
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,9,opt,name=collisionCount"`
	// Conditions are the latest observations, at most one per type.
	Conditions []StatefulSetCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,10,rep,name=conditions"`
	// AvailableReplicas counts pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas" protobuf:"varint,11,opt,name=availableReplicas"`
}

// StatefulSetConditionType names an aspect of a StatefulSet's state. No
// values are defined yet.
type StatefulSetConditionType string

// StatefulSetCondition is one observation about a StatefulSet.
type StatefulSetCondition struct {
	Type   StatefulSetConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=StatefulSetConditionType"`
	Status corev1.ConditionStatus   `json:"status" protobuf:"bytes,2,opt,name=status,casttype=platform.io/client/api/core/v1.ConditionStatus"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime meta.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a CamelCase word explaining the last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Message is a sentence for humans about the last transition.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// StatefulSetList is a page of StatefulSets.
type StatefulSetList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []StatefulSet `json:"items" protobuf:"bytes,2,rep,name=items"`
}
