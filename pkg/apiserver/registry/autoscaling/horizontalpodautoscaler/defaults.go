package horizontalpodautoscaler

import (
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	corev1 "platform.io/client/api/core/v1"
)

// DefaultCPUUtilization is the CPU target of an autoscaler that names no metric.
const DefaultCPUUtilization = autoscalingv2.DefaultCPUUtilization

// Default fills upstream's defaults: minReplicas 1, an 80% CPU target when
// no metric is named, and, when behavior is given, each unset rule field
// from autoscalingv2.DefaultScaleUp and DefaultScaleDown. A nil behavior
// stays nil (the controller applies the defaults, with its own scale-down
// window).
func Default(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
	if s.MinReplicas == nil {
		s.MinReplicas = ptr[int32](1)
	}
	if len(s.Metrics) == 0 {
		s.Metrics = []autoscalingv2.MetricSpec{{
			Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{
				Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr[int32](DefaultCPUUtilization),
			}},
		}}
	}
	if b := s.Behavior; b != nil {
		b.ScaleUp = autoscalingv2.FillRules(b.ScaleUp, autoscalingv2.DefaultScaleUp())
		b.ScaleDown = autoscalingv2.FillRules(b.ScaleDown, autoscalingv2.DefaultScaleDown(autoscalingv2.DefaultScaleDownStabilizationSeconds))
	}
}

func ptr[T any](v T) *T { return &v }
