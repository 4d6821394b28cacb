package daemonset

import (
	"strconv"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apps/appsvalidation"
	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the daemonsets row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: appsv1.GroupName, Version: "v1", Name: "daemonsets", Singular: "daemonset", Kind: "DaemonSet",
		ShortNames: []string{"ds"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &appsv1.DaemonSet{} },
		HasStatus:  true,
		Strategy: registry.Typed[appsv1.DaemonSet]{
			DefaultFunc:          Default,
			PrepareForCreateFunc: prepareForCreate,
			PrepareForUpdateFunc: prepareForUpdate,
			ValidateFunc:         Validate,
			ValidateUpdateFunc:   ValidateUpdate,
		},
		Table: tableColumns,
	}
}

// Default sets the apps/v1 defaults of a DaemonSet and its pod template.
func Default(ds *appsv1.DaemonSet) {
	us := &ds.Spec.UpdateStrategy
	if us.Type == "" {
		us.Type = appsv1.RollingUpdateDaemonSetStrategyType
	}
	if us.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		if us.RollingUpdate == nil {
			us.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
		}
		if us.RollingUpdate.MaxUnavailable == nil {
			v := intstr.FromInt(1)
			us.RollingUpdate.MaxUnavailable = &v
		}
		if us.RollingUpdate.MaxSurge == nil {
			v := intstr.FromInt(0)
			us.RollingUpdate.MaxSurge = &v
		}
	}
	if ds.Spec.RevisionHistoryLimit == nil {
		ds.Spec.RevisionHistoryLimit = appsvalidation.Int32(10)
	}
	podspec.DefaultPodTemplateSpec(&ds.Spec.Template)
}

// The server numbers template versions in an annotation, as upstream's
// apps/v1 conversion of the internal templateGeneration does: 1 on create,
// plus one on every template change. Clients cannot set it.

func prepareForCreate(ds *appsv1.DaemonSet) {
	setTemplateGeneration(ds, 1)
}

func prepareForUpdate(ds, old *appsv1.DaemonSet) {
	gen := templateGeneration(old)
	if !appsvalidation.SemanticEqual(ds.Spec.Template, old.Spec.Template) {
		gen++
	}
	setTemplateGeneration(ds, gen)
}

func templateGeneration(ds *appsv1.DaemonSet) int64 {
	n, err := strconv.ParseInt(ds.Annotations[appsv1.DeprecatedTemplateGeneration], 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// setTemplateGeneration records gen; 0 means no annotation.
func setTemplateGeneration(ds *appsv1.DaemonSet, gen int64) {
	if gen == 0 {
		delete(ds.Annotations, appsv1.DeprecatedTemplateGeneration)
		return
	}
	if ds.Annotations == nil {
		ds.Annotations = map[string]string{}
	}
	ds.Annotations[appsv1.DeprecatedTemplateGeneration] = strconv.FormatInt(gen, 10)
}

// Validate checks a DaemonSet's spec.
func Validate(ds *appsv1.DaemonSet) field.ErrorList {
	return validateSpec(&ds.Spec, field.NewPath("spec"))
}

// ValidateUpdate checks the new spec and keeps the selector unchanged.
func ValidateUpdate(ds, old *appsv1.DaemonSet) field.ErrorList {
	p := field.NewPath("spec")
	errs := validateSpec(&ds.Spec, p)
	return append(errs, appsvalidation.Immutable(ds.Spec.Selector, old.Spec.Selector, p.Child("selector"))...)
}

func validateSpec(s *appsv1.DaemonSetSpec, p *field.Path) field.ErrorList {
	sel, errs := appsvalidation.Selector(s.Selector, "daemonset", p.Child("selector"))
	errs = append(errs, appsvalidation.Template(&s.Template, sel, "DaemonSet", p.Child("template"))...)
	errs = append(errs, appsvalidation.NonNegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	errs = append(errs, validateUpdateStrategy(&s.UpdateStrategy, p.Child("updateStrategy"))...)
	return append(errs, appsvalidation.NonNegativePtr(s.RevisionHistoryLimit, p.Child("revisionHistoryLimit"))...)
}

var strategyTypes = []appsv1.DaemonSetUpdateStrategyType{
	appsv1.RollingUpdateDaemonSetStrategyType, appsv1.OnDeleteDaemonSetStrategyType,
}

// validateUpdateStrategy follows upstream in tolerating a leftover
// rollingUpdate under OnDelete: a merge patch that switches the type keeps
// the defaulted block, and upstream accepts that.
func validateUpdateStrategy(s *appsv1.DaemonSetUpdateStrategy, p *field.Path) field.ErrorList {
	switch s.Type {
	case appsv1.OnDeleteDaemonSetStrategyType:
		return nil
	case appsv1.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(p.Child("rollingUpdate"), "")}
		}
		return validateRollingUpdate(s.RollingUpdate, p.Child("rollingUpdate"))
	}
	return field.ErrorList{field.NotSupported(p.Child("type"), s.Type, strategyTypes)}
}

// validateRollingUpdate requires exactly one of the two bounds to be non-zero.
func validateRollingUpdate(ru *appsv1.RollingUpdateDaemonSet, p *field.Path) field.ErrorList {
	up, sp := p.Child("maxUnavailable"), p.Child("maxSurge")
	errs := appsvalidation.IntOrPercent(ru.MaxUnavailable, up)
	errs = append(errs, appsvalidation.IntOrPercent(ru.MaxSurge, sp)...)
	errs = append(errs, appsvalidation.NotMoreThan100Percent(ru.MaxUnavailable, up)...)
	errs = append(errs, appsvalidation.NotMoreThan100Percent(ru.MaxSurge, sp)...)
	unavailable := appsvalidation.IntOrPercentValue(ru.MaxUnavailable) != 0
	surge := appsvalidation.IntOrPercentValue(ru.MaxSurge) != 0
	switch {
	case unavailable && surge:
		errs = append(errs, field.Invalid(sp, ru.MaxSurge, "may not be set when maxUnavailable is non-zero"))
	case !unavailable && !surge:
		errs = append(errs, field.Invalid(up, ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
	}
	return errs
}
