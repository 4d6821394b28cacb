package replicaset

import (
	"strconv"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apps/appsvalidation"
	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the replicasets row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: appsv1.GroupName, Version: "v1", Name: "replicasets", Singular: "replicaset", Kind: "ReplicaSet",
		ShortNames: []string{"rs"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &appsv1.ReplicaSet{} },
		HasStatus:  true,
		Strategy: registry.Typed[appsv1.ReplicaSet]{
			DefaultFunc:        Default,
			ValidateFunc:       Validate,
			ValidateUpdateFunc: ValidateUpdate,
		},
		Scale: appsvalidation.Scale(
			func(rs *appsv1.ReplicaSet) (*int32, int32, *meta.LabelSelector) {
				return rs.Spec.Replicas, rs.Status.Replicas, rs.Spec.Selector
			},
			func(rs *appsv1.ReplicaSet, n int32) { rs.Spec.Replicas = &n },
		),
		SelectableFields: func(obj meta.Object) map[string]string {
			return map[string]string{"status.replicas": strconv.Itoa(int(obj.(*appsv1.ReplicaSet).Status.Replicas))}
		},
		Table: tableColumns,
	}
}

// Default sets the apps/v1 defaults of a ReplicaSet and its pod template.
func Default(rs *appsv1.ReplicaSet) {
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = appsvalidation.Int32(1)
	}
	podspec.DefaultPodTemplateSpec(&rs.Spec.Template)
}

// Validate checks a ReplicaSet's spec.
func Validate(rs *appsv1.ReplicaSet) field.ErrorList {
	return validateSpec(&rs.Spec, field.NewPath("spec"))
}

// ValidateUpdate checks the new spec and keeps the selector unchanged.
func ValidateUpdate(rs, old *appsv1.ReplicaSet) field.ErrorList {
	p := field.NewPath("spec")
	errs := validateSpec(&rs.Spec, p)
	return append(errs, appsvalidation.Immutable(rs.Spec.Selector, old.Spec.Selector, p.Child("selector"))...)
}

func validateSpec(s *appsv1.ReplicaSetSpec, p *field.Path) field.ErrorList {
	errs := appsvalidation.NonNegativePtr(s.Replicas, p.Child("replicas"))
	errs = append(errs, appsvalidation.NonNegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	sel, selErrs := appsvalidation.Selector(s.Selector, "replicaset", p.Child("selector"))
	errs = append(errs, selErrs...)
	return append(errs, appsvalidation.Template(&s.Template, sel, "ReplicaSet", p.Child("template"))...)
}
