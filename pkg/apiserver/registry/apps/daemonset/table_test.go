package daemonset

import (
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestDaemonSetTableRow(t *testing.T) {
	ds := &appsv1.DaemonSet{ObjectMeta: meta.ObjectMeta{Name: "agent", CreationTimestamp: meta.NewTime(time.Now().Add(-10 * 24 * time.Hour))}}
	ds.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}
	ds.Spec.Template.Spec.Containers = []corev1.Container{{Name: "agent", Image: "agent:1"}}
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"os": "linux"}
	ds.Status = appsv1.DaemonSetStatus{DesiredNumberScheduled: 3, CurrentNumberScheduled: 3, NumberReady: 2, UpdatedNumberScheduled: 1, NumberAvailable: 2}
	got := tableColumns.Row(ds)
	want := []any{"agent", int64(3), int64(3), int64(2), int64(1), int64(2), "os=linux", "10d", "agent", "agent:1", "app=agent"}
	if len(got) != len(tableColumns.Columns) {
		t.Fatalf("%d cells", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cells %q, want %q", got, want)
		}
	}
	ds.Spec.Template.Spec.NodeSelector = nil
	if got := tableColumns.Row(ds)[6]; got != "<none>" {
		t.Errorf("node selector cell %q", got)
	}
}
