package horizontalpodautoscaler

import (
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	corev1 "platform.io/client/api/core/v1"
)

// DefaultCPUUtilization is the CPU target of an autoscaler that names no metric.
const DefaultCPUUtilization = 80

// Default fills upstream's defaults: minReplicas 1, an 80% CPU target when
// no metric is named, and, when behavior is given, each unset rule field
// from DefaultScaleUp and DefaultScaleDown. A nil behavior stays nil (the
// controller applies the defaults, with its own scale-down window).
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
		b.ScaleUp = fillRules(b.ScaleUp, DefaultScaleUp())
		b.ScaleDown = fillRules(b.ScaleDown, DefaultScaleDown(DefaultScaleDownWindowSeconds))
	}
}

// DefaultScaleDownWindowSeconds is the scale-down stabilization window of
// the API's defaulting.
const DefaultScaleDownWindowSeconds = 300

// DefaultScaleUp returns upstream's scale-up rules: no stabilization, the
// larger of 4 pods and 100% per 15 seconds.
func DefaultScaleUp() *autoscalingv2.HPAScalingRules {
	return &autoscalingv2.HPAScalingRules{
		StabilizationWindowSeconds: ptr[int32](0),
		SelectPolicy:               ptr(autoscalingv2.MaxChangePolicySelect),
		Policies: []autoscalingv2.HPAScalingPolicy{
			{Type: autoscalingv2.PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// DefaultScaleDown returns upstream's scale-down rules with the given
// stabilization window: 100% per 15 seconds.
func DefaultScaleDown(windowSeconds int32) *autoscalingv2.HPAScalingRules {
	return &autoscalingv2.HPAScalingRules{
		StabilizationWindowSeconds: ptr(windowSeconds),
		SelectPolicy:               ptr(autoscalingv2.MaxChangePolicySelect),
		Policies: []autoscalingv2.HPAScalingPolicy{
			{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// fillRules returns r with each unset field taken from def.
func fillRules(r, def *autoscalingv2.HPAScalingRules) *autoscalingv2.HPAScalingRules {
	if r == nil {
		return def
	}
	if r.StabilizationWindowSeconds == nil {
		r.StabilizationWindowSeconds = def.StabilizationWindowSeconds
	}
	if r.SelectPolicy == nil {
		r.SelectPolicy = def.SelectPolicy
	}
	if r.Policies == nil {
		r.Policies = def.Policies
	}
	return r
}

func ptr[T any](v T) *T { return &v }
