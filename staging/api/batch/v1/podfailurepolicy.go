package v1

import corev1 "platform.io/client/api/core/v1"

// PodFailurePolicy is an ordered list of rules that classify pod failures;
// the first matching rule wins and unmatched failures count toward backoffLimit.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules" protobuf:"bytes,1,opt,name=rules"`
}

// PodFailurePolicyRule matches a failed pod by exit codes or by pod
// conditions (exactly one of the two) and names the action to take.
type PodFailurePolicyRule struct {
	Action          PodFailurePolicyAction                   `json:"action" protobuf:"bytes,1,req,name=action"`
	OnExitCodes     *PodFailurePolicyOnExitCodesRequirement  `json:"onExitCodes" protobuf:"bytes,2,opt,name=onExitCodes"`
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions" protobuf:"bytes,3,opt,name=onPodConditions"`
}

// PodFailurePolicyOnExitCodesRequirement matches the exit codes of a failed
// pod's containers (optionally one named container) against a sorted set.
type PodFailurePolicyOnExitCodesRequirement struct {
	ContainerName *string                             `json:"containerName" protobuf:"bytes,1,opt,name=containerName"`
	Operator      PodFailurePolicyOnExitCodesOperator `json:"operator" protobuf:"bytes,2,req,name=operator"`
	Values        []int32                             `json:"values" protobuf:"varint,3,rep,name=values"`
}

// PodFailurePolicyOnPodConditionsPattern matches a pod condition by type and status.
type PodFailurePolicyOnPodConditionsPattern struct {
	Type   corev1.PodConditionType `json:"type" protobuf:"bytes,1,req,name=type"`
	Status corev1.ConditionStatus  `json:"status" protobuf:"bytes,2,req,name=status"`
}

// PodFailurePolicyAction is what a matching rule does with a pod failure.
type PodFailurePolicyAction string

// The pod failure policy actions.
const (
	// PodFailurePolicyActionFailJob fails the whole job and stops its pods.
	PodFailurePolicyActionFailJob PodFailurePolicyAction = "FailJob"
	// PodFailurePolicyActionFailIndex fails only the pod's index (needs backoffLimitPerIndex).
	PodFailurePolicyActionFailIndex PodFailurePolicyAction = "FailIndex"
	// PodFailurePolicyActionIgnore replaces the pod without charging the backoff budget.
	PodFailurePolicyActionIgnore PodFailurePolicyAction = "Ignore"
	// PodFailurePolicyActionCount charges the failure against backoffLimit as usual.
	PodFailurePolicyActionCount PodFailurePolicyAction = "Count"
)

// PodFailurePolicyOnExitCodesOperator relates exit codes to a rule's values.
type PodFailurePolicyOnExitCodesOperator string

// The exit code operators.
const (
	PodFailurePolicyOnExitCodesOpIn    PodFailurePolicyOnExitCodesOperator = "In"
	PodFailurePolicyOnExitCodesOpNotIn PodFailurePolicyOnExitCodesOperator = "NotIn"
)

// SuccessPolicy lists alternative rules under which an Indexed job counts as
// succeeded early; the first rule met adds the SuccessCriteriaMet condition.
type SuccessPolicy struct {
	Rules []SuccessPolicyRule `json:"rules" protobuf:"bytes,1,opt,name=rules"`
}

// SuccessPolicyRule is met when the given indexes (in "1,3-5" form) and/or
// at least the given number of them have succeeded.
type SuccessPolicyRule struct {
	SucceededIndexes *string `json:"succeededIndexes,omitempty" protobuf:"bytes,1,opt,name=succeededIndexes"`
	SucceededCount   *int32  `json:"succeededCount,omitempty" protobuf:"varint,2,opt,name=succeededCount"`
}
