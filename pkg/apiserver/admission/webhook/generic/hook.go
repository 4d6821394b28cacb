package generic

import (
	"time"

	arv1 "platform.io/client/api/admissionregistration/v1"
	"platform.io/client/api/labels"
)

// Hook is one registered webhook, mutating or validating, with its
// defaults applied and its selectors parsed.
type Hook struct {
	// Config names the configuration the webhook belongs to.
	Config            string
	Name              string
	ClientConfig      arv1.WebhookClientConfig
	Rules             []arv1.RuleWithOperations
	FailurePolicy     arv1.FailurePolicyType
	MatchPolicy       arv1.MatchPolicyType
	NamespaceSelector labels.Selector
	ObjectSelector    labels.Selector
	// SelectorErr is set when a stored selector cannot be parsed; the
	// webhook then fails as a call would (its failurePolicy decides).
	SelectorErr    error
	SideEffects    arv1.SideEffectClass
	Timeout        time.Duration
	ReviewVersions []string
	// Reinvocation is Never for validating webhooks.
	Reinvocation arv1.ReinvocationPolicyType
}

// fields are the parts of either webhook kind a Hook is made from.
type fields struct {
	name                 string
	clientConfig         arv1.WebhookClientConfig
	rules                []arv1.RuleWithOperations
	failurePolicy        *arv1.FailurePolicyType
	matchPolicy          *arv1.MatchPolicyType
	namespaceSel, objSel *metaSelector
	sideEffects          *arv1.SideEffectClass
	timeoutSeconds       *int32
	reviewVersions       []string
	reinvocation         *arv1.ReinvocationPolicyType
}

// newHook applies v1's defaults to what is unset (objects written through
// either version are defaulted already; this guards older data).
func newHook(config string, f fields) Hook {
	h := Hook{
		Config: config, Name: f.name, ClientConfig: f.clientConfig, Rules: f.rules,
		FailurePolicy: deref(f.failurePolicy, arv1.Fail), MatchPolicy: deref(f.matchPolicy, arv1.Equivalent),
		SideEffects: deref(f.sideEffects, arv1.SideEffectClassUnknown),
		Timeout:     time.Duration(deref(f.timeoutSeconds, 10)) * time.Second, ReviewVersions: f.reviewVersions,
		Reinvocation: deref(f.reinvocation, arv1.NeverReinvocationPolicy),
	}
	var err1, err2 error
	h.NamespaceSelector, err1 = selector(f.namespaceSel)
	h.ObjectSelector, err2 = selector(f.objSel)
	if err1 != nil {
		h.SelectorErr = err1
	} else if err2 != nil {
		h.SelectorErr = err2
	}
	return h
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// MutatingHooks returns the hooks of a MutatingWebhookConfiguration, in order.
func MutatingHooks(c *arv1.MutatingWebhookConfiguration) []Hook {
	out := make([]Hook, len(c.Webhooks))
	for i, w := range c.Webhooks {
		out[i] = newHook(c.Name, fields{w.Name, w.ClientConfig, w.Rules, w.FailurePolicy, w.MatchPolicy,
			w.NamespaceSelector, w.ObjectSelector, w.SideEffects, w.TimeoutSeconds, w.AdmissionReviewVersions, w.ReinvocationPolicy})
	}
	return out
}

// ValidatingHooks returns the hooks of a ValidatingWebhookConfiguration, in order.
func ValidatingHooks(c *arv1.ValidatingWebhookConfiguration) []Hook {
	out := make([]Hook, len(c.Webhooks))
	for i, w := range c.Webhooks {
		out[i] = newHook(c.Name, fields{w.Name, w.ClientConfig, w.Rules, w.FailurePolicy, w.MatchPolicy,
			w.NamespaceSelector, w.ObjectSelector, w.SideEffects, w.TimeoutSeconds, w.AdmissionReviewVersions, nil})
	}
	return out
}
