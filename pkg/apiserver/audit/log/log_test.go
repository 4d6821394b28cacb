package log

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"
	authnv1 "platform.io/client/api/authentication/v1"
	"platform.io/client/api/meta"
)

func sample() *auditv1.Event {
	at := meta.MicroTime{Time: time.Date(2026, 11, 27, 3, 4, 5, 123456000, time.UTC)}
	return &auditv1.Event{
		Level: auditv1.LevelMetadata, AuditID: "id-1", Stage: auditv1.StageResponseComplete,
		RequestURI: "/api/v1/namespaces/default/pods", Verb: "create",
		User:      authnv1.UserInfo{Username: "alice", Groups: []string{"dev", "system:authenticated"}},
		SourceIPs: []string{"10.0.0.5"}, UserAgent: "kubectl",
		ObjectRef:      &auditv1.ObjectReference{Resource: "pods", Namespace: "default"},
		ResponseStatus: &meta.Status{Code: 201}, RequestReceivedTimestamp: at, StageTimestamp: at,
	}
}

func TestEventString(t *testing.T) {
	want := `2026-11-27T03:04:05.123456Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.5" method="create" user="alice" groups="\"dev\",\"system:authenticated\"" as="<self>" asgroups="<lookup>" user-agent="kubectl" namespace="default" uri="/api/v1/namespaces/default/pods" response="201"`
	if got := EventString(sample()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	ev := sample()
	ev.User, ev.ObjectRef, ev.ResponseStatus, ev.SourceIPs = authnv1.UserInfo{}, nil, nil, nil
	ev.ImpersonatedUser = &authnv1.UserInfo{Username: "bob", Groups: []string{"ops"}}
	got := EventString(ev)
	for _, part := range []string{`ip="<unknown>"`, `user="<none>" groups="<none>"`, `as="bob" asgroups="\"ops\""`, `namespace="<none>"`, `response="<deferred>"`} {
		if !strings.Contains(got, part) {
			t.Errorf("%s lacks %s", got, part)
		}
	}
}

func TestJSONLines(t *testing.T) {
	var buf bytes.Buffer
	b := New(zap.NewNop(), &buf, FormatJSON, "audit.k8s.io/v1", nil)
	if !b.ProcessEvents(sample(), sample()) {
		t.Fatal("write failed")
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	var ev auditv1.Event
	if err := json.Unmarshal([]byte(lines[0]), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.APIVersion != "audit.k8s.io/v1" || ev.Kind != "Event" || ev.AuditID != "id-1" {
		t.Errorf("event %+v", ev)
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteFailure(t *testing.T) {
	if New(zap.NewNop(), failing{}, FormatJSON, "audit.platform.io/v1", nil).ProcessEvents(sample()) {
		t.Error("a failed write reported success")
	}
}
