package event

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestEventTableRow(t *testing.T) {
	ago := func(d time.Duration) meta.Time { return meta.NewTime(time.Now().Add(-d)) }
	e := &corev1.Event{
		ObjectMeta:     meta.ObjectMeta{Name: "web.17a"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "web", FieldPath: "spec.containers{app}"},
		Reason:         "BackOff", Message: "Back-off restarting failed container\n", Type: "Warning",
		Source:         corev1.EventSource{Component: "node-agent", Host: "worker-1"},
		FirstTimestamp: ago(5 * time.Hour), LastTimestamp: ago(5 * time.Minute), Count: 7,
	}
	want := []any{"5m", "Warning", "BackOff", "pod/web", "spec.containers{app}", "node-agent, worker-1",
		"Back-off restarting failed container", "5h", int64(7), "web.17a"}
	check := func(got, want []any) {
		t.Helper()
		if len(got) != len(tableColumns.Columns) {
			t.Fatalf("%d cells for %d columns", len(got), len(tableColumns.Columns))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("cells %q, want %q", got, want)
			}
		}
	}
	check(tableRow(e), want)

	// An event of the newer API: eventTime, series, reporting controller, no count.
	n := &corev1.Event{
		ObjectMeta: meta.ObjectMeta{Name: "n"}, InvolvedObject: corev1.ObjectReference{Kind: "Node"},
		Reason: "Starting", Type: "Normal", EventTime: meta.MicroTime{Time: time.Now().Add(-10 * time.Minute)},
		ReportingController: "platform.io/node-agent",
	}
	check(tableRow(n), []any{"10m", "Normal", "Starting", "node", "", "platform.io/node-agent", "", "10m", int64(1), "n"})
	n.Series = &corev1.EventSeries{Count: 4, LastObservedTime: meta.MicroTime{Time: time.Now().Add(-30 * time.Second)}}
	n.ReportingInstance = "worker-2"
	check(tableRow(n), []any{"30s", "Normal", "Starting", "node", "", "platform.io/node-agent, worker-2", "", "10m", int64(4), "n"})

	for i, c := range tableColumns.Columns {
		if wide := c.Name == "Subobject" || c.Name == "Source" || c.Name == "First Seen" || c.Name == "Count" || c.Name == "Name"; (c.Priority == 1) != wide {
			t.Errorf("column %d %s has priority %d", i, c.Name, c.Priority)
		}
	}
}
