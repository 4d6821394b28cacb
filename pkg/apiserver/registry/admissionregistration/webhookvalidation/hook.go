package webhookvalidation

import (
	arv1 "platform.io/client/api/admissionregistration/v1"
	"platform.io/client/api/meta"
)

// hook points at the fields a mutating and a validating webhook share, so
// one set of defaults and rules serves both. Reinvocation is nil for a
// validating webhook.
type hook struct {
	Name                    *string
	ClientConfig            *arv1.WebhookClientConfig
	Rules                   []arv1.RuleWithOperations
	FailurePolicy           **arv1.FailurePolicyType
	MatchPolicy             **arv1.MatchPolicyType
	NamespaceSelector       **meta.LabelSelector
	ObjectSelector          **meta.LabelSelector
	SideEffects             **arv1.SideEffectClass
	TimeoutSeconds          **int32
	AdmissionReviewVersions *[]string
	Reinvocation            **arv1.ReinvocationPolicyType
}

func mutatingHook(w *arv1.MutatingWebhook) hook {
	return hook{&w.Name, &w.ClientConfig, w.Rules, &w.FailurePolicy, &w.MatchPolicy, &w.NamespaceSelector,
		&w.ObjectSelector, &w.SideEffects, &w.TimeoutSeconds, &w.AdmissionReviewVersions, &w.ReinvocationPolicy}
}

func validatingHook(w *arv1.ValidatingWebhook) hook {
	return hook{&w.Name, &w.ClientConfig, w.Rules, &w.FailurePolicy, &w.MatchPolicy, &w.NamespaceSelector,
		&w.ObjectSelector, &w.SideEffects, &w.TimeoutSeconds, &w.AdmissionReviewVersions, nil}
}

func mutatingHooks(ws []arv1.MutatingWebhook) []hook {
	out := make([]hook, len(ws))
	for i := range ws {
		out[i] = mutatingHook(&ws[i])
	}
	return out
}

func validatingHooks(ws []arv1.ValidatingWebhook) []hook {
	out := make([]hook, len(ws))
	for i := range ws {
		out[i] = validatingHook(&ws[i])
	}
	return out
}
