package statefulset

import (
	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry/apps/appsvalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

var (
	podManagementPolicies = []appsv1.PodManagementPolicyType{appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement}
	strategyTypes         = []appsv1.StatefulSetUpdateStrategyType{appsv1.RollingUpdateStatefulSetStrategyType, appsv1.OnDeleteStatefulSetStrategyType}
	retentionPolicies     = []appsv1.PersistentVolumeClaimRetentionPolicyType{
		appsv1.RetainPersistentVolumeClaimRetentionPolicyType, appsv1.DeletePersistentVolumeClaimRetentionPolicyType,
	}
)

func validateSpec(s *appsv1.StatefulSetSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch s.PodManagementPolicy {
	case appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
	case "":
		errs = append(errs, field.Required(p.Child("podManagementPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("podManagementPolicy"), s.PodManagementPolicy, podManagementPolicies))
	}
	errs = append(errs, validateUpdateStrategy(&s.UpdateStrategy, p.Child("updateStrategy"))...)
	errs = append(errs, validateRetentionPolicy(s.PersistentVolumeClaimRetentionPolicy, p.Child("persistentVolumeClaimRetentionPolicy"))...)
	errs = append(errs, appsvalidation.NonNegativePtr(s.Replicas, p.Child("replicas"))...)
	errs = append(errs, appsvalidation.NonNegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	errs = append(errs, appsvalidation.NonNegativePtr(s.RevisionHistoryLimit, p.Child("revisionHistoryLimit"))...)
	if s.Ordinals != nil {
		errs = append(errs, appsvalidation.NonNegative(int64(s.Ordinals.Start), p.Child("ordinals", "start"))...)
	}
	if s.ServiceName != "" {
		for _, msg := range validation.IsDNS1035Label(s.ServiceName) {
			errs = append(errs, field.Invalid(p.Child("serviceName"), s.ServiceName, msg))
		}
	}
	errs = append(errs, validateClaimTemplates(s.VolumeClaimTemplates, p.Child("volumeClaimTemplates"))...)
	sel, selErrs := appsvalidation.Selector(s.Selector, "statefulset", p.Child("selector"))
	errs = append(errs, selErrs...)
	template := withClaimVolumes(s.Template, s.VolumeClaimTemplates)
	return append(errs, appsvalidation.Template(&template, sel, "StatefulSet", p.Child("template"))...)
}

func validateUpdateStrategy(s *appsv1.StatefulSetUpdateStrategy, p *field.Path) field.ErrorList {
	rp := p.Child("rollingUpdate")
	switch s.Type {
	case appsv1.OnDeleteStatefulSetStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(rp, "may only be specified when `type` is 'RollingUpdate'")}
		}
		return nil
	case appsv1.RollingUpdateStatefulSetStrategyType:
		if s.RollingUpdate == nil {
			return nil
		}
		errs := appsvalidation.NonNegativePtr(s.RollingUpdate.Partition, rp.Child("partition"))
		if mu := s.RollingUpdate.MaxUnavailable; mu != nil {
			mp := rp.Child("maxUnavailable")
			errs = append(errs, appsvalidation.IntOrPercent(mu, mp)...)
			errs = append(errs, appsvalidation.NotMoreThan100Percent(mu, mp)...)
			if appsvalidation.IntOrPercentValue(mu) == 0 {
				errs = append(errs, field.Invalid(mp, *mu, "may not be 0"))
			}
		}
		return errs
	case "":
		return field.ErrorList{field.Required(p.Child("type"), "")}
	}
	return field.ErrorList{field.NotSupported(p.Child("type"), s.Type, strategyTypes)}
}

func validateRetentionPolicy(rp *appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy, p *field.Path) field.ErrorList {
	if rp == nil {
		return nil
	}
	var errs field.ErrorList
	check := func(v appsv1.PersistentVolumeClaimRetentionPolicyType, fp *field.Path) {
		if v != appsv1.RetainPersistentVolumeClaimRetentionPolicyType && v != appsv1.DeletePersistentVolumeClaimRetentionPolicyType {
			errs = append(errs, field.NotSupported(fp, v, retentionPolicies))
		}
	}
	check(rp.WhenDeleted, p.Child("whenDeleted"))
	check(rp.WhenScaled, p.Child("whenScaled"))
	return errs
}

// validateClaimTemplates checks the names of the claim templates, which
// become part of every claim's name and are mounted by name.
func validateClaimTemplates(claims []appsv1.PersistentVolumeClaim, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, c := range claims {
		np := p.Index(i).Child("metadata", "name")
		switch {
		case c.Name == "":
			errs = append(errs, field.Required(np, ""))
		case seen[c.Name]:
			errs = append(errs, field.Duplicate(np, c.Name))
		default:
			for _, msg := range validation.IsDNS1123Subdomain(c.Name) {
				errs = append(errs, field.Invalid(np, c.Name, msg))
			}
		}
		seen[c.Name] = true
		errs = append(errs, validation.Labels(c.Labels, p.Index(i).Child("metadata", "labels"))...)
	}
	return errs
}

// withClaimVolumes returns a copy of t whose volumes include one per claim
// template, as the controller builds its pods: a template volume of the
// same name is replaced in place, the other claims are appended. Mounts of
// claim volumes then validate like any other.
func withClaimVolumes(t corev1.PodTemplateSpec, claims []appsv1.PersistentVolumeClaim) corev1.PodTemplateSpec {
	if len(claims) == 0 {
		return t
	}
	claimVolume := func(name string) corev1.Volume {
		return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: name},
		}}
	}
	pending := map[string]bool{}
	for _, c := range claims {
		pending[c.Name] = c.Name != ""
	}
	volumes := make([]corev1.Volume, 0, len(t.Spec.Volumes)+len(claims))
	for _, v := range t.Spec.Volumes {
		if _, ok := pending[v.Name]; ok && v.Name != "" {
			v = claimVolume(v.Name)
			pending[v.Name] = false
		}
		volumes = append(volumes, v)
	}
	for _, c := range claims {
		if pending[c.Name] {
			volumes = append(volumes, claimVolume(c.Name))
			pending[c.Name] = false
		}
	}
	t.Spec.Volumes = volumes
	return t
}
