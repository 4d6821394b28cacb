package apiserver

import (
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/test/integration/framework"
)

// TestDiscovery: /api, /api/v1, /apis, /apis/<group>, /apis/<group>/<version>.
func TestDiscovery(t *testing.T) {
	s := framework.Start(t)
	api := s.Do(t, "GET", "/api", nil).Expect(t, http.StatusOK).Map(t)
	if api["kind"] != "APIVersions" || len(api["versions"].([]any)) != 1 {
		t.Fatalf("/api: %v", api)
	}
	groups := s.Do(t, "GET", "/apis", nil).Expect(t, http.StatusOK).Map(t)
	names := map[string]map[string]any{}
	for _, g := range groups["groups"].([]any) {
		gm := g.(map[string]any)
		names[gm["name"].(string)] = gm
	}
	for _, g := range []string{"apps", "batch", "autoscaling", "coordination.platform.io"} {
		if names[g] == nil {
			t.Fatalf("/apis lacks %s: %v", g, groups)
		}
	}
	if get(names["batch"], "preferredVersion", "version") != "v1" || len(names["batch"]["versions"].([]any)) != 2 {
		t.Fatalf("batch group: %v", names["batch"])
	}
	if get(names["autoscaling"], "preferredVersion", "version") != "v2" || len(names["autoscaling"]["versions"].([]any)) != 2 {
		t.Fatalf("autoscaling group: %v", names["autoscaling"])
	}
	s.Do(t, "GET", "/apis/batch", nil).Expect(t, http.StatusOK)
	s.Do(t, "GET", "/apis/nope", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
	want := map[string][]string{
		"/api/v1":                           {"pods", "pods/status", "pods/binding", "namespaces", "nodes", "services", "endpoints", "configmaps", "secrets", "events", "serviceaccounts"},
		"/apis/apps/v1":                     {"deployments", "deployments/scale", "deployments/status", "deployments/rollback", "replicasets/scale", "statefulsets/scale", "daemonsets"},
		"/apis/batch/v1":                    {"jobs", "cronjobs", "cronjobs/status"},
		"/apis/batch/v1beta1":               {"cronjobs"},
		"/apis/autoscaling/v2":              {"horizontalpodautoscalers", "horizontalpodautoscalers/status"},
		"/apis/autoscaling/v1":              {"horizontalpodautoscalers", "horizontalpodautoscalers/status"},
		"/apis/coordination.platform.io/v1": {"leases"},
		"/apis/scheduling.platform.io/v1":   {"priorityclasses"},
		"/apis/scheduling.k8s.io/v1":        {"priorityclasses"},
	}
	for path, resources := range want {
		list := s.Do(t, "GET", path, nil).Expect(t, http.StatusOK).Map(t)
		byName := map[string]map[string]any{}
		for _, r := range list["resources"].([]any) {
			rm := r.(map[string]any)
			byName[rm["name"].(string)] = rm
		}
		for _, r := range resources {
			if byName[r] == nil {
				t.Errorf("%s lacks %s", path, r)
			}
		}
	}
	pods := s.Do(t, "GET", "/api/v1", nil).Map(t)
	for _, r := range pods["resources"].([]any) {
		rm := r.(map[string]any)
		if rm["name"] != "pods" {
			continue
		}
		verbs := strings.Trim(strings.Join(toStrings(rm["verbs"]), ","), ",")
		if verbs != "create,delete,deletecollection,get,list,patch,update,watch" || toStrings(rm["shortNames"])[0] != "po" || toStrings(rm["categories"])[0] != "all" {
			t.Fatalf("pods discovery: %v", rm)
		}
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestHealthMetricsVersion: /healthz, /livez, /readyz (with the etcd check),
// /metrics and /version.
func TestHealthMetricsVersion(t *testing.T) {
	s := framework.Start(t)
	for _, p := range []string{"/healthz", "/livez", "/readyz"} {
		if r := s.Do(t, "GET", p, nil).Expect(t, http.StatusOK); string(r.Body) != "ok" {
			t.Fatalf("%s: %q", p, r.Body)
		}
	}
	if r := s.Do(t, "GET", "/readyz?verbose", nil).Expect(t, http.StatusOK); !strings.Contains(string(r.Body), "[+]etcd ok") {
		t.Fatalf("/readyz?verbose: %s", r.Body)
	}
	s.Do(t, "GET", "/api/v1/namespaces/default", nil).Expect(t, http.StatusOK)
	s.Do(t, "GET", "/api/v1/namespaces/nope", nil).Expect(t, http.StatusNotFound)
	metrics := string(s.Do(t, "GET", "/metrics", nil).Expect(t, http.StatusOK).Body)
	for _, want := range []string{
		`apiserver_request_total{code="200",group="",resource="namespaces",subresource="",verb="get",version="v1"}`,
		`apiserver_request_total{code="404",group="",resource="namespaces",subresource="",verb="get",version="v1"}`,
		`apiserver_request_duration_seconds_bucket{code="200"`,
		`storage_operation_duration_seconds_bucket{operation="get"`,
		`apiserver_storage_objects{resource="namespaces"}`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	v := s.Do(t, "GET", "/version", nil).Expect(t, http.StatusOK).Map(t)
	if v["major"] != "1" || v["gitVersion"] == "" {
		t.Fatalf("/version: %v", v)
	}
}
