package apiserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestServerSetMetadata: uid, creationTimestamp, resourceVersion, selfLink
// are set by the server; generation starts at 1 and moves only with spec.
func TestServerSetMetadata(t *testing.T) {
	s := framework.Start(t)
	base := "/apis/apps/v1/namespaces/default/deployments"
	body := `{"metadata":{"name":"md","uid":"client-uid","resourceVersion":"42","generation":9,"creationTimestamp":"2001-01-01T00:00:00Z","selfLink":"/bogus"},` +
		`"spec":{"replicas":1,"selector":{"matchLabels":{"app":"x"}},"template":` + templ(`{"app":"x"}`) + `}}`
	obj := s.Do(t, "POST", base, body).Expect(t, http.StatusCreated).Map(t)
	m := metaOf(obj)
	if m["uid"] == "client-uid" || m["uid"] == "" || m["resourceVersion"] == "42" || m["generation"] != float64(1) {
		t.Fatalf("server-set fields: %v", m)
	}
	ts, err := time.Parse(time.RFC3339, m["creationTimestamp"].(string))
	if err != nil || time.Since(ts) > time.Minute {
		t.Fatalf("creationTimestamp %v", m["creationTimestamp"])
	}
	if m["selfLink"] != base+"/md" {
		t.Fatalf("selfLink %v", m["selfLink"])
	}
	// A label change does not move generation; a spec change does.
	obj = s.Do(t, "PATCH", base+"/md", `{"metadata":{"labels":{"x":"y"}}}`, mergePatch).Expect(t, http.StatusOK).Map(t)
	if metaOf(obj)["generation"] != float64(1) {
		t.Fatalf("generation after label change: %v", metaOf(obj)["generation"])
	}
	obj = s.Do(t, "PATCH", base+"/md", `{"spec":{"replicas":3}}`, mergePatch).Expect(t, http.StatusOK).Map(t)
	if metaOf(obj)["generation"] != float64(2) {
		t.Fatalf("generation after spec change: %v", metaOf(obj)["generation"])
	}
	// uid and creationTimestamp cannot be changed by an update.
	obj["metadata"].(map[string]any)["uid"] = "other"
	s.Do(t, "PUT", base+"/md", obj).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	// A write that changes nothing keeps the resourceVersion.
	cur := s.Do(t, "GET", base+"/md", nil).Map(t)
	again := s.Do(t, "PUT", base+"/md", cur).Expect(t, http.StatusOK).Map(t)
	if metaOf(again)["resourceVersion"] != metaOf(cur)["resourceVersion"] {
		t.Fatalf("no-op replace moved resourceVersion %v -> %v", metaOf(cur)["resourceVersion"], metaOf(again)["resourceVersion"])
	}
}

// TestGenerateName: a random suffix is appended to generateName.
func TestGenerateName(t *testing.T) {
	s := framework.Start(t)
	seen := map[string]bool{}
	for i := 0; i < 5; i++ {
		obj := s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"generateName":"gen-"}}`).Expect(t, http.StatusCreated).Map(t)
		name := metaOf(obj)["name"].(string)
		if !strings.HasPrefix(name, "gen-") || len(name) != len("gen-")+5 || seen[name] {
			t.Fatalf("generated name %q", name)
		}
		seen[name] = true
	}
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"generateName":"Bad_"}}`).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
}

// TestPodImmutability: a container's image may change, its other fields may not.
func TestPodImmutability(t *testing.T) {
	s := framework.Start(t)
	pods := "/api/v1/namespaces/default/pods"
	s.Do(t, "POST", pods, samples[1].object("im", "default")).Expect(t, http.StatusCreated)
	s.Do(t, "PATCH", pods+"/im", `{"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}`, strategicPatch).Expect(t, http.StatusOK)
	s.Do(t, "PATCH", pods+"/im", `{"spec":{"containers":[{"name":"app","workingDir":"/tmp"}]}}`, strategicPatch).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	s.Do(t, "PATCH", pods+"/im", `[{"op":"replace","path":"/spec/containers/0/name","value":"renamed"}]`, jsonPatch).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	pod := s.Do(t, "GET", pods+"/im", nil).Map(t)
	c := pod["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
	if c["image"] != "nginx:1.27" || c["name"] != "app" || c["workingDir"] != nil {
		t.Fatalf("container after updates: %v", c)
	}
}

// TestNamespaceRules: objects in a missing namespace are 404, in a
// namespace being deleted 403.
func TestNamespaceRules(t *testing.T) {
	s := framework.Start(t)
	s.Do(t, "POST", "/api/v1/namespaces", `{"metadata":{"name":"going","finalizers":["example.com/hold"]}}`).Expect(t, http.StatusCreated)
	ns := s.Do(t, "DELETE", "/api/v1/namespaces/going", nil).Expect(t, http.StatusOK).Map(t)
	if get(ns, "status", "phase") != "Terminating" || get(ns, "metadata", "deletionTimestamp") == nil {
		t.Fatalf("namespace after delete: %v", ns)
	}
	s.Do(t, "POST", "/api/v1/namespaces/going/configmaps", `{"metadata":{"name":"x"}}`).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "POST", "/api/v1/namespaces/gone/configmaps", `{"metadata":{"name":"x"}}`).ExpectStatus(t, http.StatusNotFound, "NotFound")
	// Removing the last finalizer of both kinds removes the namespace.
	s.Do(t, "PATCH", "/api/v1/namespaces/going", `{"metadata":{"finalizers":null}}`, mergePatch).Expect(t, http.StatusOK)
	ns = s.Do(t, "GET", "/api/v1/namespaces/going", nil).Expect(t, http.StatusOK).Map(t)
	ns["spec"] = map[string]any{}
	s.Do(t, "PUT", "/api/v1/namespaces/going/finalize", ns).Expect(t, http.StatusOK)
	s.Do(t, "GET", "/api/v1/namespaces/going", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
}

// TestSystemNamespaces: the four namespaces exist after start.
func TestSystemNamespaces(t *testing.T) {
	s := framework.Start(t)
	for _, ns := range []string{"default", "platform-system", "platform-public", "platform-node-lease"} {
		obj := s.Do(t, "GET", "/api/v1/namespaces/"+ns, nil).Expect(t, http.StatusOK).Map(t)
		if get(obj, "status", "phase") != "Active" {
			t.Errorf("%s: %v", ns, obj["status"])
		}
	}
}

// TestGetParameters: pretty, export, exact and includeUninitialized.
func TestGetParameters(t *testing.T) {
	s := framework.Start(t)
	cm := "/api/v1/namespaces/default/configmaps"
	s.Do(t, "POST", cm+"?includeUninitialized=true", `{"metadata":{"name":"p","labels":{"a":"b"}},"data":{"k":"v"}}`).Expect(t, http.StatusCreated)
	pretty := s.Do(t, "GET", cm+"/p?pretty=true", nil).Expect(t, http.StatusOK).Body
	if !strings.Contains(string(pretty), "\n  \"metadata\": {") {
		t.Fatalf("pretty output not indented:\n%s", pretty)
	}
	plain := s.Do(t, "GET", cm+"/p", nil).Expect(t, http.StatusOK).Body
	if strings.Count(string(plain), "\n") > 1 {
		t.Fatalf("default output is indented")
	}
	exp := s.Do(t, "GET", cm+"/p?export=true", nil).Expect(t, http.StatusOK).Map(t)
	m := metaOf(exp)
	if m["uid"] != nil || m["resourceVersion"] != nil || m["creationTimestamp"] != nil || m["namespace"] != nil || m["selfLink"] != nil {
		t.Fatalf("export kept cluster-specific fields: %v", m)
	}
	exact := metaOf(s.Do(t, "GET", cm+"/p?export=true&exact=true", nil).Expect(t, http.StatusOK).Map(t))
	if exact["namespace"] != "default" || exact["uid"] != nil {
		t.Fatalf("exact export: %v", exact)
	}
	s.Do(t, "GET", cm+"?includeUninitialized=true", nil).Expect(t, http.StatusOK)
}

// TestDryRunCreate: dryRun=All returns the object with 201 and stores nothing.
func TestDryRunCreate(t *testing.T) {
	s := framework.Start(t)
	cm := "/api/v1/namespaces/default/configmaps"
	obj := s.Do(t, "POST", cm+"?dryRun=All", `{"metadata":{"name":"dry"},"data":{"k":"v"}}`).Expect(t, http.StatusCreated).Map(t)
	if metaOf(obj)["name"] != "dry" || get(obj, "data", "k") != "v" {
		t.Fatalf("dry-run create returned %v", obj)
	}
	s.Do(t, "GET", cm+"/dry", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
}
