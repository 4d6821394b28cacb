package resourcequota

import (
	"slices"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the resourcequotas row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "resourcequotas", Singular: "resourcequota", Kind: "ResourceQuota",
		ShortNames: []string{"quota"},
		Namespaced: true,
		HasStatus:  true,
		New:        func() meta.Object { return &corev1.ResourceQuota{} },
		Strategy: registry.Typed[corev1.ResourceQuota]{
			ValidateFunc:       Validate,
			ValidateUpdateFunc: func(q, _ *corev1.ResourceQuota) field.ErrorList { return Validate(q) },
		},
		Table: tableColumns,
	}
}

// Validate checks a quota's spec and status as upstream does.
func Validate(q *corev1.ResourceQuota) field.ErrorList {
	sp := field.NewPath("spec")
	errs := validateList(sp.Child("hard"), q.Spec.Hard)
	errs = append(errs, validateScopes(&q.Spec, sp)...)
	if q.Spec.ScopeSelector != nil {
		errs = append(errs, validateSelector(&q.Spec, sp.Child("scopeSelector"))...)
	}
	st := field.NewPath("status")
	errs = append(errs, validateList(st.Child("hard"), q.Status.Hard)...)
	return append(errs, validateList(st.Child("used"), q.Status.Used)...)
}

func validateList(p *field.Path, l corev1.ResourceList) field.ErrorList {
	var errs field.ErrorList
	for _, k := range sortedNames(l) {
		kp := p.Key(string(k))
		errs = append(errs, corevalidation.QuotaResourceName(kp, k)...)
		errs = append(errs, corevalidation.ResourceQuantity(kp, k, l[k])...)
	}
	return errs
}

// podComputeResources are what a pod-scoped quota other than BestEffort may track besides pods.
var podComputeResources = []corev1.ResourceName{
	corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory,
	corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory,
}

// standardScopes are the scopes upstream knows.
var standardScopes = []corev1.ResourceQuotaScope{
	corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating,
	corev1.ResourceQuotaScopeBestEffort, corev1.ResourceQuotaScopeNotBestEffort,
	corev1.ResourceQuotaScopePriorityClass, corev1.ResourceQuotaScopeCrossNamespacePodAffinity,
}

// scopeValidFor reports whether a quota of scope may track resource r.
func scopeValidFor(scope corev1.ResourceQuotaScope, r corev1.ResourceName) bool {
	switch scope {
	case corev1.ResourceQuotaScopeBestEffort:
		return r == corev1.ResourcePods
	case corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating, corev1.ResourceQuotaScopeNotBestEffort,
		corev1.ResourceQuotaScopePriorityClass, corev1.ResourceQuotaScopeCrossNamespacePodAffinity:
		return r == corev1.ResourcePods || slices.Contains(podComputeResources, r)
	}
	return true
}

// unsupportedFor reports whether some standard resource of hard cannot be
// tracked by a quota of scope.
func unsupportedFor(scope corev1.ResourceQuotaScope, hard corev1.ResourceList) bool {
	for k := range hard {
		if len(corevalidation.QuotaResourceName(nil, k)) == 0 && !isQualified(k) && !scopeValidFor(scope, k) {
			return true
		}
	}
	return false
}

func isQualified(k corev1.ResourceName) bool {
	for _, c := range k {
		if c == '/' {
			return true
		}
	}
	return false
}

// conflicting reports whether scopes holds both of a pair that no object
// can match together.
func conflicting(has func(corev1.ResourceQuotaScope) bool) bool {
	return has(corev1.ResourceQuotaScopeBestEffort) && has(corev1.ResourceQuotaScopeNotBestEffort) ||
		has(corev1.ResourceQuotaScopeTerminating) && has(corev1.ResourceQuotaScopeNotTerminating)
}

func validateScopes(spec *corev1.ResourceQuotaSpec, sp *field.Path) field.ErrorList {
	if len(spec.Scopes) == 0 {
		return nil
	}
	p := sp.Child("scopes")
	var errs field.ErrorList
	for _, s := range spec.Scopes {
		if !slices.Contains(standardScopes, s) {
			errs = append(errs, field.Invalid(p, spec.Scopes, "unsupported scope"))
		}
		if unsupportedFor(s, spec.Hard) {
			errs = append(errs, field.Invalid(p, spec.Scopes, "unsupported scope applied to resource"))
		}
	}
	if conflicting(func(s corev1.ResourceQuotaScope) bool { return slices.Contains(spec.Scopes, s) }) {
		errs = append(errs, field.Invalid(p, spec.Scopes, "conflicting scopes"))
	}
	return errs
}

func validateSelector(spec *corev1.ResourceQuotaSpec, sp *field.Path) field.ErrorList {
	p := sp.Child("matchExpressions")
	var errs field.ErrorList
	seen := map[corev1.ResourceQuotaScope]bool{}
	for _, req := range spec.ScopeSelector.MatchExpressions {
		if !slices.Contains(standardScopes, req.ScopeName) {
			errs = append(errs, field.Invalid(p.Child("scopeName"), string(req.ScopeName), "unsupported scope"))
		}
		if unsupportedFor(req.ScopeName, spec.Hard) {
			errs = append(errs, field.Invalid(p, spec.ScopeSelector, "unsupported scope applied to resource"))
		}
		if req.ScopeName != corev1.ResourceQuotaScopePriorityClass && slices.Contains(standardScopes, req.ScopeName) &&
			req.Operator != corev1.ScopeSelectorOpExists {
			errs = append(errs, field.Invalid(p.Child("operator"), string(req.Operator),
				"must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"))
		}
		switch req.Operator {
		case corev1.ScopeSelectorOpIn, corev1.ScopeSelectorOpNotIn:
			if len(req.Values) == 0 {
				errs = append(errs, field.Required(p.Child("values"), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"))
			}
		case corev1.ScopeSelectorOpExists, corev1.ScopeSelectorOpDoesNotExist:
			if len(req.Values) != 0 {
				errs = append(errs, field.Invalid(p.Child("values"), req.Values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"))
			}
		default:
			errs = append(errs, field.Invalid(p.Child("operator"), string(req.Operator), "not a valid selector operator"))
		}
		seen[req.ScopeName] = true
	}
	if conflicting(func(s corev1.ResourceQuotaScope) bool { return seen[s] }) {
		errs = append(errs, field.Invalid(p, spec.ScopeSelector, "conflicting scopes"))
	}
	return errs
}

func sortedNames(l corev1.ResourceList) []corev1.ResourceName {
	out := make([]corev1.ResourceName, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
