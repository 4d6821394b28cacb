package apiserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/test/integration/framework"
)

// TestStatusSubresource: writes to the main resource ignore status, writes
// to /status change only status.
func TestStatusSubresource(t *testing.T) {
	s := framework.Start(t)
	base := "/apis/apps/v1/namespaces/default/deployments"
	dep := samples[9]
	s.Do(t, "POST", base, `{"metadata":{"name":"st"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"x"}},"template":`+templ(`{"app":"x"}`)+`},"status":{"replicas":7}}`).Expect(t, http.StatusCreated)
	_ = dep
	obj := s.Do(t, "GET", base+"/st", nil).Expect(t, http.StatusOK).Map(t)
	if get(obj, "status", "replicas") != nil {
		t.Fatalf("create kept client-set status: %v", obj["status"])
	}
	// Main update: status ignored.
	s.Do(t, "PATCH", base+"/st", `{"status":{"replicas":5},"spec":{"replicas":2}}`, mergePatch).Expect(t, http.StatusOK)
	obj = s.Do(t, "GET", base+"/st", nil).Map(t)
	if get(obj, "status", "replicas") != nil || get(obj, "spec", "replicas") != float64(2) {
		t.Fatalf("main patch: status %v spec.replicas %v", obj["status"], get(obj, "spec", "replicas"))
	}
	// Status update: spec ignored.
	s.Do(t, "PATCH", base+"/st/status", `{"status":{"replicas":5},"spec":{"replicas":9}}`, mergePatch).Expect(t, http.StatusOK)
	obj = s.Do(t, "GET", base+"/st/status", nil).Expect(t, http.StatusOK).Map(t)
	if get(obj, "status", "replicas") != float64(5) || get(obj, "spec", "replicas") != float64(2) {
		t.Fatalf("status patch: status %v spec.replicas %v", obj["status"], get(obj, "spec", "replicas"))
	}
	// PUT /status with the object.
	obj["status"].(map[string]any)["replicas"] = float64(6)
	s.Do(t, "PUT", base+"/st/status", obj).Expect(t, http.StatusOK)
	if got := get(s.Do(t, "GET", base+"/st", nil).Map(t), "status", "replicas"); got != float64(6) {
		t.Fatalf("status after PUT /status: %v", got)
	}
	s.Do(t, "POST", base+"/st/status", `{}`).ExpectStatus(t, http.StatusMethodNotAllowed, "MethodNotAllowed")
}

// TestScaleSubresource: deployments, replicasets and statefulsets serve kind Scale.
func TestScaleSubresource(t *testing.T) {
	s := framework.Start(t)
	for _, smp := range []sample{samples[9], samples[10], samples[12]} {
		t.Run(smp.kind, func(t *testing.T) {
			coll := smp.collection("default")
			s.Do(t, "POST", coll, smp.object("sc", "default")).Expect(t, http.StatusCreated)
			sc := s.Do(t, "GET", coll+"/sc/scale", nil).Expect(t, http.StatusOK).Map(t)
			if sc["kind"] != "Scale" || sc["apiVersion"] != "autoscaling/v1" || get(sc, "status", "selector") != "app=x" {
				t.Fatalf("scale: %v", sc)
			}
			sc["spec"] = map[string]any{"replicas": 4}
			out := s.Do(t, "PUT", coll+"/sc/scale", sc).Expect(t, http.StatusOK).Map(t)
			if get(out, "spec", "replicas") != float64(4) {
				t.Fatalf("replace scale: %v", out)
			}
			// The stale resourceVersion of the first Scale conflicts now.
			s.Do(t, "PUT", coll+"/sc/scale", sc).ExpectStatus(t, http.StatusConflict, "Conflict")
			s.Do(t, "PATCH", coll+"/sc/scale", `{"spec":{"replicas":6}}`, mergePatch).Expect(t, http.StatusOK)
			if r := get(s.Do(t, "GET", coll+"/sc", nil).Map(t), "spec", "replicas"); r != float64(6) {
				t.Fatalf("object replicas after scale patch: %v", r)
			}
			s.Do(t, "PATCH", coll+"/sc/scale", `{"spec":{"replicas":-1}}`, mergePatch).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
			s.Do(t, "PUT", coll+"/sc/scale", `{"kind":"Pod","metadata":{"name":"sc"}}`).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
		})
	}
	// Types without scale have no such subresource.
	s.Do(t, "GET", "/api/v1/namespaces/default/configmaps/x/scale", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
}

// TestBindingSubresource: pods/binding sets the node once.
func TestBindingSubresource(t *testing.T) {
	s := framework.Start(t)
	pods := "/api/v1/namespaces/default/pods"
	s.Do(t, "POST", pods, samples[1].object("b", "default")).Expect(t, http.StatusCreated)
	binding := `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"b"},"target":{"apiVersion":"v1","kind":"Node","name":"node-1"}}`
	s.Do(t, "POST", pods+"/b/binding?dryRun=All", binding).Expect(t, http.StatusCreated)
	if n := get(s.Do(t, "GET", pods+"/b", nil).Map(t), "spec", "nodeName"); n != nil {
		t.Fatalf("dry-run binding stored nodeName %v", n)
	}
	s.Do(t, "POST", pods+"/b/binding", binding).Expect(t, http.StatusCreated)
	pod := s.Do(t, "GET", pods+"/b", nil).Map(t)
	if get(pod, "spec", "nodeName") != "node-1" {
		t.Fatalf("nodeName after binding: %v", get(pod, "spec", "nodeName"))
	}
	s.Do(t, "POST", pods+"/b/binding", binding).ExpectStatus(t, http.StatusConflict, "Conflict")
	s.Do(t, "POST", pods+"/missing/binding", strings.Replace(binding, `"name":"b"`, `"name":"missing"`, 1)).ExpectStatus(t, http.StatusNotFound, "NotFound")
	s.Do(t, "POST", pods+"/b/binding", strings.Replace(binding, `"name":"b"`, `"name":"other"`, 1)).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	s.Do(t, "GET", pods+"/b/binding", nil).ExpectStatus(t, http.StatusMethodNotAllowed, "MethodNotAllowed")
}

// TestRollbackSubresource: deployments/rollback (the spec's Rollback
// operation) records the wanted revision for the controller; bad requests
// change nothing.
func TestRollbackSubresource(t *testing.T) {
	s := framework.Start(t)
	base := "/apis/apps/v1/namespaces/default/deployments"
	dep := samples[9].object("r", "default")
	s.Do(t, "POST", base, dep).Expect(t, http.StatusCreated)
	before := s.Do(t, "GET", base+"/r", nil).Map(t)
	rb := func(name string, rev int) string {
		return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"DeploymentRollback","name":%q,"updatedAnnotations":{"reason":"bad release"},"rollbackTo":{"revision":%d}}`, name, rev)
	}
	for _, bad := range []struct {
		path, body string
		code       int
		reason     string
	}{
		{base + "/r/rollback", rb("other", 1), http.StatusBadRequest, "BadRequest"},
		{base + "/r/rollback", rb("r", -1), http.StatusUnprocessableEntity, "Invalid"},
		{base + "/r/rollback", `{"kind":"Scale","name":"r"}`, http.StatusBadRequest, "BadRequest"},
		{base + "/r/rollback", `{not json`, http.StatusBadRequest, "BadRequest"},
		{base + "/missing/rollback", rb("missing", 1), http.StatusNotFound, "NotFound"},
	} {
		s.Do(t, "POST", bad.path, bad.body).ExpectStatus(t, bad.code, bad.reason)
	}
	s.Do(t, "POST", base+"/r/rollback?dryRun=All", rb("r", 1)).Expect(t, http.StatusOK)
	after := s.Do(t, "GET", base+"/r", nil).Map(t)
	if get(after, "metadata", "resourceVersion") != get(before, "metadata", "resourceVersion") {
		t.Fatalf("a refused or dry-run rollback changed the deployment")
	}
	st := s.Do(t, "POST", base+"/r/rollback", rb("r", 2)).Expect(t, http.StatusOK).Map(t)
	if st["kind"] != "Status" || st["status"] != "Success" {
		t.Fatalf("rollback answered %v", st)
	}
	got := s.Do(t, "GET", base+"/r", nil).Map(t)
	if a := get(got, "metadata", "annotations", "deprecated.deployment.rollback.to"); a != "2" {
		t.Fatalf("rollback annotation = %v, want 2", a)
	}
	if a := get(got, "metadata", "annotations", "reason"); a != "bad release" {
		t.Fatalf("updatedAnnotations not applied: %v", a)
	}
	s.Do(t, "GET", base+"/r/rollback", nil).ExpectStatus(t, http.StatusMethodNotAllowed, "MethodNotAllowed")
}
