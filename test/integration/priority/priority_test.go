package priority

import (
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

const api = "/apis/scheduling.platform.io/v1/priorityclasses"

func class(name string, value int, globalDefault bool) map[string]any {
	return map[string]any{"apiVersion": "scheduling.platform.io/v1", "kind": "PriorityClass",
		"metadata": map[string]any{"name": name}, "value": value, "globalDefault": globalDefault}
}

func pod(name, className string, priority *int) map[string]any {
	spec := map[string]any{"containers": []map[string]any{{"name": "c", "image": "busybox"}}}
	if className != "" {
		spec["priorityClassName"] = className
	}
	if priority != nil {
		spec["priority"] = *priority
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": name}, "spec": spec}
}

func spec(t *testing.T, r framework.Response) (className string, priority float64, policy string) {
	t.Helper()
	var p struct {
		Spec struct {
			PriorityClassName string   `json:"priorityClassName"`
			Priority          *float64 `json:"priority"`
			PreemptionPolicy  string   `json:"preemptionPolicy"`
		}
	}
	r.Into(t, &p)
	if p.Spec.Priority == nil {
		t.Fatalf("pod has no spec.priority: %s", r.Body)
	}
	return p.Spec.PriorityClassName, *p.Spec.Priority, p.Spec.PreemptionPolicy
}

// TestSystemClasses: the server creates the built-in classes at start,
// they survive a restart, and no one can delete or change them.
func TestSystemClasses(t *testing.T) {
	s := framework.Start(t)
	for name, value := range map[string]float64{"system-node-critical": 2000001000, "system-cluster-critical": 2000000000} {
		pc := s.Do(t, "GET", api+"/"+name, nil).Expect(t, http.StatusOK).Map(t)
		if pc["value"] != value || pc["preemptionPolicy"] != "PreemptLowerPriority" || pc["globalDefault"] != nil {
			t.Errorf("%s: %v", name, pc)
		}
		st := s.Do(t, "DELETE", api+"/"+name, nil).ExpectStatus(t, http.StatusForbidden, "Forbidden")
		if want := `priorityclasses.scheduling.platform.io "` + name + `" is forbidden: this is a system priority class and cannot be deleted`; st["message"] != want {
			t.Errorf("delete message %q, want %q", st["message"], want)
		}
		s.Do(t, "PATCH", api+"/"+name, `{"description":"mine"}`, framework.Header{"Content-Type": "application/merge-patch+json"}).
			ExpectStatus(t, http.StatusForbidden, "Forbidden")
		s.Do(t, "PATCH", api+"/"+name, `{"value":5}`, framework.Header{"Content-Type": "application/merge-patch+json"}).
			ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
		// Metadata may change.
		s.Do(t, "PATCH", api+"/"+name, `{"metadata":{"labels":{"team":"infra"}}}`, framework.Header{"Content-Type": "application/merge-patch+json"}).
			Expect(t, http.StatusOK)
	}
	// The names are reserved.
	st := s.Do(t, "POST", api, class("system-mine", 10, false)).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	if msg, _ := st["message"].(string); !strings.Contains(msg, "priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class") {
		t.Errorf("reserved name message %q", msg)
	}

	// After a restart on the same data both are still there, unchanged.
	s.Stop()
	s2 := framework.Start(t, framework.SamePrefix(s))
	pc := s2.Do(t, "GET", api+"/system-node-critical", nil).Expect(t, http.StatusOK).Map(t)
	if pc["value"] != float64(2000001000) {
		t.Errorf("after restart: %v", pc)
	}
}

// TestUserClasses: validation of user classes, served under both group
// names, with upstream's table columns.
func TestUserClasses(t *testing.T) {
	s := framework.Start(t)
	st := s.Do(t, "POST", api, class("huge", 1000000001, false)).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	if msg, _ := st["message"].(string); !strings.Contains(msg, "maximum allowed value of a user defined priority is 1000000000") {
		t.Errorf("message %q", msg)
	}
	s.Do(t, "POST", api, class("high", 1000, false)).Expect(t, http.StatusCreated)
	s.Do(t, "PATCH", api+"/high", `{"value":2000}`, framework.Header{"Content-Type": "application/merge-patch+json"}).
		ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	s.Do(t, "PATCH", api+"/high", `{"preemptionPolicy":"Never"}`, framework.Header{"Content-Type": "application/merge-patch+json"}).
		ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	s.Do(t, "POST", api, map[string]any{"metadata": map[string]any{"name": "odd"}, "value": 1, "preemptionPolicy": "Sometimes"}).
		ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")

	// The upstream group name serves the same objects.
	got := s.Do(t, "GET", "/apis/scheduling.k8s.io/v1/priorityclasses/high", nil).Expect(t, http.StatusOK).Map(t)
	if got["apiVersion"] != "scheduling.k8s.io/v1" || got["value"] != float64(1000) {
		t.Errorf("under scheduling.k8s.io: %v", got)
	}

	var tbl struct {
		ColumnDefinitions []struct{ Name string }
		Rows              []struct{ Cells []any }
	}
	s.Do(t, "GET", api, nil, framework.Header{"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io"}).Expect(t, http.StatusOK).Into(t, &tbl)
	var cols []string
	for _, c := range tbl.ColumnDefinitions {
		cols = append(cols, c.Name)
	}
	if strings.Join(cols, ",") != "Name,Value,Global-Default,Age,PreemptionPolicy" || len(tbl.Rows) != 3 {
		t.Fatalf("columns %v, %d rows", cols, len(tbl.Rows))
	}
	if c := tbl.Rows[0].Cells; c[0] != "high" || c[1] != float64(1000) || c[2] != false || c[4] != "PreemptLowerPriority" {
		t.Errorf("row %v", c)
	}
}

// TestPodPriority: pods get their class's priority and policy, the global
// default's when they name none, and 0 with no default; unknown classes
// and pods that pick their own priority are refused.
func TestPodPriority(t *testing.T) {
	s := framework.Start(t)
	pods := "/api/v1/namespaces/default/pods"
	never := class("batch", -5, false)
	never["preemptionPolicy"], never["apiVersion"] = "Never", "scheduling.k8s.io/v1"
	s.Do(t, "POST", api, class("high", 1000, false)).Expect(t, http.StatusCreated)
	s.Do(t, "POST", "/apis/scheduling.k8s.io/v1/priorityclasses", never).Expect(t, http.StatusCreated)

	if c, p, pol := spec(t, s.Do(t, "POST", pods, pod("none", "", nil)).Expect(t, http.StatusCreated)); c != "" || p != 0 || pol != "PreemptLowerPriority" {
		t.Errorf("no class, no default: %q %v %s", c, p, pol)
	}
	if c, p, pol := spec(t, s.Do(t, "POST", pods, pod("hi", "high", nil)).Expect(t, http.StatusCreated)); c != "high" || p != 1000 || pol != "PreemptLowerPriority" {
		t.Errorf("high: %q %v %s", c, p, pol)
	}
	if c, p, pol := spec(t, s.Do(t, "POST", pods, pod("b", "batch", nil)).Expect(t, http.StatusCreated)); c != "batch" || p != -5 || pol != "Never" {
		t.Errorf("batch: %q %v %s", c, p, pol)
	}
	if _, p, _ := spec(t, s.Do(t, "POST", "/api/v1/namespaces/platform-system/pods", pod("crit", "system-cluster-critical", nil)).Expect(t, http.StatusCreated)); p != 2000000000 {
		t.Errorf("system-cluster-critical: %v", p)
	}

	st := s.Do(t, "POST", pods, pod("x", "nope", nil)).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	if want := `pods "x" is forbidden: no PriorityClass with name nope was found`; st["message"] != want {
		t.Errorf("unknown class: %q, want %q", st["message"], want)
	}
	five, thousand := 5, 1000
	s.Do(t, "POST", pods, pod("self", "high", &five)).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "POST", pods, pod("same", "high", &thousand)).Expect(t, http.StatusCreated)
	// A dry run is admitted the same way and stores nothing.
	if _, p, _ := spec(t, s.Do(t, "POST", pods+"?dryRun=All", pod("dry", "high", nil)).Expect(t, http.StatusCreated)); p != 1000 {
		t.Errorf("dry run: %v", p)
	}
	s.Do(t, "GET", pods+"/dry", nil).Expect(t, http.StatusNotFound)

	// An update that leaves the priority out keeps it.
	var hi map[string]any
	s.Do(t, "GET", pods+"/hi", nil).Expect(t, http.StatusOK).Into(t, &hi)
	delete(hi["spec"].(map[string]any), "priority")
	delete(hi["spec"].(map[string]any), "preemptionPolicy")
	hi["metadata"].(map[string]any)["labels"] = map[string]any{"x": "y"}
	if _, p, _ := spec(t, s.Do(t, "PUT", pods+"/hi", hi).Expect(t, http.StatusOK)); p != 1000 {
		t.Errorf("after update: %v", p)
	}

	// One global default: the second is refused, and pods without a
	// class get the first one's value.
	s.Do(t, "POST", api, class("def", 7, true)).Expect(t, http.StatusCreated)
	st = s.Do(t, "POST", api, class("def2", 8, true)).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	if want := `priorityclasses.scheduling.platform.io "def2" is forbidden: PriorityClass def is already marked as default. Only one default can exist`; st["message"] != want {
		t.Errorf("second default: %q, want %q", st["message"], want)
	}
	s.Do(t, "PATCH", api+"/high", `{"globalDefault":true}`, framework.Header{"Content-Type": "application/merge-patch+json"}).
		ExpectStatus(t, http.StatusForbidden, "Forbidden")
	// The server reads its own writes: the very next pod create sees a new
	// default, a changed one and a deleted one.
	if c, p, _ := spec(t, s.Do(t, "POST", pods, pod("d", "", nil)).Expect(t, http.StatusCreated)); c != "def" || p != 7 {
		t.Errorf("pod right after the default was made: %q %v, want def 7", c, p)
	}
	s.Do(t, "PATCH", api+"/def", `{"globalDefault":false}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	s.Do(t, "PATCH", api+"/high", `{"globalDefault":true}`, framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	if c, p, _ := spec(t, s.Do(t, "POST", pods, pod("d2", "", nil)).Expect(t, http.StatusCreated)); c != "high" || p != 1000 {
		t.Errorf("pod right after the default moved: %q %v, want high 1000", c, p)
	}
	s.Do(t, "DELETE", api+"/high", nil).Expect(t, http.StatusOK)
	if c, p, _ := spec(t, s.Do(t, "POST", pods, pod("d3", "", nil)).Expect(t, http.StatusCreated)); c != "" || p != 0 {
		t.Errorf("pod right after the default was deleted: %q %v, want no class, 0", c, p)
	}
}

// TestPluginOff: with --disable-admission-plugins=Priority pods are stored
// as sent, and nothing guards the built-in classes but their validation.
func TestPluginOff(t *testing.T) {
	s := framework.Start(t, func(o *options.Options) { o.Admission.Disable = []string{"Priority"} })
	five := 5
	r := s.Do(t, "POST", "/api/v1/namespaces/default/pods", pod("self", "nope", &five)).Expect(t, http.StatusCreated)
	if c, p, _ := spec(t, r); c != "nope" || p != 5 {
		t.Errorf("pod stored as %q %v", c, p)
	}
	s.Do(t, "POST", api, class("def", 1, true)).Expect(t, http.StatusCreated)
	s.Do(t, "POST", api, class("def2", 2, true)).Expect(t, http.StatusCreated)
	s.Do(t, "PATCH", api+"/system-node-critical", `{"value":5}`, framework.Header{"Content-Type": "application/merge-patch+json"}).
		ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
}
