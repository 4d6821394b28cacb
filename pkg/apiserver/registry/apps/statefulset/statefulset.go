package statefulset

import (
	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/apps/appsvalidation"
	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the statefulsets row of the registry. Names are DNS labels
// because every pod is named after its set.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: appsv1.GroupName, Version: "v1", Name: "statefulsets", Singular: "statefulset", Kind: "StatefulSet",
		ShortNames: []string{"sts"},
		Categories: []string{"all"},
		Namespaced: true,
		New:        func() meta.Object { return &appsv1.StatefulSet{} },
		NameFunc:   validation.IsDNS1123Label,
		HasStatus:  true,
		Strategy: registry.Typed[appsv1.StatefulSet]{
			DefaultFunc:        Default,
			ValidateFunc:       Validate,
			ValidateUpdateFunc: ValidateUpdate,
		},
		Scale: appsvalidation.Scale(
			func(ss *appsv1.StatefulSet) (*int32, int32, *meta.LabelSelector) {
				return ss.Spec.Replicas, ss.Status.Replicas, ss.Spec.Selector
			},
			func(ss *appsv1.StatefulSet, n int32) { ss.Spec.Replicas = &n },
		),
		Table: tableColumns,
	}
}

// Default sets the apps/v1 defaults of a StatefulSet and its pod template.
// As upstream, a rollingUpdate block is only created when the strategy type
// itself was defaulted; an existing one gets partition 0.
func Default(ss *appsv1.StatefulSet) {
	s := &ss.Spec
	if s.PodManagementPolicy == "" {
		s.PodManagementPolicy = appsv1.OrderedReadyPodManagement
	}
	us := &s.UpdateStrategy
	if us.Type == "" {
		us.Type = appsv1.RollingUpdateStatefulSetStrategyType
		if us.RollingUpdate == nil {
			us.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	}
	if us.Type == appsv1.RollingUpdateStatefulSetStrategyType && us.RollingUpdate != nil && us.RollingUpdate.Partition == nil {
		us.RollingUpdate.Partition = appsvalidation.Int32(0)
	}
	if s.PersistentVolumeClaimRetentionPolicy == nil {
		s.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	rp := s.PersistentVolumeClaimRetentionPolicy
	if rp.WhenDeleted == "" {
		rp.WhenDeleted = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if rp.WhenScaled == "" {
		rp.WhenScaled = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if s.Replicas == nil {
		s.Replicas = appsvalidation.Int32(1)
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = appsvalidation.Int32(10)
	}
	podspec.DefaultPodTemplateSpec(&s.Template)
}

// Validate checks a StatefulSet's spec.
func Validate(ss *appsv1.StatefulSet) field.ErrorList {
	return validateSpec(&ss.Spec, field.NewPath("spec"))
}

// ValidateUpdate checks the new spec and that only the updatable fields changed.
func ValidateUpdate(ss, old *appsv1.StatefulSet) field.ErrorList {
	p := field.NewPath("spec")
	errs := validateSpec(&ss.Spec, p)
	errs = append(errs, appsvalidation.Immutable(ss.Spec.Selector, old.Spec.Selector, p.Child("selector"))...)
	return append(errs, validateFrozenFields(&ss.Spec, &old.Spec, p)...)
}

// validateFrozenFields forbids changes outside the updatable fields; the
// selector is left out because its own immutability error names it.
func validateFrozenFields(s, old *appsv1.StatefulSetSpec, p *field.Path) field.ErrorList {
	rest := *s
	rest.Replicas, rest.Template, rest.UpdateStrategy = old.Replicas, old.Template, old.UpdateStrategy
	rest.PersistentVolumeClaimRetentionPolicy = old.PersistentVolumeClaimRetentionPolicy
	rest.MinReadySeconds, rest.Ordinals, rest.RevisionHistoryLimit = old.MinReadySeconds, old.Ordinals, old.RevisionHistoryLimit
	rest.Selector = old.Selector
	if appsvalidation.SemanticEqual(rest, *old) {
		return nil
	}
	return field.ErrorList{field.Forbidden(p, "updates to statefulset spec may only change 'replicas', 'template', 'updateStrategy', "+
		"'persistentVolumeClaimRetentionPolicy', 'minReadySeconds', 'ordinals' and 'revisionHistoryLimit'")}
}
