package batchvalidation

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry/core/podspec"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Limits on Indexed jobs, which keep the index lists in status bounded.
const (
	maxIndexedParallelism = 100000
	maxFailedIndexes      = 100000
	completionsSoftLimit  = 100000
	highCompletionsLimit  = 10000 // parallelism and maxFailedIndexes above the soft limit
	maxManagedByLength    = 63
	defaultBackoffLimit   = 6
)

// DefaultJobSpec fills the unset fields of a Job's spec, its pod template included.
func DefaultJobSpec(spec *batchv1.JobSpec) {
	if spec.Completions == nil && spec.Parallelism == nil {
		spec.Completions = ptr[int32](1)
	}
	if spec.Parallelism == nil {
		spec.Parallelism = ptr[int32](1)
	}
	if spec.BackoffLimit == nil {
		if spec.BackoffLimitPerIndex != nil {
			// With per-index budgets the global limit stops mattering.
			spec.BackoffLimit = ptr[int32](math.MaxInt32)
		} else {
			spec.BackoffLimit = ptr[int32](defaultBackoffLimit)
		}
	}
	if spec.CompletionMode == nil {
		spec.CompletionMode = ptr(batchv1.NonIndexedCompletion)
	}
	if spec.Suspend == nil {
		spec.Suspend = ptr(false)
	}
	if spec.PodReplacementPolicy == nil {
		if spec.PodFailurePolicy != nil {
			spec.PodReplacementPolicy = ptr(batchv1.Failed)
		} else {
			spec.PodReplacementPolicy = ptr(batchv1.TerminatingOrFailed)
		}
	}
	if spec.ManualSelector == nil {
		spec.ManualSelector = ptr(false)
	}
	DefaultJobTemplateSpec(spec)
}

// DefaultJobTemplateSpec sets the defaults that also apply to the job spec
// inside a CronJob: the pod template and pod failure policy patterns.
func DefaultJobTemplateSpec(spec *batchv1.JobSpec) {
	podspec.DefaultPodTemplateSpec(&spec.Template)
	if spec.PodFailurePolicy == nil {
		return
	}
	for i := range spec.PodFailurePolicy.Rules {
		for j := range spec.PodFailurePolicy.Rules[i].OnPodConditions {
			pattern := &spec.PodFailurePolicy.Rules[i].OnPodConditions[j]
			if pattern.Status == "" {
				pattern.Status = corev1.ConditionTrue
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

// NonNegative reports a negative value at p.
func NonNegative(v int64, p *field.Path) field.ErrorList {
	if v < 0 {
		return field.ErrorList{field.Invalid(p, v, "must be greater than or equal to 0")}
	}
	return nil
}

// ValidateJobSpec checks the rules a JobSpec obeys both in a Job and in a
// CronJob's job template; the selector is checked by the callers.
func ValidateJobSpec(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, f := range []struct {
		name string
		v    *int32
	}{
		{"parallelism", spec.Parallelism}, {"completions", spec.Completions},
		{"backoffLimit", spec.BackoffLimit}, {"ttlSecondsAfterFinished", spec.TTLSecondsAfterFinished},
		{"backoffLimitPerIndex", spec.BackoffLimitPerIndex}, {"maxFailedIndexes", spec.MaxFailedIndexes},
	} {
		if f.v != nil {
			errs = append(errs, NonNegative(int64(*f.v), p.Child(f.name))...)
		}
	}
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, NonNegative(*spec.ActiveDeadlineSeconds, p.Child("activeDeadlineSeconds"))...)
	}
	if spec.MaxFailedIndexes != nil && spec.BackoffLimitPerIndex == nil {
		errs = append(errs, field.Required(p.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
	}
	if spec.ManagedBy != nil {
		errs = append(errs, validateManagedBy(*spec.ManagedBy, p.Child("managedBy"))...)
	}
	errs = append(errs, validateCompletionMode(spec, p)...)
	if spec.PodFailurePolicy != nil {
		errs = append(errs, validatePodFailurePolicy(spec, p.Child("podFailurePolicy"))...)
	}
	if spec.SuccessPolicy != nil {
		if !isIndexed(spec) {
			errs = append(errs, field.Invalid(p.Child("successPolicy"), *spec.SuccessPolicy, "requires indexed completion mode"))
		} else {
			errs = append(errs, validateSuccessPolicy(spec, p.Child("successPolicy"))...)
		}
	}
	errs = append(errs, validatePodReplacementPolicy(spec, p.Child("podReplacementPolicy"))...)
	errs = append(errs, podspec.ValidatePodTemplateSpec(&spec.Template, p.Child("template"))...)
	return append(errs, validateJobRestartPolicy(spec, p.Child("template", "spec", "restartPolicy"))...)
}

func isIndexed(spec *batchv1.JobSpec) bool {
	return spec.CompletionMode != nil && *spec.CompletionMode == batchv1.IndexedCompletion
}

// validateCompletionMode checks the mode and the limits of Indexed jobs.
func validateCompletionMode(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !isIndexed(spec) {
		if spec.CompletionMode != nil && *spec.CompletionMode != batchv1.NonIndexedCompletion {
			errs = append(errs, field.NotSupported(p.Child("completionMode"), *spec.CompletionMode,
				[]batchv1.CompletionMode{batchv1.NonIndexedCompletion, batchv1.IndexedCompletion}))
		}
		if spec.BackoffLimitPerIndex != nil {
			errs = append(errs, field.Invalid(p.Child("backoffLimitPerIndex"), *spec.BackoffLimitPerIndex, "requires indexed completion mode"))
		}
		if spec.MaxFailedIndexes != nil {
			errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "requires indexed completion mode"))
		}
		return errs
	}
	if spec.Completions == nil {
		errs = append(errs, field.Required(p.Child("completions"), "when completion mode is Indexed"))
	}
	if spec.Parallelism != nil && *spec.Parallelism > maxIndexedParallelism {
		errs = append(errs, field.Invalid(p.Child("parallelism"), *spec.Parallelism,
			fmt.Sprintf("must be less than or equal to %d when completion mode is Indexed", maxIndexedParallelism)))
	}
	if mfi := spec.MaxFailedIndexes; mfi != nil {
		if spec.Completions != nil && *mfi > *spec.Completions {
			errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), *mfi, "must be less than or equal to completions"))
		}
		if *mfi > maxFailedIndexes {
			errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), *mfi, fmt.Sprintf("must be less than or equal to %d", maxFailedIndexes)))
		}
	}
	if spec.Completions == nil || *spec.Completions <= completionsSoftLimit || spec.BackoffLimitPerIndex == nil {
		return errs
	}
	above := fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", highCompletionsLimit, completionsSoftLimit)
	if spec.MaxFailedIndexes == nil {
		errs = append(errs, field.Required(p.Child("maxFailedIndexes"), fmt.Sprintf("must be specified when completions is above %d", completionsSoftLimit)))
	} else if *spec.MaxFailedIndexes > highCompletionsLimit {
		errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, above))
	}
	if spec.Parallelism != nil && *spec.Parallelism > highCompletionsLimit {
		errs = append(errs, field.Invalid(p.Child("parallelism"), *spec.Parallelism, above))
	}
	return errs
}

// validateJobRestartPolicy allows only OnFailure and Never, and only Never
// together with a pod failure policy.
func validateJobRestartPolicy(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	allowed := []corev1.RestartPolicy{corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}
	switch rp := spec.Template.Spec.RestartPolicy; {
	case rp == "" || rp == corev1.RestartPolicyAlways:
		return field.ErrorList{field.Required(p, fmt.Sprintf("valid values: %q, %q", allowed[0], allowed[1]))}
	case rp != corev1.RestartPolicyOnFailure && rp != corev1.RestartPolicyNever:
		return field.ErrorList{field.NotSupported(p, rp, allowed)}
	case spec.PodFailurePolicy != nil && rp != corev1.RestartPolicyNever:
		return field.ErrorList{field.Invalid(p, rp, `only "Never" is supported when podFailurePolicy is specified`)}
	}
	return nil
}

var httpPathRe = regexp.MustCompile(`^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$`)

// validateManagedBy requires a domain-prefixed path such as "example.com/queue".
func validateManagedBy(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(v) > maxManagedByLength {
		errs = append(errs, field.TooLong(p, maxManagedByLength))
	}
	domain, path, ok := strings.Cut(v, "/")
	if !ok || path == "" {
		return append(errs, field.Invalid(p, v, "must be a domain-prefixed path (such as \"acme.io/foo\")"))
	}
	for _, msg := range validation.IsDNS1123Subdomain(domain) {
		errs = append(errs, field.Invalid(p, domain, msg))
	}
	if !httpPathRe.MatchString(path) {
		errs = append(errs, field.Invalid(p, path, "must be a valid HTTP path"))
	}
	return errs
}

// ValidateJobTemplateSpec checks the job template of a CronJob: its labels,
// the shared JobSpec rules, and that the selector is left to the server.
func ValidateJobTemplateSpec(t *batchv1.JobTemplateSpec, p *field.Path) field.ErrorList {
	mp := p.Child("metadata")
	errs := validation.Labels(t.Labels, mp.Child("labels"))
	errs = append(errs, validation.Annotations(t.Annotations, mp.Child("annotations"))...)
	sp := p.Child("spec")
	errs = append(errs, ValidateJobSpec(&t.Spec, sp)...)
	if t.Spec.Selector != nil {
		errs = append(errs, field.Invalid(sp.Child("selector"), t.Spec.Selector, "`selector` will be auto-generated"))
	}
	if t.Spec.ManualSelector != nil && *t.Spec.ManualSelector {
		errs = append(errs, field.NotSupported(sp.Child("manualSelector"), "true", []string{"nil", "false"}))
	}
	return errs
}
