package apiserver

import (
	"net/http"
	"testing"

	"platform.io/platform/test/integration/framework"
)

var (
	mergePatch     = framework.Header{"Content-Type": "application/merge-patch+json"}
	jsonPatch      = framework.Header{"Content-Type": "application/json-patch+json"}
	strategicPatch = framework.Header{"Content-Type": "application/strategic-merge-patch+json"}
)

// createNamespace makes a namespace for one test.
func createNamespace(t *testing.T, s *framework.Server, name string) {
	t.Helper()
	s.Do(t, "POST", "/api/v1/namespaces", `{"metadata":{"name":"`+name+`"}}`).Expect(t, http.StatusCreated)
}

// get follows a path of keys through decoded JSON.
func get(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}

// meta returns the metadata map of a decoded object.
func metaOf(m map[string]any) map[string]any {
	md, _ := m["metadata"].(map[string]any)
	return md
}
