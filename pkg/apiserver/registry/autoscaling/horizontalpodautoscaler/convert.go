package horizontalpodautoscaler

import (
	"encoding/json"
	"fmt"
	"maps"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// cpuIndex returns the index of the CPU utilization metric in ms: the one
// autoscaling/v1's targetCPUUtilizationPercentage stands for; -1 if none.
func cpuIndex(ms []autoscalingv2.MetricSpec) int {
	for i, m := range ms {
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil &&
			m.Resource.Name == corev1.ResourceCPU && m.Resource.Target.Type == autoscalingv2.UtilizationMetricType {
			return i
		}
	}
	return -1
}

func cpuStatusIndex(ms []autoscalingv2.MetricStatus) int {
	for i, m := range ms {
		if m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil &&
			m.Resource.Name == corev1.ResourceCPU && m.Resource.Current.AverageUtilization != nil {
			return i
		}
	}
	return -1
}

// FromV2 returns the autoscaling/v1 form of h. The CPU utilization target
// and current value become v1's fields; every other metric, the behavior
// and the conditions are kept as JSON in annotations. A metrics list that
// is exactly one CPU utilization target needs no annotation.
func FromV2(h *autoscalingv2.HorizontalPodAutoscaler) (*autoscalingv1.HorizontalPodAutoscaler, error) {
	out := &autoscalingv1.HorizontalPodAutoscaler{
		TypeMeta:   meta.TypeMeta{APIVersion: autoscalingv1.SchemeGroupVersion.String(), Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: h.ObjectMeta,
	}
	out.Annotations = maps.Clone(h.Annotations)
	out.Spec = autoscalingv1.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: autoscalingv1.CrossVersionObjectReference(h.Spec.ScaleTargetRef),
		MinReplicas:    h.Spec.MinReplicas,
		MaxReplicas:    h.Spec.MaxReplicas,
	}
	if i := cpuIndex(h.Spec.Metrics); i >= 0 {
		out.Spec.TargetCPUUtilizationPercentage = h.Spec.Metrics[i].Resource.Target.AverageUtilization
	}
	st := &h.Status
	out.Status = autoscalingv1.HorizontalPodAutoscalerStatus{
		ObservedGeneration: st.ObservedGeneration, LastScaleTime: st.LastScaleTime,
		CurrentReplicas: st.CurrentReplicas, DesiredReplicas: st.DesiredReplicas,
	}
	if i := cpuStatusIndex(st.CurrentMetrics); i >= 0 {
		out.Status.CurrentCPUUtilizationPercentage = st.CurrentMetrics[i].Resource.Current.AverageUtilization
	}
	onlyCPU := len(h.Spec.Metrics) == 1 && cpuIndex(h.Spec.Metrics) == 0
	var err error
	set := func(key string, v any, keep bool) {
		if err != nil || !keep {
			return
		}
		var b []byte
		if b, err = json.Marshal(v); err == nil {
			if out.Annotations == nil {
				out.Annotations = map[string]string{}
			}
			out.Annotations[key] = string(b)
		}
	}
	set(autoscalingv1.MetricsAnnotation, h.Spec.Metrics, len(h.Spec.Metrics) > 0 && !onlyCPU)
	set(autoscalingv1.BehaviorAnnotation, h.Spec.Behavior, h.Spec.Behavior != nil)
	set(autoscalingv1.ConditionsAnnotation, st.Conditions, len(st.Conditions) > 0)
	onlyCPUStatus := len(st.CurrentMetrics) == 1 && cpuStatusIndex(st.CurrentMetrics) == 0
	set(autoscalingv1.CurrentMetricsAnnotation, st.CurrentMetrics, len(st.CurrentMetrics) > 0 && !onlyCPUStatus)
	if err != nil {
		return nil, fmt.Errorf("horizontalpodautoscaler: encode v1 annotations: %w", err)
	}
	return out, nil
}

// ToV2 returns the autoscaling/v2 form of h, reading back the annotations
// FromV2 writes (and removing them). v1's CPU target wins over the one in
// the metrics annotation, so an edit through v1 takes effect.
func ToV2(h *autoscalingv1.HorizontalPodAutoscaler) (*autoscalingv2.HorizontalPodAutoscaler, error) {
	out := &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   meta.TypeMeta{APIVersion: autoscalingv2.SchemeGroupVersion.String(), Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: h.ObjectMeta,
	}
	out.Annotations = maps.Clone(h.Annotations)
	out.Spec = autoscalingv2.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: autoscalingv2.CrossVersionObjectReference(h.Spec.ScaleTargetRef),
		MinReplicas:    h.Spec.MinReplicas,
		MaxReplicas:    h.Spec.MaxReplicas,
	}
	st := &out.Status
	*st = autoscalingv2.HorizontalPodAutoscalerStatus{
		ObservedGeneration: h.Status.ObservedGeneration, LastScaleTime: h.Status.LastScaleTime,
		CurrentReplicas: h.Status.CurrentReplicas, DesiredReplicas: h.Status.DesiredReplicas,
	}
	for _, a := range []struct {
		key string
		v   any
	}{
		{autoscalingv1.MetricsAnnotation, &out.Spec.Metrics},
		{autoscalingv1.BehaviorAnnotation, &out.Spec.Behavior},
		{autoscalingv1.ConditionsAnnotation, &st.Conditions},
		{autoscalingv1.CurrentMetricsAnnotation, &st.CurrentMetrics},
	} {
		s, ok := out.Annotations[a.key]
		if !ok {
			continue
		}
		if err := json.Unmarshal([]byte(s), a.v); err != nil {
			return nil, fmt.Errorf("horizontalpodautoscaler: annotation %s: %w", a.key, err)
		}
		delete(out.Annotations, a.key)
	}
	if len(out.Annotations) == 0 {
		out.Annotations = nil
	}
	out.Spec.Metrics = withCPUTarget(out.Spec.Metrics, h.Spec.TargetCPUUtilizationPercentage)
	if cur := h.Status.CurrentCPUUtilizationPercentage; cur != nil {
		m := autoscalingv2.MetricStatus{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricStatus{
			Name: corev1.ResourceCPU, Current: autoscalingv2.MetricValueStatus{AverageUtilization: cur},
		}}
		if i := cpuStatusIndex(st.CurrentMetrics); i >= 0 {
			st.CurrentMetrics[i].Resource.Current.AverageUtilization = cur
		} else {
			st.CurrentMetrics = append([]autoscalingv2.MetricStatus{m}, st.CurrentMetrics...)
		}
	}
	return out, nil
}

// withCPUTarget sets the CPU utilization metric of ms to target: changed
// in place, added first, or removed when target is nil.
func withCPUTarget(ms []autoscalingv2.MetricSpec, target *int32) []autoscalingv2.MetricSpec {
	i := cpuIndex(ms)
	switch {
	case target == nil && i >= 0:
		ms = append(ms[:i:i], ms[i+1:]...)
	case target == nil:
	case i >= 0:
		r := *ms[i].Resource
		r.Target.AverageUtilization = target
		ms[i].Resource = &r
	default:
		ms = append([]autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
			Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: target},
		}}}, ms...)
	}
	if len(ms) == 0 {
		return nil
	}
	return ms
}
