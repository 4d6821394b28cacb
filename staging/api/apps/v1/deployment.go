package v1

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

// Deployment declares a desired set of pods and rolls changes to it out
// through a series of ReplicaSets.
type Deployment struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec   DeploymentSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status DeploymentStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// DeploymentSpec is what the user asks a Deployment to run.
type DeploymentSpec struct {
	// Replicas is the wanted pod count; nil means the default of 1.
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Selector picks the pods (and ReplicaSets) the Deployment owns. It
	// must match the template's labels.
	Selector *meta.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template is the pod every ReplicaSet of this Deployment stamps out.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,3,opt,name=template"`
	// Strategy says how old pods are replaced by new ones.
	Strategy DeploymentStrategy `json:"strategy,omitempty" patchStrategy:"retainKeys" protobuf:"bytes,4,opt,name=strategy"`
	// MinReadySeconds is how long a new pod must stay ready before it counts
	// as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,5,opt,name=minReadySeconds"`
	// RevisionHistoryLimit caps how many old ReplicaSets are kept for
	// rollback; nil means the default of 10.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,6,opt,name=revisionHistoryLimit"`
	// Paused stops the controller from acting on template changes.
	Paused bool `json:"paused,omitempty" protobuf:"varint,7,opt,name=paused"`
	// ProgressDeadlineSeconds is how long a rollout may go without progress
	// before the Progressing condition reports ProgressDeadlineExceeded;
	// nil means the default of 600.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty" protobuf:"varint,9,opt,name=progressDeadlineSeconds"`
}

// DeploymentStrategy chooses and tunes the replacement method.
type DeploymentStrategy struct {
	// Type is Recreate or RollingUpdate (the default).
	Type DeploymentStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=DeploymentStrategyType"`
	// RollingUpdate tunes a RollingUpdate strategy; it must be unset otherwise.
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"`
}

// DeploymentStrategyType names a replacement method.
type DeploymentStrategyType string

// The replacement methods of a Deployment.
const (
	// RecreateDeploymentStrategyType removes every old pod before any new
	// pod is created.
	RecreateDeploymentStrategyType DeploymentStrategyType = "Recreate"
	// RollingUpdateDeploymentStrategyType scales the new ReplicaSet up and
	// the old ones down step by step.
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// RollingUpdateDeployment bounds how far a rolling update may stray from the
// wanted replica count. Each bound is a count or a percentage such as "25%".
type RollingUpdateDeployment struct {
	// MaxUnavailable is how many wanted pods may be missing during the
	// update (percentages round down). Defaults to 25%.
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,1,opt,name=maxUnavailable"`
	// MaxSurge is how many pods may exist above the wanted count during the
	// update (percentages round up). Defaults to 25%.
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty" protobuf:"bytes,2,opt,name=maxSurge"`
}

// DeploymentStatus is what the controller last observed of a Deployment.
type DeploymentStatus struct {
	// ObservedGeneration is the metadata.generation the controller acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// Replicas counts the non-terminating pods the selector matches.
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,2,opt,name=replicas"`
	// UpdatedReplicas counts those pods already running the current template.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty" protobuf:"varint,3,opt,name=updatedReplicas"`
	// ReadyReplicas counts those pods whose Ready condition is true.
	ReadyReplicas int32 `json:"readyReplicas,omitempty" protobuf:"varint,7,opt,name=readyReplicas"`
	// AvailableReplicas counts those pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty" protobuf:"varint,4,opt,name=availableReplicas"`
	// UnavailableReplicas is how many pods are still missing for the
	// Deployment to be fully available, whether not yet created or not yet
	// available.
	UnavailableReplicas int32 `json:"unavailableReplicas,omitempty" protobuf:"varint,5,opt,name=unavailableReplicas"`
	// TerminatingReplicas counts matched pods that are being deleted but have
	// not finished; nil when the server does not track it.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty" protobuf:"varint,9,opt,name=terminatingReplicas"`
	// Conditions are the latest observations, at most one per type.
	Conditions []DeploymentCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,6,rep,name=conditions"`
	// CollisionCount is bumped when a new ReplicaSet name collides with an
	// existing one, and salts the next name hash.
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,8,opt,name=collisionCount"`
}

// DeploymentConditionType names an aspect of a Deployment's state.
type DeploymentConditionType string

// The condition types the Deployment controller reports.
const (
	// DeploymentAvailable is true when at least the minimum number of pods
	// has been available for minReadySeconds.
	DeploymentAvailable DeploymentConditionType = "Available"
	// DeploymentProgressing is true while a rollout makes headway (a new
	// ReplicaSet appears or pods scale) and false once it stalls past its
	// deadline.
	DeploymentProgressing DeploymentConditionType = "Progressing"
	// DeploymentReplicaFailure is set when creating or deleting a pod fails.
	DeploymentReplicaFailure DeploymentConditionType = "ReplicaFailure"
)

// DeploymentCondition is one observation about a Deployment.
type DeploymentCondition struct {
	Type   DeploymentConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=DeploymentConditionType"`
	Status corev1.ConditionStatus  `json:"status" protobuf:"bytes,2,opt,name=status,casttype=platform.io/client/api/core/v1.ConditionStatus"`
	// LastUpdateTime is when the condition was last written.
	LastUpdateTime meta.Time `json:"lastUpdateTime,omitempty" protobuf:"bytes,6,opt,name=lastUpdateTime"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime meta.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,7,opt,name=lastTransitionTime"`
	// Reason is a CamelCase word explaining the last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Message is a sentence for humans about the last transition.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// DeploymentList is a page of Deployments.
type DeploymentList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items         []Deployment `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// DeploymentRollback is the body of the spec's Rollback operation (POST
// deployments/{name}/rollback): roll the Deployment's pod template back
// to the one of an earlier revision. The API server records the request
// in the annotation DeprecatedRollbackTo, which the deployment controller
// carries out and removes.
type DeploymentRollback struct {
	meta.TypeMeta `json:",inline"`
	// Name is the Deployment's name; it must match the URL.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// UpdatedAnnotations are set on the Deployment with the rollback.
	UpdatedAnnotations map[string]string `json:"updatedAnnotations,omitempty" protobuf:"bytes,2,rep,name=updatedAnnotations"`
	// RollbackTo names the revision to go back to.
	RollbackTo RollbackConfig `json:"rollbackTo" protobuf:"bytes,3,opt,name=rollbackTo"`
}

// RollbackConfig names a revision; 0 means the one before the current.
type RollbackConfig struct {
	Revision int64 `json:"revision,omitempty" protobuf:"varint,1,opt,name=revision"`
}
