package apiserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestDryRun_AllVerbs_NothingPersistedNoWatchEvent: dryRun=All on create,
// replace, patch, delete and delete collection answers with the normal code
// and object, stores nothing and sends no watch event.
func TestDryRun_AllVerbs_NothingPersistedNoWatchEvent(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "dry")
		coll := "/api/v1/namespaces/dry/configmaps"
		pods := "/api/v1/namespaces/dry/pods"
		s.Do(t, "POST", coll, cm("exists", `{"app":"x"}`, "v")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", coll, cm("other", `{"app":"y"}`, "v")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", pods, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`).Expect(t, http.StatusCreated)
		before := s.Do(t, "GET", coll+"/exists", nil).Expect(t, http.StatusOK).Body
		podBefore := s.Do(t, "GET", pods+"/p", nil).Expect(t, http.StatusOK).Body
		rv := listRV(t, s, coll)
		w := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv))
		wp := mustWatch(t, s, pods+q("watch", "true", "resourceVersion", rv))
		dry := "?dryRun=All"

		// Create: 201 and the object; not stored.
		out := s.Do(t, "POST", coll+dry, cm("new", "", "n")).Expect(t, http.StatusCreated).Map(t)
		if out["kind"] != "ConfigMap" || metaOf(out)["name"] != "new" || get(out, "data", "k") != "n" || metaOf(out)["creationTimestamp"] == nil {
			t.Fatalf("dry-run create returned %v", out)
		}
		s.Do(t, "GET", coll+"/new", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
		gen := s.Do(t, "POST", coll+dry, `{"metadata":{"generateName":"gen-"}}`).Expect(t, http.StatusCreated).Map(t)
		if name, _ := metaOf(gen)["name"].(string); !strings.HasPrefix(name, "gen-") || len(name) <= 4 {
			t.Fatalf("dry-run create with generateName: name %q", name)
		}
		// A dry-run create of an existing name still conflicts.
		if r := s.Do(t, "POST", coll+dry, cm("exists", "", "x")); r.Code != http.StatusConflict || r.Map(t)["reason"] != "AlreadyExists" {
			t.Errorf("dry-run create of an existing name: HTTP %d %.300s, want 409 AlreadyExists", r.Code, r.Body)
		}
		// And an invalid object is still rejected.
		s.Do(t, "POST", coll+dry, `{"metadata":{"name":"Bad_Name"}}`).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")

		// Replace: 200 and the changed object; not stored.
		cur := s.Do(t, "GET", coll+"/exists", nil).Map(t)
		cur["data"] = map[string]any{"k": "replaced"}
		out = s.Do(t, "PUT", coll+"/exists"+dry, cur).Expect(t, http.StatusOK).Map(t)
		if get(out, "data", "k") != "replaced" {
			t.Fatalf("dry-run replace returned %v", out)
		}

		// Patch: 200 and the patched object; not stored.
		out = s.Do(t, "PATCH", coll+"/exists"+dry, `{"data":{"k":"patched"}}`, mergePatch).Expect(t, http.StatusOK).Map(t)
		if get(out, "data", "k") != "patched" {
			t.Fatalf("dry-run patch returned %v", out)
		}
		s.Do(t, "PATCH", coll+"/exists"+dry, `[{"op":"replace","path":"/data/k","value":"jp"}]`, jsonPatch).Expect(t, http.StatusOK)

		// Delete: 200; still there.
		s.Do(t, "DELETE", coll+"/exists"+dry, nil).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", coll+"/exists", `{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"]}`).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", pods+"/p"+dry, nil).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", pods+"/p"+dry+"&gracePeriodSeconds=0", nil).Expect(t, http.StatusOK)

		// Delete collection, with and without a selector: 200; all still there.
		s.Do(t, "DELETE", coll+dry, nil).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", coll+dry+"&labelSelector=app%3Dx", nil).Expect(t, http.StatusOK)
		s.Do(t, "DELETE", pods+dry, nil).Expect(t, http.StatusOK)

		if after := s.Do(t, "GET", coll+"/exists", nil).Expect(t, http.StatusOK).Body; string(after) != string(before) {
			t.Fatalf("dry runs changed the object:\nbefore %s\nafter  %s", before, after)
		}
		if after := s.Do(t, "GET", pods+"/p", nil).Expect(t, http.StatusOK).Body; string(after) != string(podBefore) {
			t.Fatalf("dry runs changed the pod:\nbefore %s\nafter  %s", podBefore, after)
		}
		if names, _, _ := list(t, s, coll); !sameNames(names, []string{"exists", "other"}) {
			t.Fatalf("after dry runs: %v, want [exists other]", names)
		}

		// No watch event came from the dry runs: the next is a real change.
		s.Do(t, "POST", coll, cm("sentinel", "", "s")).Expect(t, http.StatusCreated)
		w.Expect("ADDED", "sentinel")
		w.ExpectNothing(200 * time.Millisecond)
		s.Do(t, "PATCH", pods+"/p", `{"metadata":{"labels":{"real":"yes"}}}`, mergePatch).Expect(t, http.StatusOK)
		wp.Expect("MODIFIED", "p")
		wp.ExpectNothing(200 * time.Millisecond)
	})
}

// TestDryRun_ClusterScopedAndNamespaces: dry-run creates of a namespace and
// a node store nothing, and a dry-run delete of a namespace leaves it Active.
func TestDryRun_ClusterScopedAndNamespaces(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	s.Do(t, "POST", "/api/v1/namespaces?dryRun=All", `{"metadata":{"name":"dry-ns"}}`).Expect(t, http.StatusCreated)
	s.Do(t, "GET", "/api/v1/namespaces/dry-ns", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
	s.Do(t, "POST", "/api/v1/namespaces/dry-ns/configmaps", cm("x", "", "1")).ExpectStatus(t, http.StatusNotFound, "NotFound")
	s.Do(t, "POST", "/api/v1/nodes?dryRun=All", `{"metadata":{"name":"dry-node"}}`).Expect(t, http.StatusCreated)
	s.Do(t, "GET", "/api/v1/nodes/dry-node", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
	createNamespace(t, s, "keep-ns")
	s.Do(t, "DELETE", "/api/v1/namespaces/keep-ns?dryRun=All", nil).Expect(t, http.StatusOK)
	ns := s.Do(t, "GET", "/api/v1/namespaces/keep-ns", nil).Expect(t, http.StatusOK).Map(t)
	if get(ns, "status", "phase") != "Active" || metaOf(ns)["deletionTimestamp"] != nil {
		t.Fatalf("namespace after dry-run delete: %v", ns)
	}
}
