package webhookvalidation

import (
	arv1 "platform.io/client/api/admissionregistration/v1"
	"platform.io/client/api/meta"
)

// Version is the API version whose defaults apply.
type Version int

// The served versions.
const (
	V1 Version = iota
	V1beta1
)

// Default timeouts: v1beta1 waited up to 30 seconds, v1 waits 10.
const (
	DefaultTimeoutSeconds        = 10
	DefaultTimeoutSecondsV1beta1 = 30
	// DefaultServicePort is the Service port called when none is given.
	DefaultServicePort = 443
)

// DefaultMutating fills the unset fields of mutating webhooks.
func DefaultMutating(ws []arv1.MutatingWebhook, v Version) {
	for _, h := range mutatingHooks(ws) {
		defaultHook(h, v)
	}
}

// DefaultValidating fills the unset fields of validating webhooks.
func DefaultValidating(ws []arv1.ValidatingWebhook, v Version) {
	for _, h := range validatingHooks(ws) {
		defaultHook(h, v)
	}
}

func defaultHook(h hook, v Version) {
	failure, match, timeout := arv1.Fail, arv1.Equivalent, int32(DefaultTimeoutSeconds)
	if v == V1beta1 {
		failure, match, timeout = arv1.Ignore, arv1.Exact, DefaultTimeoutSecondsV1beta1
		setDefault(h.SideEffects, arv1.SideEffectClassUnknown)
		if len(*h.AdmissionReviewVersions) == 0 {
			*h.AdmissionReviewVersions = []string{"v1beta1"}
		}
	}
	setDefault(h.FailurePolicy, failure)
	setDefault(h.MatchPolicy, match)
	setDefault(h.TimeoutSeconds, timeout)
	if h.Reinvocation != nil {
		setDefault(h.Reinvocation, arv1.NeverReinvocationPolicy)
	}
	if *h.NamespaceSelector == nil {
		*h.NamespaceSelector = &meta.LabelSelector{}
	}
	if *h.ObjectSelector == nil {
		*h.ObjectSelector = &meta.LabelSelector{}
	}
	for i := range h.Rules {
		setDefault(&h.Rules[i].Scope, arv1.AllScopes)
	}
	if s := h.ClientConfig.Service; s != nil {
		setDefault(&s.Port, DefaultServicePort)
	}
}

func setDefault[T any](p **T, v T) {
	if *p == nil {
		*p = &v
	}
}
