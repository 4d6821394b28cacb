package fencing

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/client/leaderelection"
	"platform.io/client/rest"

	"platform.io/platform/test/integration/framework"
)

const ns = "default"

// putLease creates or replaces the Lease ns/name.
func putLease(t *testing.T, s *framework.Server, name, holder string, transitions int, renewed time.Time, seconds int) {
	t.Helper()
	lease := map[string]any{
		"apiVersion": "coordination.platform.io/v1", "kind": "Lease",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec": map[string]any{
			"holderIdentity": holder, "leaseTransitions": transitions, "leaseDurationSeconds": seconds,
			"renewTime": renewed.UTC().Format("2006-01-02T15:04:05.000000Z"),
		},
	}
	path := "/apis/coordination.platform.io/v1/namespaces/" + ns + "/leases"
	if r := s.Do(t, "POST", path, lease); r.Code == http.StatusConflict {
		cur := s.Do(t, "GET", path+"/"+name, nil).Expect(t, http.StatusOK).Map(t)
		lease["metadata"].(map[string]any)["resourceVersion"] = cur["metadata"].(map[string]any)["resourceVersion"]
		s.Do(t, "PUT", path+"/"+name, lease).Expect(t, http.StatusOK)
	} else {
		r.Expect(t, http.StatusCreated)
	}
}

func lockHeader(name, holder string, transitions int32) framework.Header {
	ref := leaderelection.LockRef{Group: "coordination.platform.io", Resource: "leases", Namespace: ns, Name: name,
		Holder: holder, Transitions: transitions}
	return framework.Header{rest.LeaderLockHeader: ref.String()}
}

func configMap(name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name}, "data": map[string]any{"k": "v"}}
}

// TestLeaderLockCheck runs each write with a header against one Lease
// held by "a" at transition 2, one expired, and none.
func TestLeaderLockCheck(t *testing.T) {
	s := framework.Start(t)
	now := time.Now()
	putLease(t, s, "held", "a", 2, now, 60)
	putLease(t, s, "expired", "a", 2, now.Add(-2*time.Minute), 15)
	putLease(t, s, "released", "", 2, now, 60)
	cms := "/api/v1/namespaces/" + ns + "/configmaps"

	for _, tc := range []struct {
		name   string
		header framework.Header
		code   int
		reason string // of the Status; "" for a success
		// why is part of the refusal's message.
		why string
	}{
		{name: "holder", header: lockHeader("held", "a", 2), code: http.StatusCreated},
		{name: "no header", header: nil, code: http.StatusCreated},
		{name: "other holder", header: lockHeader("held", "b", 2), code: http.StatusConflict, reason: "Conflict", why: `held by "a", not by "b"`},
		{name: "stale transitions", header: lockHeader("held", "a", 1), code: http.StatusConflict, reason: "Conflict", why: "transition 2, the request names transition 1"},
		{name: "expired", header: lockHeader("expired", "a", 2), code: http.StatusConflict, reason: "Conflict", why: "expired"},
		{name: "released", header: lockHeader("released", "a", 2), code: http.StatusConflict, reason: "Conflict", why: "no holder"},
		{name: "missing lease", header: lockHeader("missing", "a", 2), code: http.StatusConflict, reason: "Conflict", why: "does not exist"},
		{name: "malformed", header: framework.Header{rest.LeaderLockHeader: "holder=a"}, code: http.StatusBadRequest, reason: "BadRequest", why: "is missing"},
		{name: "not a lease", header: framework.Header{rest.LeaderLockHeader: strings.Replace(
			lockHeader("held", "a", 2)[rest.LeaderLockHeader], "leases.coordination", "configmaps.core", 1)},
			code: http.StatusBadRequest, reason: "BadRequest", why: "must be a leases"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.ReplaceAll(tc.name, " ", "-")
			var hs []framework.Header
			if tc.header != nil {
				hs = append(hs, tc.header)
			}
			// Create.
			r := s.Do(t, "POST", cms, configMap(name), hs...)
			expect(t, r, tc.code, tc.reason, tc.why)
			if tc.code != http.StatusCreated {
				s.Do(t, "GET", cms+"/"+name, nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
				// Update, patch and delete of an existing object are
				// refused alike and change nothing.
				s.Do(t, "POST", cms, configMap(name)).Expect(t, http.StatusCreated)
				cm := configMap(name)
				cm["data"] = map[string]any{"k": "changed"}
				expect(t, s.Do(t, "PUT", cms+"/"+name, cm, hs...), tc.code, tc.reason, tc.why)
				patch := framework.Header{"Content-Type": "application/merge-patch+json"}
				expect(t, s.Do(t, "PATCH", cms+"/"+name, `{"data":{"k":"patched"}}`, append(hs, patch)...), tc.code, tc.reason, tc.why)
				expect(t, s.Do(t, "DELETE", cms+"/"+name, nil, hs...), tc.code, tc.reason, tc.why)
				got := s.Do(t, "GET", cms+"/"+name, nil).Expect(t, http.StatusOK).Map(t)
				if d := got["data"].(map[string]any)["k"]; d != "v" {
					t.Fatalf("a refused write changed the object: data.k = %v", d)
				}
			} else {
				cm := configMap(name)
				cm["data"] = map[string]any{"k": "changed"}
				s.Do(t, "PUT", cms+"/"+name, cm, hs...).Expect(t, http.StatusOK)
				s.Do(t, "DELETE", cms+"/"+name, nil, hs...).Expect(t, http.StatusOK)
			}
			// Reads ignore the header, whatever it says.
			s.Do(t, "GET", cms, nil, hs...).Expect(t, http.StatusOK)
		})
	}
}

// expect checks a response's code, and for a failure its Status: a
// refusal for the lock is a Conflict with a NotLeader cause naming it.
func expect(t *testing.T, r framework.Response, code int, reason, why string) {
	t.Helper()
	if reason == "" {
		r.Expect(t, code)
		return
	}
	st := r.ExpectStatus(t, code, reason)
	msg, _ := st["message"].(string)
	if !strings.Contains(msg, why) {
		t.Fatalf("message %q does not say %q", msg, why)
	}
	if code != http.StatusConflict {
		return
	}
	if !strings.HasPrefix(msg, "the writer is not the leader: lock leases.coordination.platform.io default/") {
		t.Fatalf("message %q does not say the writer is not the leader and name the lock", msg)
	}
	causes := fmt.Sprint(st["details"])
	if !strings.Contains(causes, "NotLeader") {
		t.Fatalf("details %s have no NotLeader cause", causes)
	}
}

// TestLeaderLockCheckBinding: the scheduler's pods/binding is fenced too.
func TestLeaderLockCheckBinding(t *testing.T) {
	s := framework.Start(t)
	putLease(t, s, "platform-scheduler", "a", 0, time.Now(), 60)
	pods := "/api/v1/namespaces/" + ns + "/pods"
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`
	s.Do(t, "POST", pods, pod).Expect(t, http.StatusCreated)
	binding := `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p"},"target":{"apiVersion":"v1","kind":"Node","name":"node-1"}}`
	expect(t, s.Do(t, "POST", pods+"/p/binding", binding, lockHeader("platform-scheduler", "b", 0)),
		http.StatusConflict, "Conflict", `held by "a"`)
	if n := s.Do(t, "GET", pods+"/p", nil).Map(t)["spec"].(map[string]any)["nodeName"]; n != nil {
		t.Fatalf("a refused binding set nodeName %v", n)
	}
	s.Do(t, "POST", pods+"/p/binding", binding, lockHeader("platform-scheduler", "a", 0)).Expect(t, http.StatusCreated)
}
