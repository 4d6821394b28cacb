package deployment

import (
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestDeploymentTableRow(t *testing.T) {
	three := int32(3)
	d := &appsv1.Deployment{ObjectMeta: meta.ObjectMeta{Name: "web", CreationTimestamp: meta.NewTime(time.Now().Add(-(3*24 + 4) * time.Hour))}}
	d.Spec.Replicas = &three
	d.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Spec.Containers = []corev1.Container{{Name: "app", Image: "nginx:1.25"}, {Name: "side", Image: "busybox"}}
	cases := []struct {
		name                      string
		ready, updated, available int32
		want                      string
	}{
		{"new", 0, 0, 0, "0/3"},
		{"rolling", 2, 1, 2, "2/3"},
		{"done", 3, 3, 3, "3/3"},
	}
	for _, c := range cases {
		d.Status = appsv1.DeploymentStatus{ReadyReplicas: c.ready, UpdatedReplicas: c.updated, AvailableReplicas: c.available}
		got := tableRow(d)
		want := []any{"web", c.want, int64(c.updated), int64(c.available), "3d4h", "app,side", "nginx:1.25,busybox", "app=web"}
		if len(got) != len(tableColumns.Columns) {
			t.Fatalf("%d cells for %d columns", len(got), len(tableColumns.Columns))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: cells %q, want %q", c.name, got, want)
				break
			}
		}
	}
	d.Spec.Replicas, d.Spec.Selector = nil, &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}}
	if got := tableRow(d); got[1] != "3/0" || got[7] != "<invalid>" {
		t.Errorf("cells %q", got)
	}
}
