package v1

import "platform.io/client/api/meta"

// HorizontalPodAutoscaler is the autoscaling/v1 form of the autoscaler:
// CPU utilization only. It is stored as autoscaling/v2; the v2 fields this
// version lacks travel in the annotations named below, so an object read
// and written back through v1 loses nothing.
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

// HorizontalPodAutoscalerSpec names the target, its bounds and the CPU target.
type HorizontalPodAutoscalerSpec struct {
	// ScaleTargetRef is the object whose scale subresource is read and set.
	ScaleTargetRef CrossVersionObjectReference `json:"scaleTargetRef" protobuf:"bytes,1,opt,name=scaleTargetRef"`
	// MinReplicas is the floor (default 1).
	MinReplicas *int32 `json:"minReplicas,omitempty" protobuf:"varint,2,opt,name=minReplicas"`
	// MaxReplicas is the ceiling.
	MaxReplicas int32 `json:"maxReplicas" protobuf:"varint,3,opt,name=maxReplicas"`
	// TargetCPUUtilizationPercentage is the wanted average CPU use as a
	// percentage of the pods' requests; nil means the default, 80.
	TargetCPUUtilizationPercentage *int32 `json:"targetCPUUtilizationPercentage,omitempty" protobuf:"varint,4,opt,name=targetCPUUtilizationPercentage"`
}

// CrossVersionObjectReference identifies an object by kind, name and apiVersion.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	Name       string `json:"name" protobuf:"bytes,2,opt,name=name"`
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,3,opt,name=apiVersion"`
}

// HorizontalPodAutoscalerStatus is the autoscaler's last observation.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration *int64     `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	LastScaleTime      *meta.Time `json:"lastScaleTime,omitempty" protobuf:"bytes,2,opt,name=lastScaleTime"`
	// CurrentReplicas is the target's replica count as last seen.
	CurrentReplicas int32 `json:"currentReplicas" protobuf:"varint,3,opt,name=currentReplicas"`
	// DesiredReplicas is the count last decided.
	DesiredReplicas int32 `json:"desiredReplicas" protobuf:"varint,4,opt,name=desiredReplicas"`
	// CurrentCPUUtilizationPercentage is the average CPU use last read, as
	// a percentage of the pods' requests.
	CurrentCPUUtilizationPercentage *int32 `json:"currentCPUUtilizationPercentage,omitempty" protobuf:"varint,5,opt,name=currentCPUUtilizationPercentage"`
}

// Annotations that carry, on a v1 object, the autoscaling/v2 fields v1
// has no place for (their values are the v2 JSON of the field).
const (
	// MetricsAnnotation holds spec.metrics other than the CPU utilization target.
	MetricsAnnotation = "autoscaling.alpha.platform.io/metrics"
	// BehaviorAnnotation holds spec.behavior.
	BehaviorAnnotation = "autoscaling.alpha.platform.io/behavior"
	// ConditionsAnnotation holds status.conditions.
	ConditionsAnnotation = "autoscaling.alpha.platform.io/conditions"
	// CurrentMetricsAnnotation holds status.currentMetrics other than the CPU utilization.
	CurrentMetricsAnnotation = "autoscaling.alpha.platform.io/current-metrics"
)
