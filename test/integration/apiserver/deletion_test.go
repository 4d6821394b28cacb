package apiserver

import (
	"net/http"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestStatesAndTransitions_Finalizers: the first delete of an object with
// finalizers sets deletionTimestamp and returns the object; removing one
// finalizer keeps it; removing the last removes it. A second delete does
// not move the timestamp, and no finalizer may be added meanwhile.
func TestStatesAndTransitions_Finalizers(t *testing.T) {
	s := framework.Start(t)
	cm := "/api/v1/namespaces/default/configmaps"
	s.Do(t, "POST", cm, `{"metadata":{"name":"f","finalizers":["example.com/a","example.com/b"]}}`).Expect(t, http.StatusCreated)
	first := s.Do(t, "DELETE", cm+"/f", nil).Expect(t, http.StatusOK).Map(t)
	ts := get(first, "metadata", "deletionTimestamp")
	if first["kind"] != "ConfigMap" || ts == nil || get(first, "metadata", "deletionGracePeriodSeconds") != float64(0) {
		t.Fatalf("first delete returned %v", first)
	}
	time.Sleep(1100 * time.Millisecond)
	second := s.Do(t, "DELETE", cm+"/f", nil).Expect(t, http.StatusOK).Map(t)
	if get(second, "metadata", "deletionTimestamp") != ts {
		t.Fatalf("second delete moved the timestamp: %v -> %v", ts, get(second, "metadata", "deletionTimestamp"))
	}
	s.Do(t, "PATCH", cm+"/f", `{"metadata":{"finalizers":["example.com/a","example.com/b","example.com/c"]}}`, mergePatch).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
	s.Do(t, "PATCH", cm+"/f", `{"metadata":{"finalizers":["example.com/b"]}}`, mergePatch).Expect(t, http.StatusOK)
	s.Do(t, "GET", cm+"/f", nil).Expect(t, http.StatusOK)
	s.Do(t, "PATCH", cm+"/f", `{"metadata":{"finalizers":[]}}`, mergePatch).Expect(t, http.StatusOK)
	s.Do(t, "GET", cm+"/f", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
}

// TestDeletion_PropagationFinalizers: Orphan adds "orphan", Foreground adds
// "foregroundDeletion", orphanDependents=false answers 202.
func TestDeletion_PropagationFinalizers(t *testing.T) {
	s := framework.Start(t)
	cm := "/api/v1/namespaces/default/configmaps"
	cases := []struct {
		name, query, body, finalizer string
		code                         int
	}{
		{"orphan", "?propagationPolicy=Orphan", "", "orphan", http.StatusOK},
		{"foreground", "", `{"propagationPolicy":"Foreground"}`, "foregroundDeletion", http.StatusOK},
		{"orphan-dependents", "?orphanDependents=true", "", "orphan", http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.Do(t, "POST", cm, `{"metadata":{"name":"`+c.name+`"}}`).Expect(t, http.StatusCreated)
			var body any
			if c.body != "" {
				body = c.body
			}
			obj := s.Do(t, "DELETE", cm+"/"+c.name+c.query, body).Expect(t, c.code).Map(t)
			fs, _ := get(obj, "metadata", "finalizers").([]any)
			if len(fs) != 1 || fs[0] != c.finalizer || get(obj, "metadata", "deletionTimestamp") == nil {
				t.Fatalf("after delete: %v", obj["metadata"])
			}
		})
	}
	// A cascading delete of an object whose deletion is pending answers 202.
	s.Do(t, "POST", cm, `{"metadata":{"name":"held","finalizers":["example.com/x"]}}`).Expect(t, http.StatusCreated)
	s.Do(t, "DELETE", cm+"/held?orphanDependents=false", nil).Expect(t, http.StatusAccepted)
	// Background removes the garbage collector's finalizers again.
	obj := s.Do(t, "DELETE", cm+"/orphan?propagationPolicy=Background", nil).Map(t)
	if obj["kind"] != "Status" || obj["status"] != "Success" {
		t.Fatalf("background delete of an orphan-held object: %v", obj)
	}
}

// TestDeletion_PodGracePeriod: an unscheduled pod goes at once; a bound pod
// waits out its grace period until its node (or anyone) deletes with 0.
func TestDeletion_PodGracePeriod(t *testing.T) {
	s := framework.Start(t)
	pods := "/api/v1/namespaces/default/pods"
	s.Do(t, "POST", pods, samples[1].object("free", "default")).Expect(t, http.StatusCreated)
	s.Do(t, "DELETE", pods+"/free", nil).Expect(t, http.StatusOK)
	s.Do(t, "GET", pods+"/free", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")

	s.Do(t, "POST", pods, samples[1].object("bound", "default")).Expect(t, http.StatusCreated)
	s.Do(t, "POST", pods+"/bound/binding", `{"metadata":{"name":"bound"},"target":{"kind":"Node","name":"n1"}}`).Expect(t, http.StatusCreated)
	obj := s.Do(t, "DELETE", pods+"/bound", nil).Expect(t, http.StatusOK).Map(t)
	if get(obj, "metadata", "deletionGracePeriodSeconds") != float64(30) {
		t.Fatalf("grace period: %v", obj["metadata"])
	}
	ts, _ := time.Parse(time.RFC3339, get(obj, "metadata", "deletionTimestamp").(string))
	if d := time.Until(ts); d < 25*time.Second || d > 31*time.Second {
		t.Fatalf("deletionTimestamp %v is not 30s ahead", ts)
	}
	// A shorter grace period moves the deadline earlier.
	obj = s.Do(t, "DELETE", pods+"/bound?gracePeriodSeconds=10", nil).Expect(t, http.StatusOK).Map(t)
	if get(obj, "metadata", "deletionGracePeriodSeconds") != float64(10) {
		t.Fatalf("shortened grace period: %v", obj["metadata"])
	}
	s.Do(t, "GET", pods+"/bound", nil).Expect(t, http.StatusOK)
	s.Do(t, "DELETE", pods+"/bound", `{"gracePeriodSeconds":0}`).Expect(t, http.StatusOK)
	s.Do(t, "GET", pods+"/bound", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
	s.Do(t, "DELETE", pods+"/x?gracePeriodSeconds=-1", nil).ExpectStatus(t, http.StatusUnprocessableEntity, "Invalid")
}

// TestDeletion_NamespaceTerminating: a deleted namespace is Terminating with
// the platform finalizer until /finalize clears it.
func TestDeletion_NamespaceTerminating(t *testing.T) {
	s := framework.Start(t)
	createNamespace(t, s, "term")
	ns := s.Do(t, "DELETE", "/api/v1/namespaces/term", nil).Expect(t, http.StatusOK).Map(t)
	fs, _ := get(ns, "spec", "finalizers").([]any)
	if get(ns, "status", "phase") != "Terminating" || len(fs) != 1 || fs[0] != "platform" {
		t.Fatalf("deleted namespace: %v", ns)
	}
	s.Do(t, "POST", "/api/v1/namespaces/term/configmaps", `{"metadata":{"name":"x"}}`).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	// spec.finalizers cannot be changed by an ordinary update.
	s.Do(t, "PATCH", "/api/v1/namespaces/term", `{"spec":{"finalizers":[]}}`, mergePatch).Expect(t, http.StatusOK)
	s.Do(t, "GET", "/api/v1/namespaces/term", nil).Expect(t, http.StatusOK)
	s.Do(t, "POST", "/api/v1/namespaces/term/finalize", `{}`).ExpectStatus(t, http.StatusMethodNotAllowed, "MethodNotAllowed")
	cur := s.Do(t, "GET", "/api/v1/namespaces/term", nil).Map(t)
	cur["spec"] = map[string]any{"finalizers": []any{}}
	s.Do(t, "PUT", "/api/v1/namespaces/term/finalize", cur).Expect(t, http.StatusOK)
	s.Do(t, "GET", "/api/v1/namespaces/term", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
}
