package batchvalidation

import (
	"fmt"
	"strconv"
	"strings"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Size limits of the failure and success policies.
const (
	maxFailurePolicyRules      = 20
	maxExitCodeValues          = 255
	maxPodConditionPatterns    = 20
	maxSuccessPolicyRules      = 20
	maxSucceededIndexesLength  = 64 * 1024
	failurePolicyExactlyOneMsg = "specifying one of OnExitCodes and OnPodConditions is required"
	failurePolicyBothMsg       = "specifying both OnExitCodes and OnPodConditions is not supported"
)

var (
	failureActions = []batchv1.PodFailurePolicyAction{
		batchv1.PodFailurePolicyActionCount, batchv1.PodFailurePolicyActionFailIndex,
		batchv1.PodFailurePolicyActionFailJob, batchv1.PodFailurePolicyActionIgnore,
	}
	exitCodeOperators = []batchv1.PodFailurePolicyOnExitCodesOperator{
		batchv1.PodFailurePolicyOnExitCodesOpIn, batchv1.PodFailurePolicyOnExitCodesOpNotIn,
	}
	conditionStatuses = []corev1.ConditionStatus{corev1.ConditionFalse, corev1.ConditionTrue, corev1.ConditionUnknown}
)

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func validatePodReplacementPolicy(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	prp := spec.PodReplacementPolicy
	switch {
	case prp == nil:
		return nil
	case spec.PodFailurePolicy != nil && *prp != batchv1.Failed:
		return field.ErrorList{field.NotSupported(p, *prp, []batchv1.PodReplacementPolicy{batchv1.Failed})}
	case *prp != batchv1.Failed && *prp != batchv1.TerminatingOrFailed:
		return field.ErrorList{field.NotSupported(p, *prp, []batchv1.PodReplacementPolicy{batchv1.Failed, batchv1.TerminatingOrFailed})}
	}
	return nil
}

func validatePodFailurePolicy(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	rules := spec.PodFailurePolicy.Rules
	rp := p.Child("rules")
	if len(rules) > maxFailurePolicyRules {
		errs = append(errs, field.TooMany(rp, len(rules), maxFailurePolicyRules))
	}
	names := map[string]bool{}
	for _, c := range spec.Template.Spec.Containers {
		names[c.Name] = true
	}
	for _, c := range spec.Template.Spec.InitContainers {
		names[c.Name] = true
	}
	for i := range rules {
		errs = append(errs, validateFailureRule(spec, &rules[i], rp.Index(i), names)...)
	}
	return errs
}

func validateFailureRule(spec *batchv1.JobSpec, r *batchv1.PodFailurePolicyRule, p *field.Path, containers map[string]bool) field.ErrorList {
	var errs field.ErrorList
	ap := p.Child("action")
	switch {
	case r.Action == "":
		errs = append(errs, field.Required(ap, fmt.Sprintf("valid values: %q", failureActions)))
	case !contains(failureActions, r.Action):
		errs = append(errs, field.NotSupported(ap, r.Action, failureActions))
	case r.Action == batchv1.PodFailurePolicyActionFailIndex && spec.BackoffLimitPerIndex == nil:
		errs = append(errs, field.Invalid(ap, r.Action, "requires the backoffLimitPerIndex to be set"))
	}
	if r.OnExitCodes != nil {
		errs = append(errs, validateOnExitCodes(r.OnExitCodes, p.Child("onExitCodes"), containers)...)
	}
	if len(r.OnPodConditions) > 0 {
		errs = append(errs, validateOnPodConditions(r.OnPodConditions, p.Child("onPodConditions"))...)
	}
	switch {
	case r.OnExitCodes != nil && len(r.OnPodConditions) > 0:
		errs = append(errs, field.Invalid(p, nil, failurePolicyBothMsg))
	case r.OnExitCodes == nil && len(r.OnPodConditions) == 0:
		errs = append(errs, field.Invalid(p, nil, failurePolicyExactlyOneMsg))
	}
	return errs
}

func validateOnExitCodes(r *batchv1.PodFailurePolicyOnExitCodesRequirement, p *field.Path, containers map[string]bool) field.ErrorList {
	var errs field.ErrorList
	op := p.Child("operator")
	if r.Operator == "" {
		errs = append(errs, field.Required(op, fmt.Sprintf("valid values: %q", exitCodeOperators)))
	} else if !contains(exitCodeOperators, r.Operator) {
		errs = append(errs, field.NotSupported(op, r.Operator, exitCodeOperators))
	}
	if r.ContainerName != nil && !containers[*r.ContainerName] {
		errs = append(errs, field.Invalid(p.Child("containerName"), *r.ContainerName, "must be one of the container or initContainer names in the pod template"))
	}
	vp := p.Child("values")
	switch {
	case len(r.Values) == 0:
		errs = append(errs, field.Invalid(vp, r.Values, "at least one value is required"))
	case len(r.Values) > maxExitCodeValues:
		errs = append(errs, field.TooMany(vp, len(r.Values), maxExitCodeValues))
	}
	seen := map[int32]bool{}
	ordered := true
	for i, v := range r.Values {
		if r.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn && v == 0 {
			errs = append(errs, field.Invalid(vp.Index(i), v, "must not be 0 for the In operator"))
		}
		if seen[v] {
			errs = append(errs, field.Duplicate(vp.Index(i), v))
		}
		seen[v] = true
		if i > 0 && r.Values[i-1] > v {
			ordered = false
		}
	}
	if !ordered {
		errs = append(errs, field.Invalid(vp, r.Values, "must be ordered"))
	}
	return errs
}

func validateOnPodConditions(patterns []batchv1.PodFailurePolicyOnPodConditionsPattern, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(patterns) > maxPodConditionPatterns {
		errs = append(errs, field.TooMany(p, len(patterns), maxPodConditionPatterns))
	}
	for i, pat := range patterns {
		ip := p.Index(i)
		for _, msg := range validation.IsQualifiedName(string(pat.Type)) {
			errs = append(errs, field.Invalid(ip.Child("type"), string(pat.Type), msg))
		}
		if pat.Status == "" {
			errs = append(errs, field.Required(ip.Child("status"), fmt.Sprintf("valid values: %q", conditionStatuses)))
		} else if !contains(conditionStatuses, pat.Status) {
			errs = append(errs, field.NotSupported(ip.Child("status"), pat.Status, conditionStatuses))
		}
	}
	return errs
}

func validateSuccessPolicy(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	rules := spec.SuccessPolicy.Rules
	rp := p.Child("rules")
	if len(rules) == 0 {
		errs = append(errs, field.Required(rp, "at least one rules must be specified when the successPolicy is specified"))
	}
	if len(rules) > maxSuccessPolicyRules {
		errs = append(errs, field.TooMany(rp, len(rules), maxSuccessPolicyRules))
	}
	if spec.Completions == nil {
		return errs // reported as required by the completion mode check
	}
	for i := range rules {
		errs = append(errs, validateSuccessRule(&rules[i], *spec.Completions, rp.Index(i))...)
	}
	return errs
}

func validateSuccessRule(r *batchv1.SuccessPolicyRule, completions int32, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if r.SucceededCount == nil && r.SucceededIndexes == nil {
		errs = append(errs, field.Required(p, "at least one of succeededCount or succeededIndexes must be specified"))
	}
	var total int32
	if r.SucceededIndexes != nil {
		ip := p.Child("succeededIndexes")
		if len(*r.SucceededIndexes) > maxSucceededIndexesLength {
			errs = append(errs, field.TooLong(ip, maxSucceededIndexesLength))
		}
		var err error
		if total, err = CountIndexes(*r.SucceededIndexes, completions); err != nil {
			errs = append(errs, field.Invalid(ip, *r.SucceededIndexes, "error parsing succeededIndexes: "+err.Error()))
		}
	}
	if r.SucceededCount != nil {
		cp := p.Child("succeededCount")
		n := *r.SucceededCount
		errs = append(errs, NonNegative(int64(n), cp)...)
		if n > completions {
			errs = append(errs, field.Invalid(cp, n, fmt.Sprintf("must be less than or equal to %d (the number of specified completions)", completions)))
		}
		if r.SucceededIndexes != nil && n > total {
			errs = append(errs, field.Invalid(cp, n, fmt.Sprintf("must be less than or equal to %d (the number of indexes in the specified succeededIndexes field)", total)))
		}
	}
	return errs
}

// CountIndexes parses an index list such as "0,3-5,7" whose intervals are
// strictly increasing and below completions, and returns how many indexes it names.
func CountIndexes(list string, completions int32) (int32, error) {
	if list == "" {
		return 0, nil
	}
	var total int32
	last := int64(-1)
	for _, interval := range strings.Split(list, ",") {
		bounds := strings.Split(interval, "-")
		if len(bounds) > 2 {
			return 0, fmt.Errorf("the fragment %q has more than two parts separated by '-'", interval)
		}
		first := int64(-1)
		for _, b := range bounds {
			x, err := strconv.ParseInt(b, 10, 32)
			if err != nil || x < 0 {
				return 0, fmt.Errorf("cannot convert string to integer for index: %q", b)
			}
			if x >= int64(completions) {
				return 0, fmt.Errorf("too large index: %q", b)
			}
			if x <= last {
				return 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", last, x)
			}
			if first < 0 {
				first = x
			}
			last = x
		}
		total += int32(last - first + 1)
	}
	return total, nil
}
