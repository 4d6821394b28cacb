package audit

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	admv1 "platform.io/client/api/admission/v1"

	"platform.io/platform/pkg/apiserver/admission/webhook/webhooktest"
	"platform.io/platform/test/integration/framework"
)

// TestWebhookAuditAnnotations checks that an admission webhook's
// auditAnnotations reach the request's audit event under
// "<webhook name>/<key>", and that a key invalid that way is left out.
func TestWebhookAuditAnnotations(t *testing.T) {
	t.Parallel()
	var path string
	s := framework.Start(t, withLog(t, &path))
	hook := webhooktest.Start(t, func(_ context.Context, _ *admv1.AdmissionRequest, resp *admv1.AdmissionResponse) []byte {
		resp.Allowed = true
		resp.AuditAnnotations = map[string]string{"decision": "looked-at", "not a key!": "dropped"}
		return nil
	})
	s.Do(t, "POST", "/apis/admissionregistration.platform.io/v1/validatingwebhookconfigurations", map[string]any{
		"apiVersion": "admissionregistration.platform.io/v1", "kind": "ValidatingWebhookConfiguration",
		"metadata": map[string]any{"name": "annotator"},
		"webhooks": []any{map[string]any{
			"name": "annotator.example.com", "sideEffects": "None", "admissionReviewVersions": []string{"v1"},
			"clientConfig": map[string]any{"url": hook.URL, "caBundle": hook.CABundle},
			"rules": []any{map[string]any{"operations": []string{"CREATE"}, "apiGroups": []string{""},
				"apiVersions": []string{"v1"}, "resources": []string{"configmaps"}}},
		}},
	}).Expect(t, http.StatusCreated)
	framework.Eventually(t, 5*time.Second, "the server calls the webhook", func() bool {
		s.Do(t, "POST", "/api/v1/namespaces/default/configmaps?dryRun=All", configMap("probe", 1)).Expect(t, http.StatusCreated)
		return len(hook.Requests()) > 0
	})

	id := auditID("annotated")
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", configMap("annotated", 1), id).Expect(t, http.StatusCreated)
	evs := waitEvents(t, path, idOf(id), complete)
	got := map[string]string{}
	for k, v := range evs[len(evs)-1].Annotations {
		if k == "annotator.example.com/decision" || k == "annotator.example.com/not a key!" {
			got[k] = v
		}
	}
	if diff := cmp.Diff(map[string]string{"annotator.example.com/decision": "looked-at"}, got); diff != "" {
		t.Errorf("webhook annotations on the audit event (-want +got):\n%s", diff)
	}
}
