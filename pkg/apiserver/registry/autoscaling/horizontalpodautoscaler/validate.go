package horizontalpodautoscaler

import (
	"slices"

	autoscalingv2 "platform.io/client/api/autoscaling/v2"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Limits of the behavior rules, as upstream.
const (
	MaxStabilizationWindowSeconds = 3600
	MaxPeriodSeconds              = 1800
)

// ValidateSpec checks a (defaulted) v2 spec as upstream does: the target
// reference, 1 <= minReplicas <= maxReplicas, each metric and the behavior.
func ValidateSpec(s *autoscalingv2.HorizontalPodAutoscalerSpec) field.ErrorList {
	p := field.NewPath("spec")
	errs := validateRef(&s.ScaleTargetRef, p.Child("scaleTargetRef"))
	if s.MinReplicas != nil && *s.MinReplicas < 1 {
		errs = append(errs, field.Invalid(p.Child("minReplicas"), *s.MinReplicas, "must be greater than or equal to 1"))
	}
	if s.MaxReplicas < 1 {
		errs = append(errs, field.Invalid(p.Child("maxReplicas"), s.MaxReplicas, "must be greater than 0"))
	}
	if s.MinReplicas != nil && s.MaxReplicas < *s.MinReplicas {
		errs = append(errs, field.Invalid(p.Child("maxReplicas"), s.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	for i := range s.Metrics {
		errs = append(errs, validateMetric(&s.Metrics[i], p.Child("metrics").Index(i))...)
	}
	if b := s.Behavior; b != nil {
		bp := p.Child("behavior")
		errs = append(errs, validateRules(b.ScaleUp, bp.Child("scaleUp"))...)
		errs = append(errs, validateRules(b.ScaleDown, bp.Child("scaleDown"))...)
	}
	return errs
}

func validateRef(r *autoscalingv2.CrossVersionObjectReference, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if r.Kind == "" {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	} else {
		for _, msg := range validation.IsPathSegmentName(r.Kind) {
			errs = append(errs, field.Invalid(p.Child("kind"), r.Kind, msg))
		}
	}
	if r.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		for _, msg := range validation.IsPathSegmentName(r.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), r.Name, msg))
		}
	}
	return errs
}

var sourceTypes = []autoscalingv2.MetricSourceType{
	autoscalingv2.ObjectMetricSourceType, autoscalingv2.PodsMetricSourceType, autoscalingv2.ResourceMetricSourceType,
	autoscalingv2.ExternalMetricSourceType, autoscalingv2.ContainerResourceMetricSourceType,
}

// validateMetric checks that exactly the source Type names is set, and
// that source's fields.
func validateMetric(m *autoscalingv2.MetricSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	set := map[autoscalingv2.MetricSourceType]bool{
		autoscalingv2.ObjectMetricSourceType:            m.Object != nil,
		autoscalingv2.PodsMetricSourceType:              m.Pods != nil,
		autoscalingv2.ResourceMetricSourceType:          m.Resource != nil,
		autoscalingv2.ContainerResourceMetricSourceType: m.ContainerResource != nil,
		autoscalingv2.ExternalMetricSourceType:          m.External != nil,
	}
	n := 0
	for _, v := range set {
		if v {
			n++
		}
	}
	switch {
	case m.Type == "":
		errs = append(errs, field.Required(p.Child("type"), "must specify a metric source type"))
	case !slices.Contains(sourceTypes, m.Type):
		errs = append(errs, field.NotSupported(p.Child("type"), m.Type, sourceTypes))
	case !set[m.Type]:
		errs = append(errs, field.Required(p.Child(lowerFirst(string(m.Type))), "must populate information for the given metric source"))
	}
	if n > 1 || (n == 1 && m.Type != "" && !set[m.Type]) {
		errs = append(errs, field.Forbidden(p, "must populate the given metric source only"))
	}
	switch m.Type {
	case autoscalingv2.ResourceMetricSourceType:
		if r := m.Resource; r != nil {
			rp := p.Child("resource")
			if r.Name == "" {
				errs = append(errs, field.Required(rp.Child("name"), "must specify a resource name"))
			}
			errs = append(errs, validateResourceTarget(&r.Target, rp.Child("target"))...)
		}
	case autoscalingv2.ContainerResourceMetricSourceType:
		if r := m.ContainerResource; r != nil {
			rp := p.Child("containerResource")
			if r.Name == "" {
				errs = append(errs, field.Required(rp.Child("name"), "must specify a resource name"))
			}
			if r.Container == "" {
				errs = append(errs, field.Required(rp.Child("container"), "must specify a container"))
			}
			errs = append(errs, validateResourceTarget(&r.Target, rp.Child("target"))...)
		}
	case autoscalingv2.PodsMetricSourceType:
		if s := m.Pods; s != nil {
			errs = append(errs, validateIdentifier(&s.Metric, p.Child("pods", "metric"))...)
			errs = append(errs, validateTarget(&s.Target, p.Child("pods", "target"))...)
			if s.Target.AverageValue == nil {
				errs = append(errs, field.Required(p.Child("pods", "target", "averageValue"), "must specify a positive target averageValue"))
			}
		}
	case autoscalingv2.ObjectMetricSourceType:
		if s := m.Object; s != nil {
			errs = append(errs, validateRef(&s.DescribedObject, p.Child("object", "describedObject"))...)
			errs = append(errs, validateIdentifier(&s.Metric, p.Child("object", "metric"))...)
			errs = append(errs, validateTarget(&s.Target, p.Child("object", "target"))...)
			if s.Target.Value == nil && s.Target.AverageValue == nil {
				errs = append(errs, field.Required(p.Child("object", "target", "averageValue"), "must set either a target value or averageValue"))
			}
		}
	case autoscalingv2.ExternalMetricSourceType:
		if s := m.External; s != nil {
			errs = append(errs, validateIdentifier(&s.Metric, p.Child("external", "metric"))...)
			errs = append(errs, validateTarget(&s.Target, p.Child("external", "target"))...)
			if s.Target.Value == nil && s.Target.AverageValue == nil {
				errs = append(errs, field.Required(p.Child("external", "target", "averageValue"), "must set either a target value for metric or a per-pod target"))
			}
		}
	}
	return errs
}

func validateIdentifier(id *autoscalingv2.MetricIdentifier, p *field.Path) field.ErrorList {
	if id.Name == "" {
		return field.ErrorList{field.Required(p.Child("name"), "must specify a metric name")}
	}
	return nil
}

var targetTypes = []autoscalingv2.MetricTargetType{
	autoscalingv2.UtilizationMetricType, autoscalingv2.ValueMetricType, autoscalingv2.AverageValueMetricType,
}

// validateTarget checks the target type and that the values set are positive.
func validateTarget(t *autoscalingv2.MetricTarget, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case t.Type == "":
		errs = append(errs, field.Required(p.Child("type"), "must specify a metric target type"))
	case !slices.Contains(targetTypes, t.Type):
		errs = append(errs, field.NotSupported(p.Child("type"), t.Type, targetTypes))
	}
	if t.Value != nil && t.Value.Sign() <= 0 {
		errs = append(errs, field.Invalid(p.Child("value"), t.Value.String(), "must be positive"))
	}
	if t.AverageValue != nil && t.AverageValue.Sign() <= 0 {
		errs = append(errs, field.Invalid(p.Child("averageValue"), t.AverageValue.String(), "must be positive"))
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		errs = append(errs, field.Invalid(p.Child("averageUtilization"), *t.AverageUtilization, "must be greater than 0"))
	}
	return errs
}

// validateResourceTarget also requires exactly one of averageUtilization
// and averageValue: resource metrics are per-pod averages.
func validateResourceTarget(t *autoscalingv2.MetricTarget, p *field.Path) field.ErrorList {
	errs := validateTarget(t, p)
	if t.AverageUtilization == nil && t.AverageValue == nil {
		errs = append(errs, field.Required(p.Child("averageUtilization"), "must set either a target raw value or a target utilization"))
	}
	if t.AverageUtilization != nil && t.AverageValue != nil {
		errs = append(errs, field.Forbidden(p.Child("averageValue"), "may not set both a target raw value and a target utilization"))
	}
	return errs
}

var selectPolicies = []autoscalingv2.ScalingPolicySelect{
	autoscalingv2.MaxChangePolicySelect, autoscalingv2.MinChangePolicySelect, autoscalingv2.DisabledPolicySelect,
}

var policyTypes = []autoscalingv2.HPAScalingPolicyType{autoscalingv2.PodsScalingPolicy, autoscalingv2.PercentScalingPolicy}

func validateRules(r *autoscalingv2.HPAScalingRules, p *field.Path) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	if w := r.StabilizationWindowSeconds; w != nil && (*w < 0 || *w > MaxStabilizationWindowSeconds) {
		msg := "must be greater than or equal to zero"
		if *w > MaxStabilizationWindowSeconds {
			msg = "must be less than or equal to 3600"
		}
		errs = append(errs, field.Invalid(p.Child("stabilizationWindowSeconds"), *w, msg))
	}
	if sp := r.SelectPolicy; sp != nil && !slices.Contains(selectPolicies, *sp) {
		errs = append(errs, field.NotSupported(p.Child("selectPolicy"), *sp, selectPolicies))
	}
	if len(r.Policies) == 0 {
		errs = append(errs, field.Required(p.Child("policies"), "must specify at least one Policy"))
	}
	for i, pol := range r.Policies {
		pp := p.Child("policies").Index(i)
		if !slices.Contains(policyTypes, pol.Type) {
			errs = append(errs, field.NotSupported(pp.Child("type"), pol.Type, policyTypes))
		}
		if pol.Value <= 0 {
			errs = append(errs, field.Invalid(pp.Child("value"), pol.Value, "must be greater than zero"))
		}
		if pol.PeriodSeconds <= 0 {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), pol.PeriodSeconds, "must be greater than zero"))
		} else if pol.PeriodSeconds > MaxPeriodSeconds {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), pol.PeriodSeconds, "must be less than or equal to 1800"))
		}
	}
	return errs
}

func slicesContains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}
