package webhookvalidation

import (
	"strings"
	"testing"

	arv1 "platform.io/client/api/admissionregistration/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func ptr[T any](v T) *T { return &v }

func validHook() arv1.ValidatingWebhook {
	return arv1.ValidatingWebhook{
		Name:         "check.example.com",
		ClientConfig: arv1.WebhookClientConfig{URL: ptr("https://127.0.0.1:8443/validate")},
		Rules: []arv1.RuleWithOperations{{Operations: []arv1.OperationType{arv1.Create},
			Rule: arv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods", "pods/status"}}}},
		SideEffects:             ptr(arv1.SideEffectClassNone),
		AdmissionReviewVersions: []string{"v1"},
	}
}

func has(errs field.ErrorList, path string, typ field.Type) bool {
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return true
		}
	}
	return false
}

func TestValidating(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    Version
		mut  func(w *arv1.ValidatingWebhook)
		path string // "" means valid
		typ  field.Type
	}{
		{"valid", V1, func(*arv1.ValidatingWebhook) {}, "", ""},
		{"name two segments", V1, func(w *arv1.ValidatingWebhook) { w.Name = "example.com" }, "webhooks[0].name", field.TypeInvalid},
		{"name missing", V1, func(w *arv1.ValidatingWebhook) { w.Name = "" }, "webhooks[0].name", field.TypeRequired},
		{"no url nor service", V1, func(w *arv1.ValidatingWebhook) { w.ClientConfig.URL = nil }, "webhooks[0].clientConfig", field.TypeRequired},
		{"http url", V1, func(w *arv1.ValidatingWebhook) { w.ClientConfig.URL = ptr("http://h/x") }, "webhooks[0].clientConfig.url", field.TypeInvalid},
		{"url with query", V1, func(w *arv1.ValidatingWebhook) { w.ClientConfig.URL = ptr("https://h/x?a=b") }, "webhooks[0].clientConfig.url", field.TypeInvalid},
		{"service port", V1, func(w *arv1.ValidatingWebhook) {
			w.ClientConfig = arv1.WebhookClientConfig{Service: &arv1.ServiceReference{Namespace: "n", Name: "s", Port: ptr[int32](0)}}
		}, "webhooks[0].clientConfig.service.port", field.TypeInvalid},
		{"service path", V1, func(w *arv1.ValidatingWebhook) {
			w.ClientConfig = arv1.WebhookClientConfig{Service: &arv1.ServiceReference{Namespace: "n", Name: "s", Path: ptr("x//")}}
		}, "webhooks[0].clientConfig.service.path", field.TypeInvalid},
		{"sideEffects required in v1", V1, func(w *arv1.ValidatingWebhook) { w.SideEffects = nil }, "webhooks[0].sideEffects", field.TypeRequired},
		{"sideEffects Some refused in v1", V1, func(w *arv1.ValidatingWebhook) { w.SideEffects = ptr(arv1.SideEffectClassSome) }, "webhooks[0].sideEffects", field.TypeNotSupported},
		{"sideEffects Some in v1beta1", V1beta1, func(w *arv1.ValidatingWebhook) { w.SideEffects = ptr(arv1.SideEffectClassSome) }, "", ""},
		{"review versions required in v1", V1, func(w *arv1.ValidatingWebhook) { w.AdmissionReviewVersions = nil }, "webhooks[0].admissionReviewVersions", field.TypeRequired},
		{"review versions optional in v1beta1", V1beta1, func(w *arv1.ValidatingWebhook) { w.AdmissionReviewVersions = nil }, "", ""},
		{"unknown review version only", V1, func(w *arv1.ValidatingWebhook) { w.AdmissionReviewVersions = []string{"v2"} }, "webhooks[0].admissionReviewVersions", field.TypeInvalid},
		{"timeout 31", V1, func(w *arv1.ValidatingWebhook) { w.TimeoutSeconds = ptr[int32](31) }, "webhooks[0].timeoutSeconds", field.TypeInvalid},
		{"timeout 0", V1, func(w *arv1.ValidatingWebhook) { w.TimeoutSeconds = ptr[int32](0) }, "webhooks[0].timeoutSeconds", field.TypeInvalid},
		{"failure policy", V1, func(w *arv1.ValidatingWebhook) { w.FailurePolicy = ptr(arv1.FailurePolicyType("Maybe")) }, "webhooks[0].failurePolicy", field.TypeNotSupported},
		{"match policy", V1, func(w *arv1.ValidatingWebhook) { w.MatchPolicy = ptr(arv1.MatchPolicyType("Loose")) }, "webhooks[0].matchPolicy", field.TypeNotSupported},
		{"operations required", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].Operations = nil }, "webhooks[0].rules[0].operations", field.TypeRequired},
		{"star with others", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].Operations = []arv1.OperationType{"*", "CREATE"} }, "webhooks[0].rules[0].operations", field.TypeInvalid},
		{"unknown operation", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].Operations = []arv1.OperationType{"PATCH"} }, "webhooks[0].rules[0].operations[0]", field.TypeNotSupported},
		{"groups required", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].APIGroups = nil }, "webhooks[0].rules[0].apiGroups", field.TypeRequired},
		{"empty version", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].APIVersions = []string{""} }, "webhooks[0].rules[0].apiVersions[0]", field.TypeRequired},
		{"all resources with others", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].Resources = []string{"*/*", "pods"} }, "webhooks[0].rules[0].resources", field.TypeInvalid},
		{"star with a resource", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].Resources = []string{"*", "pods"} }, "webhooks[0].rules[0].resources[1]", field.TypeInvalid},
		{"star scale with deployments/scale", V1, func(w *arv1.ValidatingWebhook) {
			w.Rules[0].Resources = []string{"*/scale", "deployments/scale"}
		}, "webhooks[0].rules[0].resources[1]", field.TypeInvalid},
		{"pods/* with pods/status", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].Resources = []string{"pods/*", "pods/status"} }, "webhooks[0].rules[0].resources[1]", field.TypeInvalid},
		{"scope", V1, func(w *arv1.ValidatingWebhook) { w.Rules[0].Scope = ptr(arv1.ScopeType("Node")) }, "webhooks[0].rules[0].scope", field.TypeNotSupported},
		{"selector", V1, func(w *arv1.ValidatingWebhook) {
			w.NamespaceSelector = &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "a", Operator: "In"}}}
		}, "webhooks[0].namespaceSelector.matchExpressions[0].values", field.TypeRequired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := validHook()
			tc.mut(&w)
			errs := Validating([]arv1.ValidatingWebhook{w}, nil, tc.v)
			if tc.path == "" {
				if len(errs) != 0 {
					t.Errorf("valid webhook refused: %v", errs)
				}
				return
			}
			if !has(errs, tc.path, tc.typ) {
				t.Errorf("errors %v, want %s at %s", errs, tc.typ, tc.path)
			}
		})
	}
}

func TestDuplicateNames(t *testing.T) {
	ws := []arv1.ValidatingWebhook{validHook(), validHook()}
	if errs := Validating(ws, nil, V1); !has(errs, "webhooks[1].name", field.TypeDuplicate) {
		t.Errorf("duplicate names accepted in v1: %v", errs)
	}
	if errs := Validating(ws, nil, V1beta1); len(errs) != 0 {
		t.Errorf("v1beta1 refused duplicate names: %v", errs)
	}
	// An object stored with duplicates stays updatable through v1.
	if errs := Validating(ws, ws, V1); len(errs) != 0 {
		t.Errorf("update of a stored object with duplicates refused: %v", errs)
	}
}

func TestUpdateKeepsV1beta1SideEffects(t *testing.T) {
	old := validHook()
	old.SideEffects = ptr(arv1.SideEffectClassUnknown)
	w := old
	if errs := Validating([]arv1.ValidatingWebhook{w}, []arv1.ValidatingWebhook{old}, V1); len(errs) != 0 {
		t.Errorf("v1 update of a stored Unknown refused: %v", errs)
	}
}

func TestDefaults(t *testing.T) {
	ws := []arv1.MutatingWebhook{{Name: "a.b.c", Rules: []arv1.RuleWithOperations{{}},
		ClientConfig: arv1.WebhookClientConfig{Service: &arv1.ServiceReference{Namespace: "n", Name: "s"}}}}
	DefaultMutating(ws, V1)
	w := ws[0]
	got := []string{string(*w.FailurePolicy), string(*w.MatchPolicy), string(*w.ReinvocationPolicy), string(*w.Rules[0].Scope)}
	if strings.Join(got, ",") != "Fail,Equivalent,Never,*" || *w.TimeoutSeconds != 10 || *w.ClientConfig.Service.Port != 443 ||
		w.NamespaceSelector == nil || w.ObjectSelector == nil || w.SideEffects != nil || w.AdmissionReviewVersions != nil {
		t.Errorf("v1 defaults: %v %+v", got, w)
	}
	beta := []arv1.MutatingWebhook{{Name: "a.b.c", ClientConfig: arv1.WebhookClientConfig{URL: ptr("https://h")}}}
	DefaultMutating(beta, V1beta1)
	b := beta[0]
	if *b.FailurePolicy != arv1.Ignore || *b.MatchPolicy != arv1.Exact || *b.SideEffects != arv1.SideEffectClassUnknown ||
		*b.TimeoutSeconds != 30 || strings.Join(b.AdmissionReviewVersions, ",") != "v1beta1" {
		t.Errorf("v1beta1 defaults: %+v", b)
	}
}
