package crd

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestSubresourcesAndColumns: with the status subresource, main writes
// ignore status and /status writes change only status; /scale reads and
// writes the declared replica paths; Table output has the printer columns.
func TestSubresourcesAndColumns(t *testing.T) {
	s := framework.Start(t)
	crd := withSchema(definition("apps.example.com", "engines", "Engine", "Namespaced"), map[string]any{
		"type": "object", "properties": map[string]any{
			"spec":   map[string]any{"type": "object", "properties": map[string]any{"replicas": map[string]any{"type": "integer"}, "image": map[string]any{"type": "string"}}},
			"status": map[string]any{"type": "object", "properties": map[string]any{"replicas": map[string]any{"type": "integer"}, "selector": map[string]any{"type": "string"}}},
		}})
	v := crd["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)
	v["subresources"] = map[string]any{"status": map[string]any{},
		"scale": map[string]any{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"}}
	v["additionalPrinterColumns"] = []any{
		map[string]any{"name": "Image", "type": "string", "jsonPath": ".spec.image"},
		map[string]any{"name": "Replicas", "type": "integer", "jsonPath": ".status.replicas"},
	}
	install(t, s, crd)
	base := "/apis/apps.example.com/v1/namespaces/default/engines"
	list := s.Do(t, "GET", "/apis/apps.example.com/v1", nil).Expect(t, http.StatusOK)
	for _, want := range []string{`"name":"engines/status"`, `"name":"engines/scale"`} {
		if !strings.Contains(string(list.Body), want) {
			t.Errorf("discovery lacks %s: %s", want, list.Body)
		}
	}

	obj := map[string]any{"apiVersion": "apps.example.com/v1", "kind": "Engine", "metadata": map[string]any{"name": "e"},
		"spec": map[string]any{"replicas": 2, "image": "v8"}, "status": map[string]any{"replicas": 9}}
	created := s.Do(t, "POST", base, obj).Expect(t, http.StatusCreated).Map(t)
	if created["status"] != nil {
		t.Errorf("create kept status %v", created["status"])
	}
	s.Do(t, "PUT", base+"/e/status", map[string]any{"apiVersion": "apps.example.com/v1", "kind": "Engine", "metadata": map[string]any{"name": "e"},
		"spec": map[string]any{"replicas": 7}, "status": map[string]any{"replicas": 2, "selector": "app=e"}}).Expect(t, http.StatusOK)
	got := s.Do(t, "GET", base+"/e", nil).Expect(t, http.StatusOK).Map(t)
	if got["spec"].(map[string]any)["replicas"] != float64(2) || got["status"].(map[string]any)["replicas"] != float64(2) {
		t.Errorf("after a status write: spec %v status %v", got["spec"], got["status"])
	}
	s.Do(t, "PATCH", base+"/e", `{"status":{"replicas":5}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	if st := s.Do(t, "GET", base+"/e", nil).Map(t)["status"].(map[string]any); st["replicas"] != float64(2) {
		t.Errorf("a main-resource patch changed status: %v", st)
	}

	scale := s.Do(t, "GET", base+"/e/scale", nil).Expect(t, http.StatusOK).Map(t)
	if scale["kind"] != "Scale" || scale["spec"].(map[string]any)["replicas"] != float64(2) ||
		scale["status"].(map[string]any)["replicas"] != float64(2) || scale["status"].(map[string]any)["selector"] != "app=e" {
		t.Errorf("scale %v", scale)
	}
	s.Do(t, "PATCH", base+"/e/scale", `{"spec":{"replicas":4}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	if spec := s.Do(t, "GET", base+"/e", nil).Map(t)["spec"].(map[string]any); spec["replicas"] != float64(4) || spec["image"] != "v8" {
		t.Errorf("after scaling: spec %v", spec)
	}

	tbl := s.Do(t, "GET", base, nil, framework.Header{"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io"}).Expect(t, http.StatusOK).Map(t)
	var names []string
	for _, c := range tbl["columnDefinitions"].([]any) {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	cells := tbl["rows"].([]any)[0].(map[string]any)["cells"].([]any)
	if strings.Join(names, ",") != "Name,Image,Replicas" || cells[0] != "e" || cells[1] != "v8" || cells[2] != float64(2) {
		t.Errorf("table columns %v, cells %v", names, cells)
	}
}

// TestNameConflict: a definition whose names another in its group holds is
// not established, with upstream's reason, and serves nothing.
func TestNameConflict(t *testing.T) {
	s := framework.Start(t)
	install(t, s, definition("zoo.example.com", "lions", "Lion", "Namespaced", "cats"))
	s.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", definition("zoo.example.com", "cats", "Cat", "Namespaced")).Expect(t, http.StatusCreated)
	framework.Eventually(t, 10*time.Second, "NamesAccepted False", func() bool {
		crd := s.Do(t, "GET", crdsPath+"/cats.zoo.example.com", nil).Map(t)
		return condition(t, crd, "NamesAccepted") == "False" && condition(t, crd, "Established") == "False"
	})
	crd := s.Do(t, "GET", crdsPath+"/cats.zoo.example.com", nil).Map(t)
	if !strings.Contains(string(mustJSON(t, crd["status"])), `"reason":"PluralConflict"`) {
		t.Errorf("status %s", mustJSON(t, crd["status"]))
	}
	if hasResource(t, s.Do(t, "GET", "/apis/zoo.example.com/v1", nil).Map(t), "cats") {
		t.Errorf("a definition whose names were refused is served")
	}
}

// TestSelectableFields: a field selector may name the version's
// selectableFields, in lists and watches' lists alike.
func TestSelectableFields(t *testing.T) {
	s := framework.Start(t)
	crd := withSchema(definition("paint.example.com", "cans", "Can", "Cluster"), map[string]any{
		"type": "object", "properties": map[string]any{"spec": map[string]any{"type": "object", "properties": map[string]any{
			"color": map[string]any{"type": "string"}, "size": map[string]any{"type": "integer"}}}}})
	crd["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["selectableFields"] = []any{
		map[string]any{"jsonPath": ".spec.color"}, map[string]any{"jsonPath": ".spec.size"}}
	install(t, s, crd)
	base := "/apis/paint.example.com/v1/cans"
	for name, spec := range map[string]map[string]any{"a": {"color": "blue", "size": 1}, "b": {"color": "red", "size": 2}, "c": {"size": 1}} {
		s.Do(t, "POST", base, map[string]any{"apiVersion": "paint.example.com/v1", "kind": "Can", "metadata": map[string]any{"name": name}, "spec": spec}).Expect(t, http.StatusCreated)
	}
	for sel, want := range map[string]string{"spec.color%3Dblue": "[a]", "spec.size%3D1": "[a c]", "spec.color%21%3Dred": "[a c]"} {
		if got := fmt.Sprint(items(t, s.Do(t, "GET", base+"?fieldSelector="+sel, nil).Expect(t, http.StatusOK).Map(t))); got != want {
			t.Errorf("fieldSelector %s listed %s, want %s", sel, got, want)
		}
	}
	s.Do(t, "GET", base+"?fieldSelector=spec.shape%3Dround", nil).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
}
