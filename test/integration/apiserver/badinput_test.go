package apiserver

import (
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/test/integration/framework"
)

// TestBadInput sends every bad request we could think of and checks the
// Status code and reason, and that nothing stored changed.
func TestBadInput(t *testing.T) {
	s := framework.Start(t)
	createNamespace(t, s, "bad")
	cm := "/api/v1/namespaces/bad/configmaps"
	s.Do(t, "POST", cm, `{"metadata":{"name":"keep"},"data":{"k":"v"}}`).Expect(t, http.StatusCreated)
	before := s.Do(t, "GET", cm+"/keep", nil).Expect(t, http.StatusOK).Body
	big := `{"metadata":{"name":"big"},"data":{"k":"` + strings.Repeat("x", 3*1024*1024+10) + `"}}`
	cases := []struct {
		name, method, path, body string
		header                   framework.Header
		code                     int
		reason                   string
	}{
		{"malformed JSON", "POST", cm, `{"metadata":`, nil, 400, "BadRequest"},
		{"not an object", "POST", cm, `["a"]`, nil, 400, "BadRequest"},
		{"empty body", "POST", cm, ``, nil, 400, "BadRequest"},
		{"wrong kind", "POST", cm, `{"kind":"Secret","apiVersion":"v1","metadata":{"name":"x"}}`, nil, 400, "BadRequest"},
		{"wrong apiVersion", "POST", cm, `{"kind":"ConfigMap","apiVersion":"apps/v1","metadata":{"name":"x"}}`, nil, 400, "BadRequest"},
		{"wrong field type", "POST", cm, `{"metadata":{"name":"x"},"data":"notamap"}`, nil, 400, "BadRequest"},
		{"namespace mismatch", "POST", cm, `{"metadata":{"name":"x","namespace":"other"}}`, nil, 400, "BadRequest"},
		{"name mismatch on replace", "PUT", cm + "/keep", `{"metadata":{"name":"other"},"data":{"k":"x"}}`, nil, 400, "BadRequest"},
		{"no name on replace", "PUT", cm + "/keep", `{"metadata":{},"data":{"k":"x"}}`, nil, 400, "BadRequest"},
		{"oversize body", "POST", cm, big, nil, 413, "RequestEntityTooLarge"},
		{"oversize replace", "PUT", cm + "/keep", big, nil, 413, "RequestEntityTooLarge"},
		{"invalid name", "POST", cm, `{"metadata":{"name":"Not_Valid"}}`, nil, 422, "Invalid"},
		{"no name", "POST", cm, `{"metadata":{}}`, nil, 422, "Invalid"},
		{"invalid label", "POST", cm, `{"metadata":{"name":"x","labels":{"a b":"c"}}}`, nil, 422, "Invalid"},
		{"unknown field strict", "POST", cm + "?fieldValidation=Strict", `{"metadata":{"name":"x"},"bogus":1}`, nil, 400, "BadRequest"},
		{"bad fieldValidation", "POST", cm + "?fieldValidation=Loud", `{"metadata":{"name":"x"}}`, nil, 422, "Invalid"}, // upstream validates CreateOptions
		{"bad dryRun", "POST", cm + "?dryRun=Yes", `{"metadata":{"name":"x"}}`, nil, 422, "Invalid"},
		{"bad dryRun on delete", "DELETE", cm + "/keep?dryRun=Some", ``, nil, 422, "Invalid"},
		{"unsupported body type", "POST", cm, `<x/>`, framework.Header{"Content-Type": "application/xml"}, 415, "UnsupportedMediaType"},
		{"unsupported patch type", "PATCH", cm + "/keep", `{}`, framework.Header{"Content-Type": "text/plain"}, 415, "UnsupportedMediaType"},
		{"malformed merge patch", "PATCH", cm + "/keep", `{"data":`, mergePatch, 400, "BadRequest"},
		{"malformed json patch", "PATCH", cm + "/keep", `{"op":"add"}`, jsonPatch, 400, "BadRequest"},
		{"failing json patch test", "PATCH", cm + "/keep", `[{"op":"test","path":"/data/k","value":"nope"}]`, jsonPatch, 422, "Invalid"}, // upstream: a JSON patch that does not apply
		{"bad strategic directive", "PATCH", cm + "/keep", `{"data":{"$patch":"explode"}}`, strategicPatch, 400, "BadRequest"},
		{"patch changes name", "PATCH", cm + "/keep", `{"metadata":{"name":"renamed"}}`, mergePatch, 400, "BadRequest"}, // upstream checkName
		{"patch breaks validation", "PATCH", cm + "/keep", `{"metadata":{"labels":{"a b":"c"}}}`, mergePatch, 422, "Invalid"},
		{"missing namespace", "POST", "/api/v1/namespaces/nowhere/configmaps", `{"metadata":{"name":"x"}}`, nil, 404, "NotFound"},
		{"get missing", "GET", cm + "/missing", ``, nil, 404, "NotFound"},
		{"unknown resource", "GET", "/api/v1/namespaces/bad/widgets", ``, nil, 404, "NotFound"},
		{"unknown group", "GET", "/apis/widgets.example.com/v1/things", ``, nil, 404, "NotFound"},
		{"too deep path", "GET", cm + "/keep/status/extra", ``, nil, 404, "NotFound"},
		{"unknown subresource", "GET", cm + "/keep/exec", ``, nil, 404, "NotFound"},
		{"negative limit", "GET", cm + "?limit=-1", ``, nil, 400, "BadRequest"},
		{"malformed continue", "GET", cm + "?limit=1&continue=%21%21%21", ``, nil, 400, "BadRequest"},
		{"garbage continue", "GET", cm + "?limit=1&continue=bm90IGpzb24", ``, nil, 400, "BadRequest"},
		{"bad label selector", "GET", cm + "?labelSelector=a%20in%20(", ``, nil, 400, "BadRequest"},
		{"unknown field selector", "GET", cm + "?fieldSelector=spec.bogus%3Dx", ``, nil, 400, "BadRequest"},
		{"bad resourceVersion", "GET", cm + "?resourceVersion=abc", ``, nil, 400, "BadRequest"},
		{"bad gracePeriodSeconds", "DELETE", cm + "/keep?gracePeriodSeconds=soon", ``, nil, 400, "BadRequest"},
		{"bad propagationPolicy", "DELETE", cm + "/keep?propagationPolicy=Sideways", ``, nil, 422, "Invalid"},
		{"both orphan and policy", "DELETE", cm + "/keep", `{"orphanDependents":true,"propagationPolicy":"Background"}`, nil, 422, "Invalid"},
		{"malformed delete options", "DELETE", cm + "/keep", `{"gracePeriodSeconds":"x"}`, nil, 400, "BadRequest"},
		{"delete precondition uid", "DELETE", cm + "/keep", `{"preconditions":{"uid":"not-the-uid"}}`, nil, 409, "Conflict"},
		{"delete precondition rv", "DELETE", cm + "/keep", `{"preconditions":{"resourceVersion":"1"}}`, nil, 409, "Conflict"},
		{"POST on a name", "POST", cm + "/keep", `{"metadata":{"name":"keep"}}`, nil, 405, "MethodNotAllowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body any
			if c.body != "" {
				body = c.body
			}
			s.Do(t, c.method, c.path, body, c.header).ExpectStatus(t, c.code, c.reason)
			after := s.Do(t, "GET", cm+"/keep", nil).Expect(t, http.StatusOK).Body
			if string(after) != string(before) {
				t.Fatalf("stored object changed:\nbefore %s\nafter  %s", before, after)
			}
			n := len(s.Do(t, "GET", cm, nil).Expect(t, http.StatusOK).Map(t)["items"].([]any))
			if n != 1 {
				t.Fatalf("%d configmaps stored, want 1", n)
			}
		})
	}
}

// TestInvalidCauses checks that a 422 carries one cause per field error.
func TestInvalidCauses(t *testing.T) {
	s := framework.Start(t)
	r := s.Do(t, "POST", "/api/v1/namespaces/default/pods",
		`{"metadata":{"name":"Bad"},"spec":{"containers":[{"name":"a"},{"name":"a","image":"x"}]}}`)
	st := r.ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	causes, _ := get(st, "details", "causes").([]any)
	fields := map[string]bool{}
	for _, c := range causes {
		fields[c.(map[string]any)["field"].(string)] = true
	}
	for _, want := range []string{"metadata.name", "spec.containers[0].image", "spec.containers[1].name"} {
		if !fields[want] {
			t.Errorf("no cause for %s in %s", want, r.Body)
		}
	}
	if get(st, "details", "kind") != "Pod" || get(st, "details", "name") != "Bad" {
		t.Errorf("details: %v", st["details"])
	}
}
