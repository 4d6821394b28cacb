package appsvalidation

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"

	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Template checks the pod template of a workload controller: its labels
// must satisfy the selector (skipped when sel is nil), the template must be
// a valid pod template, pods must restart Always and may not carry an
// activeDeadlineSeconds. kind names the workload in messages ("DaemonSet").
func Template(t *corev1.PodTemplateSpec, sel labels.Selector, kind string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if sel != nil && !sel.Empty() && !sel.Matches(labels.Set(t.Labels)) {
		errs = append(errs, field.Invalid(p.Child("metadata", "labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, podspec.ValidatePodTemplateSpec(t, p)...)
	rp := p.Child("spec", "restartPolicy")
	if t.Spec.RestartPolicy != corev1.RestartPolicyAlways && !hasErrorAt(errs, rp) {
		errs = append(errs, field.NotSupported(rp, t.Spec.RestartPolicy, []corev1.RestartPolicy{corev1.RestartPolicyAlways}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(p.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds is not supported in a "+kind+" pod template"))
	}
	return errs
}

// hasErrorAt reports whether errs already holds an error at path p.
func hasErrorAt(errs field.ErrorList, p *field.Path) bool {
	s := p.String()
	for _, e := range errs {
		if e.Field == s {
			return true
		}
	}
	return false
}
