package webhook

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

const (
	v1API      = "/apis/admissionregistration.platform.io/v1"
	v1beta1API = "/apis/admissionregistration.platform.io/v1beta1"
	k8sAPI     = "/apis/admissionregistration.k8s.io/v1"
)

// validatingConfig is a configuration of one webhook on pod creates.
func validatingConfig(apiVersion, name string, hook map[string]any) map[string]any {
	return map[string]any{"apiVersion": apiVersion, "kind": "ValidatingWebhookConfiguration",
		"metadata": map[string]any{"name": name}, "webhooks": []any{hook}}
}

func podHook(name, url string, caBundle []byte, extra map[string]any) map[string]any {
	h := map[string]any{
		"name":         name,
		"clientConfig": map[string]any{"url": url, "caBundle": caBundle},
		"rules": []any{map[string]any{"operations": []string{"CREATE"}, "apiGroups": []string{""},
			"apiVersions": []string{"v1"}, "resources": []string{"pods"}}},
		"sideEffects": "None", "admissionReviewVersions": []string{"v1"}, "timeoutSeconds": 2,
	}
	for k, v := range extra {
		h[k] = v
	}
	return h
}

// TestConfigurationAPI: both versions serve the same stored objects with
// their own defaults, the upstream group name too, and v1 refuses what
// only v1beta1 allows.
func TestConfigurationAPI(t *testing.T) {
	s := framework.Start(t)
	beta := podHook("beta.example.com", "https://127.0.0.1:1/x", nil, map[string]any{"sideEffects": "Some"})
	delete(beta, "admissionReviewVersions")
	delete(beta, "timeoutSeconds")
	s.Do(t, "POST", v1beta1API+"/validatingwebhookconfigurations",
		validatingConfig("admissionregistration.platform.io/v1beta1", "beta", beta)).Expect(t, http.StatusCreated)

	got := s.Do(t, "GET", v1API+"/validatingwebhookconfigurations/beta", nil).Expect(t, http.StatusOK).Map(t)
	w := got["webhooks"].([]any)[0].(map[string]any)
	if w["failurePolicy"] != "Ignore" || w["matchPolicy"] != "Exact" || w["sideEffects"] != "Some" ||
		w["timeoutSeconds"] != float64(30) || fmt.Sprint(w["admissionReviewVersions"]) != "[v1beta1]" {
		t.Errorf("v1beta1 defaults as read through v1: %v", w)
	}
	if got["apiVersion"] != "admissionregistration.platform.io/v1" {
		t.Errorf("apiVersion %v", got["apiVersion"])
	}
	s.Do(t, "GET", k8sAPI+"/validatingwebhookconfigurations/beta", nil).Expect(t, http.StatusOK)

	v1 := podHook("v1.example.com", "https://127.0.0.1:1/x", nil, nil)
	delete(v1, "timeoutSeconds")
	s.Do(t, "POST", k8sAPI+"/validatingwebhookconfigurations",
		validatingConfig("admissionregistration.k8s.io/v1", "v1", v1)).Expect(t, http.StatusCreated)
	got = s.Do(t, "GET", v1beta1API+"/validatingwebhookconfigurations/v1", nil).Expect(t, http.StatusOK).Map(t)
	w = got["webhooks"].([]any)[0].(map[string]any)
	if w["failurePolicy"] != "Fail" || w["matchPolicy"] != "Equivalent" || w["timeoutSeconds"] != float64(10) {
		t.Errorf("v1 defaults as read through v1beta1: %v", w)
	}

	for _, tc := range []struct {
		name  string
		extra map[string]any
		field string
	}{
		{"side effects Some", map[string]any{"sideEffects": "Some"}, "webhooks[0].sideEffects"},
		{"no review versions", map[string]any{"admissionReviewVersions": []string{}}, "webhooks[0].admissionReviewVersions"},
		{"timeout", map[string]any{"timeoutSeconds": 31}, "webhooks[0].timeoutSeconds"},
		{"http url", map[string]any{"clientConfig": map[string]any{"url": "http://127.0.0.1/x"}}, "webhooks[0].clientConfig.url"},
	} {
		body := validatingConfig("admissionregistration.platform.io/v1", "bad", podHook("bad.example.com", "https://127.0.0.1:1/x", nil, tc.extra))
		st := s.Do(t, "POST", v1API+"/validatingwebhookconfigurations", body).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
		if !strings.Contains(fmt.Sprint(st["details"]), tc.field) {
			t.Errorf("%s: causes %v do not name %s", tc.name, st["details"], tc.field)
		}
	}

	mut := podHook("mut.example.com", "https://127.0.0.1:1/x", nil, nil)
	s.Do(t, "POST", v1API+"/mutatingwebhookconfigurations", map[string]any{"apiVersion": "admissionregistration.platform.io/v1",
		"kind": "MutatingWebhookConfiguration", "metadata": map[string]any{"name": "m"}, "webhooks": []any{mut}}).Expect(t, http.StatusCreated)
	got = s.Do(t, "GET", v1API+"/mutatingwebhookconfigurations/m", nil).Expect(t, http.StatusOK).Map(t)
	if w := got["webhooks"].([]any)[0].(map[string]any); w["reinvocationPolicy"] != "Never" {
		t.Errorf("mutating defaults: %v", w)
	}
}

// TestRBAC: like upstream, only cluster-admin (here system:masters) may
// write webhook configurations in the bootstrap policy; a user without a
// grant is refused.
func TestRBAC(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("admin,admin,uid-admin,\"system:masters\"\nalice,alice,uid-alice,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plain := framework.Start(t, func(o *options.Options) {
		o.Authz.Modes = []string{options.ModeRBAC}
		o.Authn.TokenAuthFile = tokens
	})
	s := plain.Secure(t)
	as := func(u string) framework.Header { return framework.Header{"Authorization": "Bearer " + u} }
	framework.Eventually(t, 20*time.Second, "readyz", func() bool { return s.Do(t, "GET", "/readyz", nil, as("admin")).Code == http.StatusOK })

	body := validatingConfig("admissionregistration.platform.io/v1", "c", podHook("c.example.com", "https://127.0.0.1:1/x", nil, nil))
	for _, path := range []string{v1API, v1beta1API, k8sAPI} {
		s.Do(t, "POST", path+"/validatingwebhookconfigurations", body, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
		s.Do(t, "GET", path+"/mutatingwebhookconfigurations", nil, as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	}
	s.Do(t, "POST", v1API+"/validatingwebhookconfigurations", body, as("admin")).Expect(t, http.StatusCreated)
	s.Do(t, "GET", k8sAPI+"/validatingwebhookconfigurations/c", nil, as("admin")).Expect(t, http.StatusOK)
}
