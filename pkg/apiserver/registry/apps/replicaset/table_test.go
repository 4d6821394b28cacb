package replicaset

import (
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestReplicaSetTableRow(t *testing.T) {
	two := int32(2)
	rs := &appsv1.ReplicaSet{ObjectMeta: meta.ObjectMeta{Name: "web-7d4b9c", CreationTimestamp: meta.NewTime(time.Now().Add(-5 * time.Second))}}
	rs.Spec.Replicas = &two
	rs.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "7d4b9c"}}
	rs.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app", Image: "nginx"}}
	rs.Status = appsv1.ReplicaSetStatus{Replicas: 2, ReadyReplicas: 1}
	got := tableColumns.Row(rs)
	want := []any{"web-7d4b9c", int64(2), int64(2), int64(1), "5s", "app", "nginx", "app=web,pod-template-hash=7d4b9c"}
	if len(got) != len(want) {
		t.Fatalf("cells %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cells %q, want %q", got, want)
		}
	}
}
