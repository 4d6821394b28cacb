package statefulset

import (
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestStatefulSetTableRow(t *testing.T) {
	three := int32(3)
	ss := &appsv1.StatefulSet{ObjectMeta: meta.ObjectMeta{Name: "db", CreationTimestamp: meta.NewTime(time.Now().Add(-7 * time.Minute))}}
	ss.Spec.Replicas = &three
	ss.Spec.Template.Spec.Containers = []corev1.Container{{Name: "pg", Image: "postgres:16"}}
	ss.Status.ReadyReplicas = 1
	got := tableColumns.Row(ss)
	want := []any{"db", "1/3", "7m", "pg", "postgres:16"}
	if len(got) != len(tableColumns.Columns) {
		t.Fatalf("%d cells", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cells %q, want %q", got, want)
		}
	}
}
