package crd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

const crdsPath = "/apis/apiextensions.platform.io/v1/customresourcedefinitions"

// definition returns a CRD of kind in group, scope Namespaced or Cluster,
// with one version v1 whose schema keeps every field.
func definition(group, plural, kind, scope string, shortNames ...string) map[string]any {
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + group},
		"spec": map[string]any{
			"group": group, "scope": scope,
			"names": map[string]any{"plural": plural, "kind": kind, "shortNames": shortNames},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
			}},
		},
	}
}

// install creates a CRD and waits until it is Established and its
// resource is in discovery; it returns how long that took.
func install(t *testing.T, s *framework.Server, crd map[string]any) time.Duration {
	t.Helper()
	start := time.Now()
	s.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).Expect(t, http.StatusCreated)
	name := crd["metadata"].(map[string]any)["name"].(string)
	spec := crd["spec"].(map[string]any)
	plural := spec["names"].(map[string]any)["plural"].(string)
	framework.Eventually(t, 10*time.Second, name+" established", func() bool {
		r := s.Do(t, "GET", crdsPath+"/"+name, nil)
		return r.Code == http.StatusOK && condition(t, r.Map(t), "Established") == "True"
	})
	gv := fmt.Sprintf("/apis/%s/v1", spec["group"])
	framework.Eventually(t, 10*time.Second, plural+" in discovery", func() bool {
		r := s.Do(t, "GET", gv, nil)
		return r.Code == http.StatusOK && hasResource(t, r.Map(t), plural)
	})
	return time.Since(start)
}

// condition returns the status of a CRD's condition, "" when absent.
func condition(t *testing.T, crd map[string]any, typ string) string {
	status, _ := crd["status"].(map[string]any)
	conds, _ := status["conditions"].([]any)
	for _, c := range conds {
		c := c.(map[string]any)
		if c["type"] == typ {
			return c["status"].(string)
		}
	}
	return ""
}

func hasResource(t *testing.T, list map[string]any, name string) bool {
	rs, _ := list["resources"].([]any)
	for _, r := range rs {
		if r.(map[string]any)["name"] == name {
			return true
		}
	}
	return false
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
