package v1

import "platform.io/client/api/meta"

// DefaultSchedulerName is the scheduler pods get when they name none.
const DefaultSchedulerName = "default-scheduler"

// DefaultHardPodAffinitySymmetricWeight is the weight of the preferred term
// implied by every required pod affinity term.
const DefaultHardPodAffinitySymmetricWeight int32 = 1

// NodeSelector is a set of terms that are ORed.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms" protobuf:"bytes,1,rep,name=nodeSelectorTerms"`
}

// NodeSelectorTerm is a set of requirements that are ANDed; an empty term matches nothing.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty" protobuf:"bytes,1,rep,name=matchExpressions"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty" protobuf:"bytes,2,rep,name=matchFields"`
}

// NodeSelectorRequirement relates a node label (or field) to a set of values.
type NodeSelectorRequirement struct {
	Key      string               `json:"key" protobuf:"bytes,1,opt,name=key"`
	Operator NodeSelectorOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=NodeSelectorOperator"`
	Values   []string             `json:"values,omitempty" protobuf:"bytes,3,rep,name=values"`
}

// NodeSelectorOperator is the relation of a NodeSelectorRequirement.
type NodeSelectorOperator string

// The values of NodeSelectorOperator; Gt and Lt compare a single integer value.
const (
	NodeSelectorOpIn           NodeSelectorOperator = "In"
	NodeSelectorOpNotIn        NodeSelectorOperator = "NotIn"
	NodeSelectorOpExists       NodeSelectorOperator = "Exists"
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	NodeSelectorOpGt           NodeSelectorOperator = "Gt"
	NodeSelectorOpLt           NodeSelectorOperator = "Lt"
)

// TopologySelectorTerm matches topology labels; a reduced NodeSelectorTerm used by storage.
type TopologySelectorTerm struct {
	MatchLabelExpressions []TopologySelectorLabelRequirement `json:"matchLabelExpressions,omitempty" protobuf:"bytes,1,rep,name=matchLabelExpressions"`
}

// TopologySelectorLabelRequirement matches a label against any of its values.
type TopologySelectorLabelRequirement struct {
	Key    string   `json:"key" protobuf:"bytes,1,opt,name=key"`
	Values []string `json:"values" protobuf:"bytes,2,rep,name=values"`
}

// Affinity groups a pod's node, pod and anti-pod scheduling rules.
type Affinity struct {
	NodeAffinity    *NodeAffinity    `json:"nodeAffinity,omitempty" protobuf:"bytes,1,opt,name=nodeAffinity"`
	PodAffinity     *PodAffinity     `json:"podAffinity,omitempty" protobuf:"bytes,2,opt,name=podAffinity"`
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty" protobuf:"bytes,3,opt,name=podAntiAffinity"`
}

// NodeAffinity constrains which nodes a pod may land on, by node labels.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  *NodeSelector             `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,opt,name=requiredDuringSchedulingIgnoredDuringExecution"`
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution"`
}

// PreferredSchedulingTerm is a weighted (1-100) node selector term.
type PreferredSchedulingTerm struct {
	Weight     int32            `json:"weight" protobuf:"varint,1,opt,name=weight"`
	Preference NodeSelectorTerm `json:"preference" protobuf:"bytes,2,opt,name=preference"`
}

// PodAffinity asks for co-location with pods that match its terms.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,rep,name=requiredDuringSchedulingIgnoredDuringExecution"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution"`
}

// PodAntiAffinity asks to stay away from pods that match its terms.
type PodAntiAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,1,rep,name=requiredDuringSchedulingIgnoredDuringExecution"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" protobuf:"bytes,2,rep,name=preferredDuringSchedulingIgnoredDuringExecution"`
}

// WeightedPodAffinityTerm is a pod affinity term with a weight from 1 to 100.
type WeightedPodAffinityTerm struct {
	Weight          int32           `json:"weight" protobuf:"varint,1,opt,name=weight"`
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm" protobuf:"bytes,2,opt,name=podAffinityTerm"`
}

// PodAffinityTerm selects a set of pods and the topology domain ("same
// node", "same zone", ...) that counts as being near them.
type PodAffinityTerm struct {
	LabelSelector     *meta.LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,1,opt,name=labelSelector"`
	Namespaces        []string            `json:"namespaces,omitempty" protobuf:"bytes,2,rep,name=namespaces"`
	TopologyKey       string              `json:"topologyKey" protobuf:"bytes,3,opt,name=topologyKey"`
	NamespaceSelector *meta.LabelSelector `json:"namespaceSelector,omitempty" protobuf:"bytes,4,opt,name=namespaceSelector"`
	MatchLabelKeys    []string            `json:"matchLabelKeys,omitempty" protobuf:"bytes,5,opt,name=matchLabelKeys"`
	MismatchLabelKeys []string            `json:"mismatchLabelKeys,omitempty" protobuf:"bytes,6,opt,name=mismatchLabelKeys"`
}

// Taint repels pods that do not tolerate it from a node.
type Taint struct {
	Key       string      `json:"key" protobuf:"bytes,1,opt,name=key"`
	Value     string      `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
	Effect    TaintEffect `json:"effect" protobuf:"bytes,3,opt,name=effect,casttype=TaintEffect"`
	TimeAdded *meta.Time  `json:"timeAdded,omitempty" protobuf:"bytes,4,opt,name=timeAdded"`
}

// TaintEffect is what a taint does to pods that do not tolerate it.
type TaintEffect string

// The values of TaintEffect.
const (
	// TaintEffectNoSchedule keeps new pods off the node.
	TaintEffectNoSchedule TaintEffect = "NoSchedule"
	// TaintEffectPreferNoSchedule makes the scheduler avoid the node when it can.
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	// TaintEffectNoExecute also evicts running pods.
	TaintEffectNoExecute TaintEffect = "NoExecute"
)

// Toleration lets a pod tolerate the taints it matches.
type Toleration struct {
	Key      string             `json:"key,omitempty" protobuf:"bytes,1,opt,name=key"`
	Operator TolerationOperator `json:"operator,omitempty" protobuf:"bytes,2,opt,name=operator,casttype=TolerationOperator"`
	Value    string             `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`
	Effect   TaintEffect        `json:"effect,omitempty" protobuf:"bytes,4,opt,name=effect,casttype=TaintEffect"`
	// TolerationSeconds bounds how long a NoExecute taint is tolerated; nil means forever.
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty" protobuf:"varint,5,opt,name=tolerationSeconds"`
}

// TolerationOperator relates a toleration's value to a taint's.
type TolerationOperator string

// The values of TolerationOperator.
const (
	TolerationOpExists TolerationOperator = "Exists"
	TolerationOpEqual  TolerationOperator = "Equal"
	TolerationOpLt     TolerationOperator = "Lt"
	TolerationOpGt     TolerationOperator = "Gt"
)

// UnsatisfiableConstraintAction says what to do with a pod whose spread constraint cannot be met.
type UnsatisfiableConstraintAction string

// The values of UnsatisfiableConstraintAction.
const (
	DoNotSchedule  UnsatisfiableConstraintAction = "DoNotSchedule"
	ScheduleAnyway UnsatisfiableConstraintAction = "ScheduleAnyway"
)

// NodeInclusionPolicy says whether a scheduling directive narrows the nodes counted for spreading.
type NodeInclusionPolicy string

// The values of NodeInclusionPolicy.
const (
	NodeInclusionPolicyIgnore NodeInclusionPolicy = "Ignore"
	NodeInclusionPolicyHonor  NodeInclusionPolicy = "Honor"
)

// TopologySpreadConstraint bounds how unevenly matching pods may be spread
// over the domains of a topology key.
type TopologySpreadConstraint struct {
	MaxSkew            int32                         `json:"maxSkew" protobuf:"varint,1,opt,name=maxSkew"`
	TopologyKey        string                        `json:"topologyKey" protobuf:"bytes,2,opt,name=topologyKey"`
	WhenUnsatisfiable  UnsatisfiableConstraintAction `json:"whenUnsatisfiable" protobuf:"bytes,3,opt,name=whenUnsatisfiable,casttype=UnsatisfiableConstraintAction"`
	LabelSelector      *meta.LabelSelector           `json:"labelSelector,omitempty" protobuf:"bytes,4,opt,name=labelSelector"`
	MinDomains         *int32                        `json:"minDomains,omitempty" protobuf:"varint,5,opt,name=minDomains"`
	NodeAffinityPolicy *NodeInclusionPolicy          `json:"nodeAffinityPolicy,omitempty" protobuf:"bytes,6,opt,name=nodeAffinityPolicy"`
	NodeTaintsPolicy   *NodeInclusionPolicy          `json:"nodeTaintsPolicy,omitempty" protobuf:"bytes,7,opt,name=nodeTaintsPolicy"`
	MatchLabelKeys     []string                      `json:"matchLabelKeys,omitempty" protobuf:"bytes,8,opt,name=matchLabelKeys"`
}
