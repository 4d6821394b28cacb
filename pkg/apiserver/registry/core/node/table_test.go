package node

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestNodeTableRow(t *testing.T) {
	n := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "worker-1", CreationTimestamp: meta.NewTime(time.Now().Add(-50 * time.Minute)),
		Labels: map[string]string{"node-role.platform.io/worker": "", "node-role.kubernetes.io/control-plane": "", "platform.io/role": "worker", "zone": "a"}}}
	n.Status.Conditions = []corev1.NodeCondition{{Type: "MemoryPressure", Status: corev1.ConditionFalse}, {Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	n.Status.Addresses = []corev1.NodeAddress{{Type: corev1.NodeHostName, Address: "worker-1"}, {Type: corev1.NodeInternalIP, Address: "192.168.1.10"}}
	n.Status.NodeInfo = corev1.NodeSystemInfo{KubeletVersion: "v1.32.0", OSImage: "Debian GNU/Linux 12", ContainerRuntimeVersion: "containerd://1.7.0"}
	got := tableRow(n)
	want := []any{"worker-1", "Ready", "control-plane,worker", "50m", "v1.32.0", "192.168.1.10", "<none>", "Debian GNU/Linux 12", "<unknown>", "containerd://1.7.0"}
	if len(got) != len(tableColumns.Columns) {
		t.Fatalf("%d cells for %d columns", len(got), len(tableColumns.Columns))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cells %q, want %q", got, want)
		}
	}
	n.Spec.Unschedulable = true
	n.Status.Conditions[1].Status = corev1.ConditionFalse
	if s := nodeStatus(n); s != "NotReady,SchedulingDisabled" {
		t.Errorf("cordoned not-ready node is %q", s)
	}
	n.Status.Conditions, n.Labels = nil, nil
	if s, r := nodeStatus(n), tableRow(n)[2]; s != "Unknown,SchedulingDisabled" || r != "<none>" {
		t.Errorf("node without conditions or roles: %q, %q", s, r)
	}
}
