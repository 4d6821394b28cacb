package deployment

import (
	"maps"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apps/appsvalidation"
	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the deployments row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: appsv1.GroupName, Version: "v1", Name: "deployments", Singular: "deployment", Kind: "Deployment",
		ShortNames: []string{"deploy"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &appsv1.Deployment{} },
		HasStatus:  true,
		Strategy: registry.Typed[appsv1.Deployment]{
			DefaultFunc:          Default,
			PrepareForUpdateFunc: prepareForUpdate,
			ValidateFunc:         Validate,
			ValidateUpdateFunc:   ValidateUpdate,
		},
		Scale: appsvalidation.Scale(
			func(d *appsv1.Deployment) (*int32, int32, *meta.LabelSelector) {
				return d.Spec.Replicas, d.Status.Replicas, d.Spec.Selector
			},
			func(d *appsv1.Deployment, n int32) { d.Spec.Replicas = &n },
		),
		Table:   tableColumns,
		Actions: map[string]registry.Action{"rollback": rollback},
	}
}

// Default sets the apps/v1 defaults of a Deployment and its pod template.
func Default(d *appsv1.Deployment) {
	s := &d.Spec
	if s.Replicas == nil {
		s.Replicas = appsvalidation.Int32(1)
	}
	if s.Strategy.Type == "" {
		s.Strategy.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if s.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if s.Strategy.RollingUpdate == nil {
			s.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		ru := s.Strategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			v := intstr.FromString("25%")
			ru.MaxUnavailable = &v
		}
		if ru.MaxSurge == nil {
			v := intstr.FromString("25%")
			ru.MaxSurge = &v
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = appsvalidation.Int32(10)
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = appsvalidation.Int32(600)
	}
	podspec.DefaultPodTemplateSpec(&s.Template)
}

// prepareForUpdate also bumps the generation on annotation changes, since
// the controller copies a Deployment's annotations to its ReplicaSets.
func prepareForUpdate(d, old *appsv1.Deployment) {
	if !maps.Equal(d.Annotations, old.Annotations) {
		d.Generation = old.Generation + 1
	}
}

// Validate checks a Deployment's spec.
func Validate(d *appsv1.Deployment) field.ErrorList {
	return validateSpec(&d.Spec, field.NewPath("spec"))
}

// ValidateUpdate checks the new spec and keeps the selector unchanged.
func ValidateUpdate(d, old *appsv1.Deployment) field.ErrorList {
	p := field.NewPath("spec")
	errs := validateSpec(&d.Spec, p)
	return append(errs, appsvalidation.Immutable(d.Spec.Selector, old.Spec.Selector, p.Child("selector"))...)
}

func validateSpec(s *appsv1.DeploymentSpec, p *field.Path) field.ErrorList {
	errs := appsvalidation.NonNegativePtr(s.Replicas, p.Child("replicas"))
	sel, selErrs := appsvalidation.Selector(s.Selector, "deployment", p.Child("selector"))
	errs = append(errs, selErrs...)
	errs = append(errs, appsvalidation.Template(&s.Template, sel, "Deployment", p.Child("template"))...)
	errs = append(errs, validateStrategy(&s.Strategy, p.Child("strategy"))...)
	errs = append(errs, appsvalidation.NonNegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	errs = append(errs, appsvalidation.NonNegativePtr(s.RevisionHistoryLimit, p.Child("revisionHistoryLimit"))...)
	if pds := s.ProgressDeadlineSeconds; pds != nil {
		dp := p.Child("progressDeadlineSeconds")
		errs = append(errs, appsvalidation.NonNegative(int64(*pds), dp)...)
		if *pds <= s.MinReadySeconds {
			errs = append(errs, field.Invalid(dp, *pds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

var strategyTypes = []appsv1.DeploymentStrategyType{
	appsv1.RecreateDeploymentStrategyType, appsv1.RollingUpdateDeploymentStrategyType,
}

func validateStrategy(s *appsv1.DeploymentStrategy, p *field.Path) field.ErrorList {
	rp := p.Child("rollingUpdate")
	switch s.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(rp, "may not be specified when strategy `type` is 'Recreate'")}
		}
		return nil
	case appsv1.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(rp, "")}
		}
		return validateRollingUpdate(s.RollingUpdate, rp)
	}
	return field.ErrorList{field.NotSupported(p.Child("type"), s.Type, strategyTypes)}
}

func validateRollingUpdate(ru *appsv1.RollingUpdateDeployment, p *field.Path) field.ErrorList {
	up, sp := p.Child("maxUnavailable"), p.Child("maxSurge")
	errs := appsvalidation.IntOrPercent(ru.MaxUnavailable, up)
	errs = append(errs, appsvalidation.IntOrPercent(ru.MaxSurge, sp)...)
	errs = append(errs, appsvalidation.NotMoreThan100Percent(ru.MaxUnavailable, up)...)
	if appsvalidation.IntOrPercentValue(ru.MaxUnavailable) == 0 && appsvalidation.IntOrPercentValue(ru.MaxSurge) == 0 {
		errs = append(errs, field.Invalid(up, ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
	}
	return errs
}
