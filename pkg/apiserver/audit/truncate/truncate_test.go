package truncate

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"
)

type sink struct{ batches [][]*auditv1.Event }

func (s *sink) ProcessEvents(events ...*auditv1.Event) bool {
	s.batches = append(s.batches, events)
	return true
}
func (s *sink) Run(context.Context) {}
func (s *sink) String() string      { return "sink" }

func event(id string, objectBytes int) *auditv1.Event {
	ev := &auditv1.Event{AuditID: id, Level: auditv1.LevelRequest, RequestURI: "/api/v1/pods"}
	if objectBytes > 0 {
		ev.RequestObject = json.RawMessage(`"` + strings.Repeat("x", objectBytes) + `"`)
	}
	return ev
}

func TestTruncate(t *testing.T) {
	s := &sink{}
	b := New(zap.NewNop(), s, Config{MaxEventSize: 1000, MaxBatchSize: 2500}, nil)
	huge := event("huge", 10)
	huge.RequestURI = strings.Repeat("/x", 1000) // too large without its object too
	big := event("big", 5000)
	ok := b.ProcessEvents(event("a", 500), big, huge, event("c", 500), event("d", 500), event("e", 500))
	if ok {
		t.Error("dropping an event reported success")
	}
	var ids [][]string
	for _, batch := range s.batches {
		var got []string
		for _, ev := range batch {
			got = append(got, ev.AuditID)
			if ev.AuditID == "big" && (ev.RequestObject != nil || ev.Annotations[AnnotationTruncated] != "true") {
				t.Errorf("big not truncated: %+v", ev)
			}
			if ev.AuditID != "big" && ev.RequestObject == nil {
				t.Errorf("%s lost its object", ev.AuditID)
			}
		}
		ids = append(ids, got)
	}
	// About 600 bytes each with their objects, "big" about 150 once
	// truncated: the first four fit 2,500 bytes, "huge" is dropped.
	want := "[[a big c d] [e]]"
	if got := fmtBatches(ids); got != want {
		t.Errorf("batches %s, want %s", got, want)
	}
	if big.RequestObject == nil || big.Annotations != nil {
		t.Error("the caller's event was changed")
	}
}

func fmtBatches(ids [][]string) string {
	parts := make([]string, len(ids))
	for i, b := range ids {
		parts[i] = "[" + strings.Join(b, " ") + "]"
	}
	return "[" + strings.Join(parts, " ") + "]"
}
