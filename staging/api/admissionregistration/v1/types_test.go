package v1

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/apitest"
	"platform.io/client/codec/protobuf"
)

func TestTags(t *testing.T) {
	apitest.CheckTags(t, ValidatingWebhookConfiguration{}, ValidatingWebhookConfigurationList{},
		MutatingWebhookConfiguration{}, MutatingWebhookConfigurationList{})
}

const mutating = `{
  "apiVersion": "admissionregistration.platform.io/v1",
  "kind": "MutatingWebhookConfiguration",
  "metadata": {"name": "inject"},
  "webhooks": [{
    "name": "inject.example.com",
    "clientConfig": {"service": {"namespace": "hooks", "name": "injector", "path": "/mutate", "port": 8443}, "caBundle": "Y2E="},
    "rules": [{"operations": ["CREATE", "UPDATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods", "pods/status"], "scope": "Namespaced"}],
    "failurePolicy": "Ignore",
    "matchPolicy": "Exact",
    "namespaceSelector": {"matchLabels": {"inject": "yes"}},
    "objectSelector": {"matchExpressions": [{"key": "skip", "operator": "DoesNotExist"}]},
    "sideEffects": "NoneOnDryRun",
    "timeoutSeconds": 5,
    "admissionReviewVersions": ["v1", "v1beta1"],
    "reinvocationPolicy": "IfNeeded"
  }]
}`

func TestMutatingRoundTrip(t *testing.T) {
	c := apitest.RoundTripJSON[MutatingWebhookConfiguration](t, mutating)
	w := c.Webhooks[0]
	if w.ClientConfig.Service == nil || *w.ClientConfig.Service.Port != 8443 || string(w.ClientConfig.CABundle) != "ca" {
		t.Errorf("clientConfig = %+v", w.ClientConfig)
	}
	if r := w.Rules[0]; len(r.Operations) != 2 || r.Resources[1] != "pods/status" || *r.Scope != NamespacedScope {
		t.Errorf("rule = %+v", r)
	}
	if *w.SideEffects != SideEffectClassNoneOnDryRun || *w.ReinvocationPolicy != IfNeededReinvocationPolicy || *w.MatchPolicy != Exact {
		t.Errorf("webhook = %+v", w)
	}
	b := c.MarshalProto(nil)
	var back MutatingWebhookConfiguration
	if err := back.UnmarshalProto(b); err != nil {
		t.Fatal(err)
	}
	back.TypeMeta = c.TypeMeta
	if d := cmp.Diff(c, &back); d != "" {
		t.Errorf("protobuf round trip (-want +got):\n%s", d)
	}
	var _ protobuf.Message = c
}

func TestRuleProtobufNumbers(t *testing.T) {
	scope := ClusterScope
	r := RuleWithOperations{Operations: []OperationType{Create}, Rule: Rule{APIGroups: []string{"g"}, Scope: &scope}}
	// Upstream: operations 1; the rule is message 2 with apiGroups 1 and scope 4.
	want := []byte{0x0a, 6, 'C', 'R', 'E', 'A', 'T', 'E', 0x12, 12, 0x0a, 1, 'g', 0x22, 7, 'C', 'l', 'u', 's', 't', 'e', 'r'}
	if got := r.MarshalProto(nil); !cmp.Equal(got, want) {
		t.Errorf("encoding = % x, want % x", got, want)
	}
}
