package crd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/admission/webhook/webhooktest"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// gadgetHook is a webhook on creates of the gadgets of gadgets.example.com,
// matched by group and plural as a built-in resource is.
func gadgetHook(name string, srv *webhooktest.Server) map[string]any {
	return map[string]any{
		"name":         name,
		"clientConfig": map[string]any{"url": srv.URL, "caBundle": srv.CABundle},
		"rules": []any{map[string]any{"operations": []string{"CREATE"}, "apiGroups": []string{"gadgets.example.com"},
			"apiVersions": []string{"*"}, "resources": []string{"gadgets"}}},
		"sideEffects": "None", "admissionReviewVersions": []string{"v1"}, "timeoutSeconds": 5, "failurePolicy": "Fail",
		"objectSelector": map[string]any{"matchLabels": map[string]string{"hook": name}},
	}
}

func gadget(name, hook string) map[string]any {
	return map[string]any{"apiVersion": "gadgets.example.com/v1", "kind": "Gadget",
		"metadata": map[string]any{"name": name, "labels": map[string]string{"hook": hook}},
		"spec":     map[string]any{"replicas": 2}}
}

// TestWebhooksOnCustomResources: a validating webhook that names a custom
// resource's group and plural refuses its creates, and nothing is stored;
// a mutating webhook's patch lands in the stored object, pruned and
// validated by the schema like the client's fields.
func TestWebhooksOnCustomResources(t *testing.T) {
	s := framework.Start(t)
	install(t, s, withSchema(definition("gadgets.example.com", "gadgets", "Gadget", "Namespaced"),
		widgetSchema(map[string]any{"owner": map[string]any{"type": "string"}})))
	base := "/apis/gadgets.example.com/v1/namespaces/default/gadgets"

	deny := webhooktest.Start(t, webhooktest.Deny("gadgets need an owner", http.StatusForbidden))
	s.Do(t, "POST", "/apis/admissionregistration.platform.io/v1/validatingwebhookconfigurations", map[string]any{
		"apiVersion": "admissionregistration.platform.io/v1", "kind": "ValidatingWebhookConfiguration",
		"metadata": map[string]any{"name": "gadgets"}, "webhooks": []any{gadgetHook("deny.example.com", deny)}}).Expect(t, http.StatusCreated)
	framework.Eventually(t, 10*time.Second, "the validating webhook in force", func() bool {
		return s.Do(t, "POST", base+"?dryRun=All", gadget("probe", "deny.example.com")).Code == http.StatusForbidden
	})
	st := s.Do(t, "POST", base, gadget("denied", "deny.example.com")).Expect(t, http.StatusForbidden).Map(t)
	if want := `admission webhook "deny.example.com" denied the request: gadgets need an owner`; st["message"] != want {
		t.Errorf("message %q, want %q", st["message"], want)
	}
	s.Do(t, "GET", base+"/denied", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
	reqs := deny.Requests()
	last := reqs[len(reqs)-1]
	if last.Resource.Group != "gadgets.example.com" || last.Resource.Resource != "gadgets" || last.Kind.Kind != "Gadget" || last.Name != "denied" {
		t.Errorf("the webhook was asked about %+v %+v %q", last.Resource, last.Kind, last.Name)
	}

	patch := webhooktest.Start(t, webhooktest.Patch(`[{"op":"add","path":"/spec/owner","value":"team-a"},`+
		`{"op":"add","path":"/spec/unknown","value":1}]`))
	s.Do(t, "POST", "/apis/admissionregistration.platform.io/v1/mutatingwebhookconfigurations", map[string]any{
		"apiVersion": "admissionregistration.platform.io/v1", "kind": "MutatingWebhookConfiguration",
		"metadata": map[string]any{"name": "gadgets"}, "webhooks": []any{gadgetHook("owner.example.com", patch)}}).Expect(t, http.StatusCreated)
	framework.Eventually(t, 10*time.Second, "the mutating webhook in force", func() bool {
		r := s.Do(t, "POST", base+"?dryRun=All", gadget("probe", "owner.example.com"))
		return r.Code == http.StatusCreated && r.Map(t)["spec"].(map[string]any)["owner"] == "team-a"
	})
	s.Do(t, "POST", base, gadget("mutated", "owner.example.com")).Expect(t, http.StatusCreated)
	spec := s.Do(t, "GET", base+"/mutated", nil).Expect(t, http.StatusOK).Map(t)["spec"].(map[string]any)
	want := map[string]any{"replicas": float64(2), "image": "busybox", "owner": "team-a"}
	if diff := cmp.Diff(want, spec); diff != "" {
		t.Errorf("stored spec (-want +got):\n%s", diff)
	}
}

// gadgetPolicy audits the gadgets of gadgets.example.com at
// RequestResponse and nothing else.
const gadgetPolicy = `
apiVersion: audit.platform.io/v1
kind: Policy
rules:
- level: RequestResponse
  resources:
  - group: gadgets.example.com
    resources: ["gadgets"]
- level: None
`

// TestAuditOfCustomResources: an audit policy rule naming a custom
// resource's group and plural logs its requests with the object's
// reference and bodies.
func TestAuditOfCustomResources(t *testing.T) {
	dir := t.TempDir()
	pol, logPath := filepath.Join(dir, "policy.yaml"), filepath.Join(dir, "audit.log")
	if err := os.WriteFile(pol, []byte(gadgetPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	s := framework.Start(t, func(o *options.Options) { o.Audit.PolicyFile, o.Audit.Log.Path = pol, logPath })
	install(t, s, withSchema(definition("gadgets.example.com", "gadgets", "Gadget", "Namespaced"), widgetSchema(nil)))
	id := "gadget-create-" + time.Now().Format("150405.000000000")
	s.Do(t, "POST", "/apis/gadgets.example.com/v1/namespaces/default/gadgets", gadget("g1", "none"), framework.Header{"Audit-ID": id}).
		Expect(t, http.StatusCreated)

	var got []auditv1.Event
	framework.Eventually(t, 10*time.Second, "the create's audit events", func() bool {
		got = auditEvents(t, logPath, id)
		return len(got) > 0 && got[len(got)-1].Stage == auditv1.StageResponseComplete
	})
	ev := got[len(got)-1]
	ref := auditv1.ObjectReference{Resource: "gadgets", Namespace: "default", Name: "g1", APIGroup: "gadgets.example.com", APIVersion: "v1"}
	if ev.ObjectRef == nil {
		t.Fatalf("event without objectRef: %+v", ev)
	}
	if diff := cmp.Diff(ref, *ev.ObjectRef); diff != "" {
		t.Errorf("objectRef (-want +got):\n%s", diff)
	}
	if ev.Level != auditv1.LevelRequestResponse || ev.Verb != "create" || ev.RequestObject == nil || ev.ResponseObject == nil {
		t.Errorf("event level %s verb %s, request body %t, response body %t", ev.Level, ev.Verb, ev.RequestObject != nil, ev.ResponseObject != nil)
	}
	var body map[string]any
	if err := json.Unmarshal(ev.ResponseObject, &body); err != nil || body["kind"] != "Gadget" {
		t.Errorf("responseObject %s is not the created gadget", ev.ResponseObject)
	}
	// The policy's last rule keeps other resources out of the log.
	for _, e := range auditEvents(t, logPath, "") {
		if e.ObjectRef != nil && e.ObjectRef.APIGroup != "gadgets.example.com" {
			t.Errorf("audited %s %+v", e.Verb, e.ObjectRef)
		}
	}
}

// auditEvents reads the log's events of one audit ID, or all with "".
func auditEvents(t *testing.T, path, id string) []auditv1.Event {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []auditv1.Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev auditv1.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q is not an event: %v", sc.Text(), err)
		}
		if id == "" || ev.AuditID == id {
			out = append(out, ev)
		}
	}
	return out
}
