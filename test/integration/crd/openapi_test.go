package crd

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

const (
	gadgetsKey = "apis/docs.example.com/v1"
	gadgetDef  = "com.example.docs.v1.Gadget"
)

// TestOpenAPI: a definition's served version appears in /openapi/v3 (the
// index and its group version's document) and in /openapi/v2 with its
// schema once it is established, changes when the schema changes, and
// goes when the definition is deleted.
func TestOpenAPI(t *testing.T) {
	s := framework.Start(t)
	if _, ok := openAPIIndex(t, s)[gadgetsKey]; ok {
		t.Fatal("the index lists the group version before the definition exists")
	}
	v2Before := s.Do(t, "GET", "/openapi/v2", nil).Expect(t, http.StatusOK).Header.Get("Etag")

	crd := withSchema(definition("docs.example.com", "gadgets", "Gadget", "Namespaced"), widgetSchema(nil))
	took := install(t, s, crd)
	start := time.Now()
	var url string
	framework.Eventually(t, 5*time.Second, "the group version in the OpenAPI v3 index", func() bool {
		url = openAPIIndex(t, s)[gadgetsKey]
		return url != ""
	})
	t.Logf("established in %v, then in the OpenAPI index after %v", took, time.Since(start))
	schemas := schemasAt(t, s, url)
	replicas := walk(t, schemas, gadgetDef, "properties", "spec", "properties", "replicas")
	if replicas["type"] != "integer" || replicas["maximum"] != float64(10) {
		t.Errorf("spec.replicas is %v", replicas)
	}
	gvk := walk(t, schemas, gadgetDef)["x-kubernetes-group-version-kind"]
	if b, _ := json.Marshal(gvk); string(b) != `[{"group":"docs.example.com","kind":"Gadget","version":"v1"}]` {
		t.Errorf("x-kubernetes-group-version-kind = %s", b)
	}
	walk(t, schemas, gadgetDef+"List", "properties", "items")

	v2 := s.Do(t, "GET", "/openapi/v2", nil).Expect(t, http.StatusOK)
	if v2.Header.Get("Etag") == v2Before {
		t.Error("the v2 document kept its ETag")
	}
	walk(t, v2.Map(t), "definitions", gadgetDef, "properties", "spec", "properties", "mode")

	// A changed schema: a new document.
	cur := s.Do(t, "GET", crdsPath+"/gadgets.docs.example.com", nil).Expect(t, http.StatusOK).Map(t)
	withSchema(cur, widgetSchema(map[string]any{"color": map[string]any{"type": "string"}}))
	s.Do(t, "PUT", crdsPath+"/gadgets.docs.example.com", cur).Expect(t, http.StatusOK)
	start = time.Now()
	framework.Eventually(t, 5*time.Second, "the changed schema in the OpenAPI v3 index", func() bool {
		return openAPIIndex(t, s)[gadgetsKey] != url
	})
	t.Logf("the change published after %v", time.Since(start))
	walk(t, schemasAt(t, s, openAPIIndex(t, s)[gadgetsKey]), gadgetDef, "properties", "spec", "properties", "color")
	walk(t, s.Do(t, "GET", "/openapi/v2", nil).Map(t), "definitions", gadgetDef, "properties", "spec", "properties", "color")

	s.Do(t, "DELETE", crdsPath+"/gadgets.docs.example.com", nil).Expect(t, http.StatusOK)
	framework.Eventually(t, 10*time.Second, "the group version out of the OpenAPI documents", func() bool {
		_, listed := openAPIIndex(t, s)[gadgetsKey]
		defs, _ := s.Do(t, "GET", "/openapi/v2", nil).Map(t)["definitions"].(map[string]any)
		return !listed && defs[gadgetDef] == nil
	})
	s.Do(t, "GET", "/openapi/v3/"+gadgetsKey, nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
}

// openAPIIndex returns the serverRelativeURLs of /openapi/v3 by key.
func openAPIIndex(t *testing.T, s *framework.Server) map[string]string {
	t.Helper()
	var index struct {
		Paths map[string]struct {
			URL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(s.Do(t, "GET", "/openapi/v3", nil).Expect(t, http.StatusOK).Body, &index); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range index.Paths {
		out[k] = v.URL
	}
	return out
}

// schemasAt returns the component schemas of the v3 document at url.
func schemasAt(t *testing.T, s *framework.Server, url string) map[string]any {
	t.Helper()
	return walk(t, s.Do(t, "GET", url, nil).Expect(t, http.StatusOK).Map(t), "components", "schemas")
}

// walk follows keys through nested objects, failing t when one is missing.
func walk(t *testing.T, m map[string]any, keys ...string) map[string]any {
	t.Helper()
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			t.Fatalf("no object at %q of %v", k, keys)
		}
		m = next
	}
	return m
}
