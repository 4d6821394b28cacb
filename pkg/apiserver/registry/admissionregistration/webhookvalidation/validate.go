package webhookvalidation

import (
	"fmt"
	"net/url"
	"strings"

	arv1 "platform.io/client/api/admissionregistration/v1"

	"platform.io/platform/pkg/apiserver/registry/apps/appsvalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// SupportedReviewVersions are the AdmissionReview versions this server sends.
var SupportedReviewVersions = []string{"v1", "v1beta1"}

// options are the rules that depend on the version and, on update, on the
// stored object (upstream keeps stored objects updatable under the rules
// they were created with).
type options struct {
	// allowSideEffects accepts Some and Unknown (v1beta1, or a stored object that has them).
	allowSideEffects bool
	// requireReviewVersions requires admissionReviewVersions with a known version.
	requireReviewVersions bool
	// uniqueNames requires distinct webhook names.
	uniqueNames bool
}

func optionsFor(v Version, old []hook) options {
	o := options{allowSideEffects: v == V1beta1, requireReviewVersions: v == V1, uniqueNames: v == V1}
	if old == nil {
		return o
	}
	seen := map[string]bool{}
	for _, h := range old {
		if se := *h.SideEffects; se != nil && (*se == arv1.SideEffectClassSome || *se == arv1.SideEffectClassUnknown) {
			o.allowSideEffects = true
		}
		if !hasSupportedVersion(*h.AdmissionReviewVersions) {
			o.requireReviewVersions = false
		}
		if seen[*h.Name] {
			o.uniqueNames = false
		}
		seen[*h.Name] = true
	}
	return o
}

// Mutating validates the webhooks of a MutatingWebhookConfiguration; old
// is nil on create.
func Mutating(ws, old []arv1.MutatingWebhook, v Version) field.ErrorList {
	var oldHooks []hook
	if old != nil {
		oldHooks = mutatingHooks(old)
	}
	return validateHooks(mutatingHooks(ws), optionsFor(v, oldHooks))
}

// Validating validates the webhooks of a ValidatingWebhookConfiguration;
// old is nil on create.
func Validating(ws, old []arv1.ValidatingWebhook, v Version) field.ErrorList {
	var oldHooks []hook
	if old != nil {
		oldHooks = validatingHooks(old)
	}
	return validateHooks(validatingHooks(ws), optionsFor(v, oldHooks))
}

func validateHooks(hs []hook, o options) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, h := range hs {
		p := field.NewPath("webhooks").Index(i)
		errs = append(errs, validateHook(h, o, p)...)
		if o.uniqueNames && *h.Name != "" {
			if names[*h.Name] {
				errs = append(errs, field.Duplicate(p.Child("name"), *h.Name))
			}
			names[*h.Name] = true
		}
	}
	return errs
}

func validateHook(h hook, o options, p *field.Path) field.ErrorList {
	errs := webhookName(*h.Name, p.Child("name"))
	errs = append(errs, clientConfig(h.ClientConfig, p.Child("clientConfig"))...)
	for i, r := range h.Rules {
		errs = append(errs, rule(r, p.Child("rules").Index(i))...)
	}
	if fp := *h.FailurePolicy; fp != nil {
		errs = append(errs, oneOf(p.Child("failurePolicy"), *fp, []arv1.FailurePolicyType{arv1.Ignore, arv1.Fail})...)
	}
	if mp := *h.MatchPolicy; mp != nil {
		errs = append(errs, oneOf(p.Child("matchPolicy"), *mp, []arv1.MatchPolicyType{arv1.Exact, arv1.Equivalent})...)
	}
	allowedEffects := []arv1.SideEffectClass{arv1.SideEffectClassNone, arv1.SideEffectClassNoneOnDryRun}
	if o.allowSideEffects {
		allowedEffects = append(allowedEffects, arv1.SideEffectClassSome, arv1.SideEffectClassUnknown)
	}
	if se := *h.SideEffects; se == nil {
		errs = append(errs, field.Required(p.Child("sideEffects"), fmt.Sprintf("must specify one of %v", quoted(allowedEffects))))
	} else {
		errs = append(errs, oneOf(p.Child("sideEffects"), *se, allowedEffects)...)
	}
	if t := *h.TimeoutSeconds; t != nil && (*t < 1 || *t > 30) {
		errs = append(errs, field.Invalid(p.Child("timeoutSeconds"), *t, "the timeout value must be between 1 and 30 seconds"))
	}
	errs = append(errs, reviewVersions(*h.AdmissionReviewVersions, o.requireReviewVersions, p.Child("admissionReviewVersions"))...)
	if h.Reinvocation != nil && *h.Reinvocation != nil {
		errs = append(errs, oneOf(p.Child("reinvocationPolicy"), **h.Reinvocation,
			[]arv1.ReinvocationPolicyType{arv1.NeverReinvocationPolicy, arv1.IfNeededReinvocationPolicy})...)
	}
	errs = append(errs, appsvalidation.LabelSelector(*h.NamespaceSelector, p.Child("namespaceSelector"))...)
	errs = append(errs, appsvalidation.LabelSelector(*h.ObjectSelector, p.Child("objectSelector"))...)
	return errs
}

func oneOf[T ~string](p *field.Path, v T, allowed []T) field.ErrorList {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(p, v, allowed)}
}

func quoted[T ~string](vs []T) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", string(v))
	}
	return strings.Join(q, ", ")
}

// webhookName requires a fully qualified name: a DNS subdomain of at least
// three segments.
func webhookName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Subdomain(name) {
		errs = append(errs, field.Invalid(p, name, msg))
	}
	if len(strings.Split(name, ".")) < 3 {
		errs = append(errs, field.Invalid(p, name, "should be a domain with at least three segments separated by dots"))
	}
	return errs
}

func clientConfig(cc *arv1.WebhookClientConfig, p *field.Path) field.ErrorList {
	switch {
	case cc.URL == nil && cc.Service == nil, cc.URL != nil && cc.Service != nil:
		return field.ErrorList{field.Required(p, "exactly one of url or service is required")}
	case cc.URL != nil:
		return webhookURL(*cc.URL, p.Child("url"))
	}
	s, sp := cc.Service, p.Child("service")
	var errs field.ErrorList
	if s.Namespace == "" {
		errs = append(errs, field.Required(sp.Child("namespace"), "service namespace is required"))
	}
	if s.Name == "" {
		errs = append(errs, field.Required(sp.Child("name"), "service name is required"))
	}
	if s.Path != nil {
		errs = append(errs, servicePath(*s.Path, sp.Child("path"))...)
	}
	if s.Port != nil && (*s.Port < 1 || *s.Port > 65535) {
		errs = append(errs, field.Invalid(sp.Child("port"), *s.Port, "port is not valid: must be between 1 and 65535, inclusive"))
	}
	return errs
}

func webhookURL(raw string, p *field.Path) field.ErrorList {
	u, err := url.Parse(raw)
	if err != nil {
		return field.ErrorList{field.Invalid(p, raw, "url must be a valid URL: "+err.Error())}
	}
	var errs field.ErrorList
	if u.Scheme != "https" {
		errs = append(errs, field.Invalid(p, raw, "'https' is the only allowed URL scheme"))
	}
	if u.Host == "" {
		errs = append(errs, field.Invalid(p, raw, "host must be specified"))
	}
	if u.User != nil {
		errs = append(errs, field.Invalid(p, raw, "user information is not permitted in the URL"))
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		errs = append(errs, field.Invalid(p, raw, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" || strings.Contains(raw, "?") {
		errs = append(errs, field.Invalid(p, raw, "query parameters are not permitted in the URL"))
	}
	return errs
}

func servicePath(path string, p *field.Path) field.ErrorList {
	if path == "/" {
		return nil
	}
	if !strings.HasPrefix(path, "/") {
		return field.ErrorList{field.Invalid(p, path, "must start with a '/'")}
	}
	for i, seg := range strings.Split(path[1:], "/") {
		if seg == "" {
			return field.ErrorList{field.Invalid(p, path, fmt.Sprintf("segment[%d] may not be empty", i))}
		}
		if msgs := validation.IsDNS1123Subdomain(strings.ToLower(seg)); len(msgs) > 0 {
			return field.ErrorList{field.Invalid(p, path, fmt.Sprintf("segment[%d]: %s", i, strings.Join(msgs, ", ")))}
		}
	}
	return nil
}

func hasSupportedVersion(vs []string) bool {
	for _, v := range vs {
		for _, s := range SupportedReviewVersions {
			if v == s {
				return true
			}
		}
	}
	return false
}

func reviewVersions(vs []string, require bool, p *field.Path) field.ErrorList {
	if len(vs) == 0 {
		if require {
			return field.ErrorList{field.Required(p, fmt.Sprintf("must specify one of %s", strings.Join(SupportedReviewVersions, ", ")))}
		}
		return nil
	}
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, v := range vs {
		for _, msg := range validation.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(p.Index(i), v, msg))
		}
		if seen[v] {
			errs = append(errs, field.Invalid(p.Index(i), v, "duplicate version"))
		}
		seen[v] = true
	}
	if require && !hasSupportedVersion(vs) {
		errs = append(errs, field.Invalid(p, vs, fmt.Sprintf("must include at least one of %s", strings.Join(SupportedReviewVersions, ", "))))
	}
	return errs
}
