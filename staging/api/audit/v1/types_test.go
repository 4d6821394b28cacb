package v1

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	authnv1 "platform.io/client/api/authentication/v1"
	"platform.io/client/api/meta"
)

// TestEventJSON checks upstream's field names and that an event survives a
// round trip, raw bodies included.
func TestEventJSON(t *testing.T) {
	at := meta.MicroTime{Time: time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)}
	ev := Event{
		TypeMeta: meta.TypeMeta{APIVersion: SchemeGroupVersion.String(), Kind: "Event"},
		Level:    LevelRequest, AuditID: "id-1", Stage: StageResponseComplete,
		RequestURI: "/api/v1/namespaces/default/pods", Verb: "create",
		User:             authnv1.UserInfo{Username: "alice", Groups: []string{"system:authenticated"}},
		ImpersonatedUser: &authnv1.UserInfo{Username: "bob"},
		SourceIPs:        []string{"127.0.0.1"}, UserAgent: "kubectl",
		ObjectRef:                &ObjectReference{Resource: "pods", Namespace: "default", Name: "p", APIVersion: "v1"},
		ResponseStatus:           &meta.Status{Code: 201},
		RequestObject:            json.RawMessage(`{"kind":"Pod"}`),
		RequestReceivedTimestamp: at, StageTimestamp: at,
		Annotations: map[string]string{"a": "b"},
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"apiVersion", "kind", "level", "auditID", "stage", "requestURI", "verb", "user", "impersonatedUser",
		"sourceIPs", "userAgent", "objectRef", "responseStatus", "requestObject", "requestReceivedTimestamp", "stageTimestamp", "annotations"} {
		if _, ok := m[k]; !ok {
			t.Errorf("field %q missing from %s", k, b)
		}
	}
	if got := m["stageTimestamp"]; got != "2026-01-02T03:04:05.000006Z" {
		t.Errorf("stageTimestamp = %v, want microseconds", got)
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ev, back, cmp.Comparer(func(a, b meta.MicroTime) bool { return a.Equal(b.Time) })); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestLevelOrder(t *testing.T) {
	order := []Level{LevelNone, LevelMetadata, LevelRequest, LevelRequestResponse}
	for i, a := range order {
		for j, b := range order {
			if got := a.Less(b); got != (i < j) {
				t.Errorf("%s.Less(%s) = %v", a, b, got)
			}
			if got := a.GreaterOrEqual(b); got != (i >= j) {
				t.Errorf("%s.GreaterOrEqual(%s) = %v", a, b, got)
			}
		}
	}
	if Level("Verbose").Valid() {
		t.Error("unknown level is valid")
	}
}
