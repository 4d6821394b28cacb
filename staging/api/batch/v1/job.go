package v1

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// Job runs one or more pods to completion and records how many succeeded or failed.
type Job struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the user asked for.
	Spec JobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is what the job controller last observed.
	Status JobStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// JobList is a page of Jobs.
type JobList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Job `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// JobSpec is the desired behaviour of a Job.
type JobSpec struct {
	// Parallelism caps how many pods run at the same time.
	Parallelism *int32 `json:"parallelism,omitempty" protobuf:"varint,1,opt,name=parallelism"`
	// Completions is how many pods must succeed; nil means any single success finishes the job.
	Completions *int32 `json:"completions,omitempty" protobuf:"varint,2,opt,name=completions"`
	// ActiveDeadlineSeconds bounds how long the job may stay active after it starts.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty" protobuf:"varint,3,opt,name=activeDeadlineSeconds"`
	// PodFailurePolicy decides, rule by rule, what a failed pod means for the job.
	PodFailurePolicy *PodFailurePolicy `json:"podFailurePolicy,omitempty" protobuf:"bytes,11,opt,name=podFailurePolicy"`
	// SuccessPolicy lets an Indexed job succeed before every index has completed.
	SuccessPolicy *SuccessPolicy `json:"successPolicy,omitempty" protobuf:"bytes,16,opt,name=successPolicy"`
	// BackoffLimit is how many pod failures are retried before the job fails (server default 6).
	BackoffLimit *int32 `json:"backoffLimit,omitempty" protobuf:"varint,7,opt,name=backoffLimit"`
	// BackoffLimitPerIndex is the retry budget of each index of an Indexed job.
	BackoffLimitPerIndex *int32 `json:"backoffLimitPerIndex,omitempty" protobuf:"varint,12,opt,name=backoffLimitPerIndex"`
	// MaxFailedIndexes fails the whole job once more indexes than this have failed.
	MaxFailedIndexes *int32 `json:"maxFailedIndexes,omitempty" protobuf:"varint,13,opt,name=maxFailedIndexes"`
	// Selector picks the job's pods; the server normally generates it.
	Selector *meta.LabelSelector `json:"selector,omitempty" protobuf:"bytes,4,opt,name=selector"`
	// ManualSelector, when true, makes the user responsible for Selector and pod labels.
	ManualSelector *bool `json:"manualSelector,omitempty" protobuf:"varint,5,opt,name=manualSelector"`
	// Template is the pod to create; its restartPolicy must be Never or OnFailure.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,6,opt,name=template"`
	// TTLSecondsAfterFinished, when set, lets the job be deleted that long after it finishes.
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,8,opt,name=ttlSecondsAfterFinished"`
	// CompletionMode is NonIndexed (the default) or Indexed.
	CompletionMode *CompletionMode `json:"completionMode,omitempty" protobuf:"bytes,9,opt,name=completionMode,casttype=CompletionMode"`
	// Suspend stops the controller from creating pods and removes running ones.
	Suspend *bool `json:"suspend,omitempty" protobuf:"varint,10,opt,name=suspend"`
	// PodReplacementPolicy says when a replacement for a going-away pod may be created.
	PodReplacementPolicy *PodReplacementPolicy `json:"podReplacementPolicy,omitempty" protobuf:"bytes,14,opt,name=podReplacementPolicy,casttype=podReplacementPolicy"`
	// ManagedBy names the controller that reconciles this job; empty means the built-in one.
	ManagedBy *string `json:"managedBy,omitempty" protobuf:"bytes,15,opt,name=managedBy"`
}

// JobStatus is the job controller's view of a Job's progress.
type JobStatus struct {
	// Conditions are the job's latest observed states, keyed by type.
	Conditions []JobCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
	// StartTime is when the controller began running the job (reset on resume).
	StartTime *meta.Time `json:"startTime,omitempty" protobuf:"bytes,2,opt,name=startTime"`
	// CompletionTime is when the job succeeded; it is never set for failed jobs.
	CompletionTime *meta.Time `json:"completionTime,omitempty" protobuf:"bytes,3,opt,name=completionTime"`
	// Active counts pending and running pods that are not being deleted.
	Active int32 `json:"active,omitempty" protobuf:"varint,4,opt,name=active"`
	// Succeeded counts pods that reached phase Succeeded.
	Succeeded int32 `json:"succeeded,omitempty" protobuf:"varint,5,opt,name=succeeded"`
	// Failed counts pods that reached phase Failed.
	Failed int32 `json:"failed,omitempty" protobuf:"varint,6,opt,name=failed"`
	// Terminating counts pods that have a deletion timestamp but have not finished.
	Terminating *int32 `json:"terminating,omitempty" protobuf:"varint,11,opt,name=terminating"`
	// CompletedIndexes lists the finished indexes of an Indexed job, e.g. "0,2-5".
	CompletedIndexes string `json:"completedIndexes,omitempty" protobuf:"bytes,7,opt,name=completedIndexes"`
	// FailedIndexes lists, in the same range syntax, the indexes that used up their retries.
	FailedIndexes *string `json:"failedIndexes,omitempty" protobuf:"bytes,10,opt,name=failedIndexes"`
	// UncountedTerminatedPods holds pods that finished but are not yet in the counters.
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty" protobuf:"bytes,8,opt,name=uncountedTerminatedPods"`
	// Ready counts pods whose Ready condition is true.
	Ready *int32 `json:"ready,omitempty" protobuf:"varint,9,opt,name=ready"`
}

// UncountedTerminatedPods lists the UIDs of finished pods whose outcome has
// not yet been folded into the status counters.
type UncountedTerminatedPods struct {
	Succeeded []meta.UID `json:"succeeded,omitempty" protobuf:"bytes,1,rep,name=succeeded,casttype=platform.io/client/api/meta.UID"`
	Failed    []meta.UID `json:"failed,omitempty" protobuf:"bytes,2,rep,name=failed,casttype=platform.io/client/api/meta.UID"`
}

// JobCondition is one observed aspect of a Job's state.
type JobCondition struct {
	Type               JobConditionType       `json:"type" protobuf:"bytes,1,opt,name=type,casttype=JobConditionType"`
	Status             corev1.ConditionStatus `json:"status" protobuf:"bytes,2,opt,name=status,casttype=platform.io/client/api/core/v1.ConditionStatus"`
	LastProbeTime      meta.Time              `json:"lastProbeTime,omitempty" protobuf:"bytes,3,opt,name=lastProbeTime"`
	LastTransitionTime meta.Time              `json:"lastTransitionTime,omitempty" protobuf:"bytes,4,opt,name=lastTransitionTime"`
	Reason             string                 `json:"reason,omitempty" protobuf:"bytes,5,opt,name=reason"`
	Message            string                 `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// JobConditionType names a kind of JobCondition.
type JobConditionType string

// The condition types the job controller sets.
const (
	JobSuspended          JobConditionType = "Suspended"
	JobComplete           JobConditionType = "Complete"
	JobFailed             JobConditionType = "Failed"
	JobFailureTarget      JobConditionType = "FailureTarget"
	JobSuccessCriteriaMet JobConditionType = "SuccessCriteriaMet"
)

// Reasons the job controller writes on its conditions.
const (
	JobReasonPodFailurePolicy         = "PodFailurePolicy"
	JobReasonBackoffLimitExceeded     = "BackoffLimitExceeded"
	JobReasonDeadlineExceeded         = "DeadlineExceeded"
	JobReasonMaxFailedIndexesExceeded = "MaxFailedIndexesExceeded"
	JobReasonFailedIndexes            = "FailedIndexes"
	JobReasonSuccessPolicy            = "SuccessPolicy"
)

// CompletionMode says how pod successes add up to a finished Job.
type CompletionMode string

// The completion modes.
const (
	// NonIndexedCompletion treats all pods alike; the job is done after Completions successes.
	NonIndexedCompletion CompletionMode = "NonIndexed"
	// IndexedCompletion gives each pod an index in [0, Completions); the job is done when every index succeeded.
	IndexedCompletion CompletionMode = "Indexed"
)

// PodReplacementPolicy says when the controller may replace a pod that is going away.
type PodReplacementPolicy string

// The pod replacement policies.
const (
	// TerminatingOrFailed replaces a pod as soon as it is being deleted or has failed.
	TerminatingOrFailed PodReplacementPolicy = "TerminatingOrFailed"
	// Failed waits until the old pod has fully stopped.
	Failed PodReplacementPolicy = "Failed"
)

// JobTemplateSpec is the metadata and spec of the Jobs a CronJob creates.
type JobTemplateSpec struct {
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Spec JobSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}
