package v2

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
)

// HorizontalPodAutoscaler sets the replica count of a scalable object,
// through its scale subresource, from the metrics its spec names.
type HorizontalPodAutoscaler struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the autoscaler should do.
	Spec HorizontalPodAutoscalerSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is what the autoscaler last observed and decided.
	Status HorizontalPodAutoscalerStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// HorizontalPodAutoscalerList is a page of HorizontalPodAutoscalers.
type HorizontalPodAutoscalerList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []HorizontalPodAutoscaler `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// HorizontalPodAutoscalerSpec names the target, its bounds, the metrics
// and how fast to move.
type HorizontalPodAutoscalerSpec struct {
	// ScaleTargetRef is the object whose scale subresource is read and set.
	ScaleTargetRef CrossVersionObjectReference `json:"scaleTargetRef" protobuf:"bytes,1,opt,name=scaleTargetRef"`
	// MinReplicas is the floor (default 1; 0 only under the HPAScaleToZero gate).
	MinReplicas *int32 `json:"minReplicas,omitempty" protobuf:"varint,2,opt,name=minReplicas"`
	// MaxReplicas is the ceiling; it may not be below MinReplicas.
	MaxReplicas int32 `json:"maxReplicas" protobuf:"varint,3,opt,name=maxReplicas"`
	// Metrics are the inputs; the largest replica count any one asks for
	// wins. Empty defaults to 80% average CPU utilization.
	Metrics []MetricSpec `json:"metrics,omitempty" protobuf:"bytes,4,rep,name=metrics"`
	// Behavior bounds the speed of scaling up and down; nil uses the defaults.
	Behavior *HorizontalPodAutoscalerBehavior `json:"behavior,omitempty" protobuf:"bytes,5,opt,name=behavior"`
}

// CrossVersionObjectReference identifies an object by kind, name and apiVersion.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	Name       string `json:"name" protobuf:"bytes,2,opt,name=name"`
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,3,opt,name=apiVersion"`
}

// MetricSourceType names which source of a MetricSpec is set.
type MetricSourceType string

// The metric source types.
const (
	ObjectMetricSourceType            MetricSourceType = "Object"
	PodsMetricSourceType              MetricSourceType = "Pods"
	ResourceMetricSourceType          MetricSourceType = "Resource"
	ContainerResourceMetricSourceType MetricSourceType = "ContainerResource"
	ExternalMetricSourceType          MetricSourceType = "External"
)

// MetricSpec is one metric to scale on: Type and the one field it names.
type MetricSpec struct {
	Type              MetricSourceType               `json:"type" protobuf:"bytes,1,opt,name=type"`
	Object            *ObjectMetricSource            `json:"object,omitempty" protobuf:"bytes,2,opt,name=object"`
	Pods              *PodsMetricSource              `json:"pods,omitempty" protobuf:"bytes,3,opt,name=pods"`
	Resource          *ResourceMetricSource          `json:"resource,omitempty" protobuf:"bytes,4,opt,name=resource"`
	ContainerResource *ContainerResourceMetricSource `json:"containerResource,omitempty" protobuf:"bytes,7,opt,name=containerResource"`
	External          *ExternalMetricSource          `json:"external,omitempty" protobuf:"bytes,5,opt,name=external"`
}

// ObjectMetricSource is a metric describing one object.
type ObjectMetricSource struct {
	DescribedObject CrossVersionObjectReference `json:"describedObject" protobuf:"bytes,1,opt,name=describedObject"`
	Target          MetricTarget                `json:"target" protobuf:"bytes,2,opt,name=target"`
	Metric          MetricIdentifier            `json:"metric" protobuf:"bytes,3,opt,name=metric"`
}

// PodsMetricSource is a metric of each pod of the target, averaged.
type PodsMetricSource struct {
	Metric MetricIdentifier `json:"metric" protobuf:"bytes,1,opt,name=metric"`
	Target MetricTarget     `json:"target" protobuf:"bytes,2,opt,name=target"`
}

// ResourceMetricSource is a resource (cpu, memory) of each pod of the
// target, from the resource metrics API, averaged.
type ResourceMetricSource struct {
	Name   corev1.ResourceName `json:"name" protobuf:"bytes,1,opt,name=name"`
	Target MetricTarget        `json:"target" protobuf:"bytes,2,opt,name=target"`
}

// ContainerResourceMetricSource is a resource of one container of each pod.
type ContainerResourceMetricSource struct {
	Name      corev1.ResourceName `json:"name" protobuf:"bytes,1,opt,name=name"`
	Target    MetricTarget        `json:"target" protobuf:"bytes,2,opt,name=target"`
	Container string              `json:"container" protobuf:"bytes,3,opt,name=container"`
}

// ExternalMetricSource is a metric not tied to any object of the cluster.
type ExternalMetricSource struct {
	Metric MetricIdentifier `json:"metric" protobuf:"bytes,1,opt,name=metric"`
	Target MetricTarget     `json:"target" protobuf:"bytes,2,opt,name=target"`
}

// MetricIdentifier names a metric and optionally narrows it by labels.
type MetricIdentifier struct {
	Name     string              `json:"name" protobuf:"bytes,1,opt,name=name"`
	Selector *meta.LabelSelector `json:"selector,omitempty" protobuf:"bytes,2,opt,name=selector"`
}

// MetricTargetType says which field of a MetricTarget is the target.
type MetricTargetType string

// The metric target types.
const (
	UtilizationMetricType  MetricTargetType = "Utilization"
	ValueMetricType        MetricTargetType = "Value"
	AverageValueMetricType MetricTargetType = "AverageValue"
)

// MetricTarget is the wanted value of a metric.
type MetricTarget struct {
	Type MetricTargetType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// Value is the wanted total (Object and External metrics).
	Value *resource.Quantity `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
	// AverageValue is the wanted per-pod average.
	AverageValue *resource.Quantity `json:"averageValue,omitempty" protobuf:"bytes,3,opt,name=averageValue"`
	// AverageUtilization is the wanted per-pod average as a percentage of
	// the pods' requests (Resource and ContainerResource metrics only).
	AverageUtilization *int32 `json:"averageUtilization,omitempty" protobuf:"varint,4,opt,name=averageUtilization"`
}

// HorizontalPodAutoscalerBehavior holds the rules for each direction.
type HorizontalPodAutoscalerBehavior struct {
	// ScaleUp defaults to no stabilization and the larger of 100% and 4
	// pods per 15 seconds.
	ScaleUp *HPAScalingRules `json:"scaleUp,omitempty" protobuf:"bytes,1,opt,name=scaleUp"`
	// ScaleDown defaults to a 300 second stabilization window and 100% per
	// 15 seconds.
	ScaleDown *HPAScalingRules `json:"scaleDown,omitempty" protobuf:"bytes,2,opt,name=scaleDown"`
}

// ScalingPolicySelect picks among the policies of one direction.
type ScalingPolicySelect string

// The policy selections.
const (
	// MaxChangePolicySelect allows the largest change any policy allows.
	MaxChangePolicySelect ScalingPolicySelect = "Max"
	// MinChangePolicySelect allows the smallest change any policy allows.
	MinChangePolicySelect ScalingPolicySelect = "Min"
	// DisabledPolicySelect forbids scaling in the direction.
	DisabledPolicySelect ScalingPolicySelect = "Disabled"
)

// HPAScalingRules bound one direction of scaling.
type HPAScalingRules struct {
	// StabilizationWindowSeconds is how far back recommendations are
	// considered (0..3600); the safest one in the window is used.
	StabilizationWindowSeconds *int32 `json:"stabilizationWindowSeconds,omitempty" protobuf:"varint,3,opt,name=stabilizationWindowSeconds"`
	// SelectPolicy picks among Policies; default Max.
	SelectPolicy *ScalingPolicySelect `json:"selectPolicy,omitempty" protobuf:"bytes,1,opt,name=selectPolicy"`
	// Policies are the allowed changes per period.
	Policies []HPAScalingPolicy `json:"policies,omitempty" protobuf:"bytes,2,rep,name=policies"`
}

// HPAScalingPolicyType is the unit of a policy's Value.
type HPAScalingPolicyType string

// The policy types.
const (
	// PodsScalingPolicy allows Value pods of change per period.
	PodsScalingPolicy HPAScalingPolicyType = "Pods"
	// PercentScalingPolicy allows Value percent of the current replicas per period.
	PercentScalingPolicy HPAScalingPolicyType = "Percent"
)

// HPAScalingPolicy allows a change of Value (pods or percent) within any
// PeriodSeconds.
type HPAScalingPolicy struct {
	Type          HPAScalingPolicyType `json:"type" protobuf:"bytes,1,opt,name=type"`
	Value         int32                `json:"value" protobuf:"varint,2,opt,name=value"`
	PeriodSeconds int32                `json:"periodSeconds" protobuf:"varint,3,opt,name=periodSeconds"`
}

// HorizontalPodAutoscalerStatus is the autoscaler's last observation.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration *int64     `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	LastScaleTime      *meta.Time `json:"lastScaleTime,omitempty" protobuf:"bytes,2,opt,name=lastScaleTime"`
	// CurrentReplicas is the target's replica count as last seen.
	CurrentReplicas int32 `json:"currentReplicas,omitempty" protobuf:"varint,3,opt,name=currentReplicas"`
	// DesiredReplicas is the count last decided.
	DesiredReplicas int32 `json:"desiredReplicas" protobuf:"varint,4,opt,name=desiredReplicas"`
	// CurrentMetrics are the metric values last read.
	CurrentMetrics []MetricStatus `json:"currentMetrics,omitempty" protobuf:"bytes,5,rep,name=currentMetrics"`
	// Conditions say whether the autoscaler can and does scale.
	Conditions []HorizontalPodAutoscalerCondition `json:"conditions,omitempty" protobuf:"bytes,6,rep,name=conditions"`
}

// MetricStatus is the last read value of one metric: Type and the one
// field it names.
type MetricStatus struct {
	Type              MetricSourceType               `json:"type" protobuf:"bytes,1,opt,name=type"`
	Object            *ObjectMetricStatus            `json:"object,omitempty" protobuf:"bytes,2,opt,name=object"`
	Pods              *PodsMetricStatus              `json:"pods,omitempty" protobuf:"bytes,3,opt,name=pods"`
	Resource          *ResourceMetricStatus          `json:"resource,omitempty" protobuf:"bytes,4,opt,name=resource"`
	ContainerResource *ContainerResourceMetricStatus `json:"containerResource,omitempty" protobuf:"bytes,7,opt,name=containerResource"`
	External          *ExternalMetricStatus          `json:"external,omitempty" protobuf:"bytes,5,opt,name=external"`
}

// ObjectMetricStatus is the value of an Object metric.
type ObjectMetricStatus struct {
	Metric          MetricIdentifier            `json:"metric" protobuf:"bytes,1,opt,name=metric"`
	Current         MetricValueStatus           `json:"current" protobuf:"bytes,2,opt,name=current"`
	DescribedObject CrossVersionObjectReference `json:"describedObject" protobuf:"bytes,3,opt,name=describedObject"`
}

// PodsMetricStatus is the value of a Pods metric.
type PodsMetricStatus struct {
	Metric  MetricIdentifier  `json:"metric" protobuf:"bytes,1,opt,name=metric"`
	Current MetricValueStatus `json:"current" protobuf:"bytes,2,opt,name=current"`
}

// ResourceMetricStatus is the value of a Resource metric.
type ResourceMetricStatus struct {
	Name    corev1.ResourceName `json:"name" protobuf:"bytes,1,opt,name=name"`
	Current MetricValueStatus   `json:"current" protobuf:"bytes,2,opt,name=current"`
}

// ContainerResourceMetricStatus is the value of a ContainerResource metric.
type ContainerResourceMetricStatus struct {
	Name      corev1.ResourceName `json:"name" protobuf:"bytes,1,opt,name=name"`
	Current   MetricValueStatus   `json:"current" protobuf:"bytes,2,opt,name=current"`
	Container string              `json:"container" protobuf:"bytes,3,opt,name=container"`
}

// ExternalMetricStatus is the value of an External metric.
type ExternalMetricStatus struct {
	Metric  MetricIdentifier  `json:"metric" protobuf:"bytes,1,opt,name=metric"`
	Current MetricValueStatus `json:"current" protobuf:"bytes,2,opt,name=current"`
}

// MetricValueStatus is a metric's current value in the target's terms.
type MetricValueStatus struct {
	Value              *resource.Quantity `json:"value,omitempty" protobuf:"bytes,1,opt,name=value"`
	AverageValue       *resource.Quantity `json:"averageValue,omitempty" protobuf:"bytes,2,opt,name=averageValue"`
	AverageUtilization *int32             `json:"averageUtilization,omitempty" protobuf:"varint,3,opt,name=averageUtilization"`
}

// HorizontalPodAutoscalerConditionType names a condition.
type HorizontalPodAutoscalerConditionType string

// The condition types.
const (
	// ScalingActive is whether the autoscaler can compute a replica count
	// (metrics readable, target found); false pauses scaling.
	ScalingActive HorizontalPodAutoscalerConditionType = "ScalingActive"
	// AbleToScale is whether the target's scale can be read and written
	// now (not backing off, not failing).
	AbleToScale HorizontalPodAutoscalerConditionType = "AbleToScale"
	// ScalingLimited is whether the count wanted was clamped by the
	// replica bounds or the behavior policies.
	ScalingLimited HorizontalPodAutoscalerConditionType = "ScalingLimited"
)

// HorizontalPodAutoscalerCondition is one condition of the autoscaler.
type HorizontalPodAutoscalerCondition struct {
	Type   HorizontalPodAutoscalerConditionType `json:"type" protobuf:"bytes,1,opt,name=type"`
	Status corev1.ConditionStatus               `json:"status" protobuf:"bytes,2,opt,name=status,casttype=platform.io/client/api/core/v1.ConditionStatus"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime meta.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a CamelCase word for the last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Message is a sentence for humans.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}
