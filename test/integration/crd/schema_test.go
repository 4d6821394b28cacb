package crd

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// widgetSchema is the openAPIV3Schema of the widgets of TestSchema.
func widgetSchema(extra map[string]any) map[string]any {
	props := map[string]any{
		"replicas": map[string]any{"type": "integer", "minimum": 1, "maximum": 10},
		"image":    map[string]any{"type": "string", "default": "busybox"},
		"mode":     map[string]any{"type": "string", "enum": []string{"fast", "slow"}},
	}
	for k, v := range extra {
		props[k] = v
	}
	return map[string]any{"type": "object", "properties": map[string]any{
		"spec": map[string]any{"type": "object", "required": []string{"replicas"}, "properties": props},
	}}
}

func withSchema(crd map[string]any, schema map[string]any) map[string]any {
	v := crd["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)
	v["schema"] = map[string]any{"openAPIV3Schema": schema}
	return crd
}

// TestSchema: a definition's schema is structural or refused; objects are
// pruned, defaulted and validated on every write, one cause per field,
// and defaults added later apply to stored objects when read.
func TestSchema(t *testing.T) {
	s := framework.Start(t)

	bad := withSchema(definition("shapes.example.com", "squares", "Square", "Cluster"), map[string]any{
		"type": "object", "properties": map[string]any{"spec": map[string]any{"properties": map[string]any{"size": map[string]any{"type": "integer"}}}},
	})
	st := s.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", bad).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	if causes := st["details"].(map[string]any)["causes"].([]any); len(causes) == 0 ||
		!strings.HasPrefix(causes[0].(map[string]any)["field"].(string), "spec.versions[0].schema.openAPIV3Schema.properties[spec]") {
		t.Errorf("non-structural schema refused with %v", st)
	}

	crd := withSchema(definition("shapes.example.com", "widgets", "Widget", "Namespaced"), widgetSchema(nil))
	install(t, s, crd)
	base := "/apis/shapes.example.com/v1/namespaces/default/widgets"
	widget := func(name string, spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": "shapes.example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name}, "spec": spec}
	}

	// Pruned (with a warning) and defaulted.
	r := s.Do(t, "POST", base, widget("a", map[string]any{"replicas": 2, "extra": true})).Expect(t, http.StatusCreated)
	spec := r.Map(t)["spec"].(map[string]any)
	if _, kept := spec["extra"]; kept || spec["image"] != "busybox" {
		t.Errorf("created spec %v: want extra pruned and image defaulted", spec)
	}
	if w := r.Header.Get("Warning"); !strings.Contains(w, `unknown field \"spec.extra\"`) {
		t.Errorf("warning %q", w)
	}
	s.Do(t, "POST", base+"?fieldValidation=Strict", widget("b", map[string]any{"replicas": 2, "extra": true})).
		ExpectStatus(t, http.StatusBadRequest, "BadRequest")

	// Invalid: one cause per field.
	st = s.Do(t, "POST", base, widget("c", map[string]any{"replicas": 20, "mode": "turbo"})).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	var fields []string
	for _, c := range st["details"].(map[string]any)["causes"].([]any) {
		fields = append(fields, c.(map[string]any)["field"].(string))
	}
	if got := strings.Join(fields, ","); got != "spec.mode,spec.replicas" {
		t.Errorf("causes on %s, want spec.mode,spec.replicas: %v", got, st)
	}
	s.Do(t, "POST", base, widget("d", map[string]any{"mode": "fast"})).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	// Updates and patches are validated too.
	s.Do(t, "PATCH", base+"/a", `{"spec":{"replicas":0}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).
		ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")

	// A default added to the schema shows in the stored object when read.
	cur := s.Do(t, "GET", crdsPath+"/widgets.shapes.example.com", nil).Expect(t, http.StatusOK).Map(t)
	withSchema(cur, widgetSchema(map[string]any{"color": map[string]any{"type": "string", "default": "red"}}))
	s.Do(t, "PUT", crdsPath+"/widgets.shapes.example.com", cur).Expect(t, http.StatusOK)
	framework.Eventually(t, 10*time.Second, "the new default on read", func() bool {
		got := s.Do(t, "GET", base+"/a", nil).Map(t)
		spec, _ := got["spec"].(map[string]any)
		return spec["color"] == "red"
	})
}

// TestValidationRules: x-kubernetes-validations rules that do not compile
// refuse the definition; on objects they run after the schema, with their
// messages, and transition rules compare an update with the stored object.
func TestValidationRules(t *testing.T) {
	s := framework.Start(t)
	rules := func(rs ...map[string]any) map[string]any {
		sch := widgetSchema(map[string]any{"max": map[string]any{"type": "integer"}, "owner": map[string]any{"type": "string"}})
		spec := sch["properties"].(map[string]any)["spec"].(map[string]any)
		list := make([]any, len(rs))
		for i, r := range rs {
			list[i] = r
		}
		spec["x-kubernetes-validations"] = list
		return sch
	}

	bad := withSchema(definition("rules.example.com", "gadgets", "Gadget", "Namespaced"), rules(map[string]any{"rule": "self.replicas <"}))
	st := s.Do(t, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", bad).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	if c := st["details"].(map[string]any)["causes"].([]any); len(c) == 0 ||
		!strings.Contains(c[0].(map[string]any)["field"].(string), "x-kubernetes-validations[0].rule") {
		t.Errorf("uncompilable rule refused with %v", st)
	}

	crd := withSchema(definition("rules.example.com", "widgets", "Widget", "Namespaced"), rules(
		map[string]any{"rule": "!has(self.max) || self.replicas <= self.max", "message": "replicas must not exceed max"},
		map[string]any{"rule": "!has(oldSelf.owner) || self.owner == oldSelf.owner", "message": "owner is immutable"},
	))
	install(t, s, crd)
	base := "/apis/rules.example.com/v1/namespaces/default/widgets"
	widget := func(name string, spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": "rules.example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name}, "spec": spec}
	}
	st = s.Do(t, "POST", base, widget("over", map[string]any{"replicas": 5, "max": 3})).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	if !strings.Contains(st["message"].(string), "replicas must not exceed max") {
		t.Errorf("rule failure: %v", st["message"])
	}
	s.Do(t, "POST", base, widget("ok", map[string]any{"replicas": 2, "max": 3, "owner": "a"})).Expect(t, http.StatusCreated)
	merge := framework.Header{"Content-Type": "application/merge-patch+json"}
	st = s.Do(t, "PATCH", base+"/ok", `{"spec":{"owner":"b"}}`, merge).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	if !strings.Contains(st["message"].(string), "owner is immutable") {
		t.Errorf("transition rule failure: %v", st["message"])
	}
	s.Do(t, "PATCH", base+"/ok", `{"spec":{"replicas":3}}`, merge).Expect(t, http.StatusOK)
	// A schema error is reported alone: the rules do not run on an object
	// of the wrong shape.
	st = s.Do(t, "POST", base, widget("shape", map[string]any{"replicas": "many", "max": 3})).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	if strings.Contains(st["message"].(string), "exceed") {
		t.Errorf("rules ran on an invalid object: %v", st["message"])
	}
}
