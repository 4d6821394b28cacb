package crd

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/test/integration/framework"
)

// TestServerSideApply: apply creates and updates a custom object and
// records its manager in managedFields.
func TestServerSideApply(t *testing.T) {
	s := framework.Start(t)
	install(t, s, definition("stable.example.com", "crontabs", "CronTab", "Namespaced"))
	path := "/apis/stable.example.com/v1/namespaces/default/crontabs/a?fieldManager=tester"
	apply := framework.Header{"Content-Type": "application/apply-patch+yaml"}
	body := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  replicas: 2\n"
	s.Do(t, "PATCH", path, body, apply).Expect(t, http.StatusCreated)
	got := s.Do(t, "PATCH", path, "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  replicas: 3\n", apply).Expect(t, http.StatusOK).Map(t)
	if got["spec"].(map[string]any)["replicas"] != float64(3) {
		t.Errorf("applied spec %v", got["spec"])
	}
	mf, _ := meta(got)["managedFields"].([]any)
	if len(mf) != 1 || mf[0].(map[string]any)["manager"] != "tester" || mf[0].(map[string]any)["operation"] != "Apply" {
		t.Errorf("managedFields %v", mf)
	}
}

// gatewaySchema has a map list keyed by name, a set, and a list with no
// list type (atomic, as upstream).
func gatewaySchema() map[string]any {
	str := map[string]any{"type": "string"}
	return map[string]any{"type": "object", "properties": map[string]any{
		"spec": map[string]any{"type": "object", "properties": map[string]any{
			"listeners": map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []string{"name"},
				"items": map[string]any{"type": "object", "required": []string{"name"}, "properties": map[string]any{
					"name": str, "port": map[string]any{"type": "integer"}}}},
			"hosts": map[string]any{"type": "array", "x-kubernetes-list-type": "set", "items": str},
			"args":  map[string]any{"type": "array", "items": str},
		}},
	}}
}

// gatewayYAML is an applied configuration of gateway g with spec.
func gatewayYAML(spec string) string {
	return "apiVersion: net.example.com/v1\nkind: Gateway\nmetadata:\n  name: g\nspec:\n" + spec
}

// TestServerSideApplySchema: apply merges custom objects by the schema's
// list markers: managers share a map list by key and a set by value, a
// conflict on a shared entry names the field, force takes it, an atomic
// list is owned whole, and a field a manager stops applying goes only
// when no other manager owns it.
func TestServerSideApplySchema(t *testing.T) {
	s := framework.Start(t)
	install(t, s, withSchema(definition("net.example.com", "gateways", "Gateway", "Namespaced"), gatewaySchema()))
	path := "/apis/net.example.com/v1/namespaces/default/gateways/g?fieldManager="
	apply := framework.Header{"Content-Type": "application/apply-patch+yaml"}
	spec := func(o map[string]any) map[string]any { return o["spec"].(map[string]any) }

	alice := "  listeners:\n  - name: a\n    port: 80\n  hosts: [h1]\n  args: [one, two]\n"
	s.Do(t, "PATCH", path+"alice", gatewayYAML(alice), apply).Expect(t, http.StatusCreated)
	bob := "  listeners:\n  - name: b\n    port: 81\n  hosts: [h2]\n"
	got := spec(s.Do(t, "PATCH", path+"bob", gatewayYAML(bob), apply).Expect(t, http.StatusOK).Map(t))
	if l := listenerNames(got); l != "a:80,b:81" {
		t.Errorf("map list entries of two managers: %s, want a:80,b:81", l)
	}
	if h := fmt.Sprint(got["hosts"]); h != "[h1 h2]" {
		t.Errorf("set of two managers: %s, want [h1 h2]", h)
	}

	// A conflict on a shared entry's field names it; force takes it.
	bobA := "  listeners:\n  - name: a\n    port: 8080\n  - name: b\n    port: 81\n  hosts: [h2]\n"
	st := s.Do(t, "PATCH", path+"bob", gatewayYAML(bobA), apply).ExpectStatus(t, http.StatusConflict, "Conflict")
	causes := st["details"].(map[string]any)["causes"].([]any)
	if len(causes) != 1 || causes[0].(map[string]any)["field"] != `.spec.listeners[name="a"].port` ||
		!strings.Contains(causes[0].(map[string]any)["message"].(string), `"alice"`) {
		t.Errorf("conflict causes %v, want one on .spec.listeners[name=\"a\"].port with alice", causes)
	}
	got = spec(s.Do(t, "PATCH", path+"bob&force=true", gatewayYAML(bobA), apply).Expect(t, http.StatusOK).Map(t))
	if l := listenerNames(got); l != "a:8080,b:81" {
		t.Errorf("forced listeners %s, want a:8080,b:81", l)
	}

	// An atomic list is owned whole: another manager's different list
	// conflicts on the list itself, not on an item.
	carol := "  args: [three]\n"
	st = s.Do(t, "PATCH", path+"carol", gatewayYAML(carol), apply).ExpectStatus(t, http.StatusConflict, "Conflict")
	causes = st["details"].(map[string]any)["causes"].([]any)
	if len(causes) != 1 || causes[0].(map[string]any)["field"] != ".spec.args" {
		t.Errorf("conflict causes %v, want one on .spec.args", causes)
	}
	got = spec(s.Do(t, "PATCH", path+"carol&force=true", gatewayYAML(carol), apply).Expect(t, http.StatusOK).Map(t))
	if a := fmt.Sprint(got["args"]); a != "[three]" {
		t.Errorf("forced atomic list %s, want [three]", a)
	}

	// alice stops applying hosts and listeners (and agrees on args):
	// h1 was hers alone and goes; listener a is bob's too since he
	// forced its port, and stays.
	got = spec(s.Do(t, "PATCH", path+"alice", gatewayYAML("  args: [three]\n"), apply).Expect(t, http.StatusOK).Map(t))
	if h := fmt.Sprint(got["hosts"]); h != "[h2]" {
		t.Errorf("hosts after alice dropped h1: %s, want [h2]", h)
	}
	if l := listenerNames(got); l != "a:8080,b:81" {
		t.Errorf("listeners after alice dropped hers: %s, want a:8080,b:81", l)
	}
	// bob drops listener a: nobody owns it now, so it goes.
	got = spec(s.Do(t, "PATCH", path+"bob", gatewayYAML("  listeners:\n  - name: b\n    port: 81\n  hosts: [h2]\n"), apply).Expect(t, http.StatusOK).Map(t))
	if l := listenerNames(got); l != "b:81" {
		t.Errorf("listeners after bob dropped a: %s, want b:81", l)
	}

	// A field the schema does not name is refused, as upstream.
	st = s.Do(t, "PATCH", path+"bob", gatewayYAML("  nope: 1\n"), apply).ExpectStatus(t, http.StatusBadRequest, "BadRequest")
	if msg, _ := st["message"].(string); !strings.Contains(msg, ".spec.nope: field not declared in schema") {
		t.Errorf("unknown field refused with %q", msg)
	}
}

// listenerNames renders spec.listeners as "name:port,...".
func listenerNames(spec map[string]any) string {
	var out []string
	items, _ := spec["listeners"].([]any)
	for _, it := range items {
		m := it.(map[string]any)
		out = append(out, fmt.Sprintf("%v:%v", m["name"], m["port"]))
	}
	return strings.Join(out, ",")
}

// TestServerSideApplyStatus: with the status subresource, an apply to
// /status owns status only, and an apply to the object does not own
// status: each part's fields come from the schema.
func TestServerSideApplyStatus(t *testing.T) {
	s := framework.Start(t)
	schema := gatewaySchema()
	schema["properties"].(map[string]any)["status"] = map[string]any{"type": "object", "properties": map[string]any{
		"ready": map[string]any{"type": "boolean"}}}
	crd := withSchema(definition("net.example.com", "gateways", "Gateway", "Namespaced"), schema)
	crd["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["subresources"] = map[string]any{"status": map[string]any{}}
	install(t, s, crd)
	path := "/apis/net.example.com/v1/namespaces/default/gateways/g"
	apply := framework.Header{"Content-Type": "application/apply-patch+yaml"}
	s.Do(t, "PATCH", path+"?fieldManager=user", gatewayYAML("  hosts: [h1]\nstatus:\n  ready: false\n"), apply).Expect(t, http.StatusCreated)
	got := s.Do(t, "PATCH", path+"/status?fieldManager=ctl", gatewayYAML("  hosts: [h2]\nstatus:\n  ready: true\n"), apply).Expect(t, http.StatusOK).Map(t)
	if h := fmt.Sprint(got["spec"].(map[string]any)["hosts"]); h != "[h1]" || got["status"].(map[string]any)["ready"] != true {
		t.Errorf("after the status apply: spec.hosts %s, status %v; want [h1] and ready", h, got["status"])
	}
	owned := map[string]string{}
	for _, e := range meta(got)["managedFields"].([]any) {
		e := e.(map[string]any)
		owned[fmt.Sprint(e["manager"], "/", e["subresource"])] = string(mustJSON(t, e["fieldsV1"]))
	}
	if f := owned["user/<nil>"]; !strings.Contains(f, "f:spec") || strings.Contains(f, "f:status") {
		t.Errorf("the object's applier owns %s, want spec and not status", f)
	}
	if f := owned["ctl/status"]; !strings.Contains(f, "f:status") || strings.Contains(f, "f:spec") {
		t.Errorf("the status applier owns %s, want status and not spec", f)
	}
}
