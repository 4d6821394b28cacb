package e2e

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/admission/webhook/webhooktest"
)

// TestWebhookDenialWithKubectl: the stock kubectl registers a validating
// webhook through the upstream group name and prints a webhook's refusal
// as the webhook wrote it; nothing is stored.
func TestWebhookDenialWithKubectl(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	hook := webhooktest.Start(t, webhooktest.Deny("configmaps named secret-stash are not allowed", http.StatusForbidden))
	manifest := fmt.Sprintf(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: guard
webhooks:
- name: guard.example.com
  clientConfig:
    url: %s/validate
    caBundle: %s
  rules:
  - operations: ["CREATE"]
    apiGroups: [""]
    apiVersions: ["v1"]
    resources: ["configmaps"]
  objectSelector:
    matchLabels:
      guarded: "yes"
  sideEffects: None
  admissionReviewVersions: ["v1"]
  timeoutSeconds: 5
`, hook.URL, base64.StdEncoding.EncodeToString(hook.CABundle))
	s.Expect(t, "validatingwebhookconfiguration.admissionregistration.k8s.io/guard created", "apply", "-f", WriteManifest(t, manifest))
	out := s.MustKubectl(t, "get", "validatingwebhookconfigurations")
	WantHeader(t, out, "NAME", "WEBHOOKS", "AGE")
	if row := TableRow(t, out, "guard"); row[1] != "1" {
		t.Errorf("row %q, want 1 webhook", row)
	}

	cm := WriteManifest(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: secret-stash
  labels:
    guarded: "yes"
data:
  a: b
`)
	var r Result
	Eventually(t, 10*time.Second, "the webhook refuses the configmap", func() string {
		r = s.Kubectl(t, "create", "-f", cm)
		if r.Code == 0 {
			s.MustKubectl(t, "delete", "configmap", "secret-stash")
			return "created before the server saw the webhook"
		}
		return ""
	})
	// The webhook gave a code and no reason, so kubectl names no reason, as with upstream.
	want := `Error from server: error when creating "` + cm + `": admission webhook "guard.example.com" denied the request: configmaps named secret-stash are not allowed`
	if strings.TrimSpace(r.Stderr) != want {
		t.Errorf("kubectl stderr:\n%s\nwant:\n%s", r.Stderr, want)
	}
	WantContains(t, s.KubectlFails(t, "get", "configmap", "secret-stash").Stderr, `configmaps "secret-stash" not found`)
	if reqs := hook.Requests(); len(reqs) == 0 || reqs[len(reqs)-1].Name != "secret-stash" {
		t.Errorf("webhook requests %+v", reqs)
	}
}
