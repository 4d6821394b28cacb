package scheduler

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/scheduler/framework"
)

func TestNodeUpdateEvent(t *testing.T) {
	base := func() *corev1.Node {
		return &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "n", Labels: map[string]string{"a": "1"}},
			Status: corev1.NodeStatus{
				Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")},
				Conditions:  []corev1.NodeCondition{{Type: "Ready", Status: corev1.ConditionTrue}},
			}}
	}
	tests := []struct {
		name   string
		change func(n *corev1.Node)
		want   framework.ActionType
	}{
		{"heartbeat only", func(n *corev1.Node) {
			n.Status.Conditions = []corev1.NodeCondition{{Type: "Ready", Status: corev1.ConditionTrue, LastHeartbeatTime: meta.Now()}}
		}, 0},
		{"allocatable", func(n *corev1.Node) {
			n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}
		}, framework.UpdateNodeAllocatable},
		{"label", func(n *corev1.Node) { n.Labels = map[string]string{"a": "2"} }, framework.UpdateNodeLabel},
		{"taint", func(n *corev1.Node) { n.Spec.Taints = []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}} }, framework.UpdateNodeTaint},
		{"unschedulable", func(n *corev1.Node) { n.Spec.Unschedulable = true }, framework.UpdateNodeTaint},
		{"condition", func(n *corev1.Node) {
			n.Status.Conditions = []corev1.NodeCondition{{Type: "Ready", Status: corev1.ConditionFalse}}
		}, framework.UpdateNodeCondition},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := base()
			tc.change(n)
			ev, ok := nodeUpdateEvent(base(), n)
			if ok != (tc.want != 0) || ev.ActionType != tc.want {
				t.Errorf("event %+v (%v), want action %v", ev, ok, tc.want)
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	created := time.Unix(1000, 0)
	started := meta.NewTime(created.Add(10 * time.Second))
	ads := func(s int64) *int64 { return &s }
	tests := []struct {
		name  string
		pod   corev1.Pod
		now   time.Time
		want  bool
		until time.Time
	}{
		{"no deadline", corev1.Pod{}, created.Add(time.Hour), false, time.Time{}},
		{"from creation, not yet", corev1.Pod{Spec: corev1.PodSpec{ActiveDeadlineSeconds: ads(30)}}, created.Add(29 * time.Second), false, created.Add(30 * time.Second)},
		{"from creation, passed", corev1.Pod{Spec: corev1.PodSpec{ActiveDeadlineSeconds: ads(30)}}, created.Add(30 * time.Second), true, created.Add(30 * time.Second)},
		{"from start time", corev1.Pod{Spec: corev1.PodSpec{ActiveDeadlineSeconds: ads(30)}, Status: corev1.PodStatus{StartTime: &started}},
			created.Add(35 * time.Second), false, created.Add(40 * time.Second)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.pod.CreationTimestamp = meta.NewTime(created)
			until, passed := deadline(&tc.pod, tc.now)
			if passed != tc.want || !until.Equal(tc.until) {
				t.Errorf("deadline %v passed %v, want %v %v", until, passed, tc.until, tc.want)
			}
		})
	}
}

func TestSelectHost(t *testing.T) {
	nodes := []*framework.NodeInfo{}
	for _, name := range []string{"a", "b", "c", "d"} {
		ni := framework.NewNodeInfo()
		ni.SetNode(&corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name}})
		nodes = append(nodes, ni)
	}
	if got := selectHost(nodes, []int64{1, 5, 3, 2}); got != "b" {
		t.Errorf("highest: %s", got)
	}
	seen := map[string]int{}
	for i := 0; i < 400; i++ {
		seen[selectHost(nodes, []int64{7, 1, 7, 7})]++
	}
	if seen["b"] != 0 || seen["a"] == 0 || seen["c"] == 0 || seen["d"] == 0 {
		t.Errorf("ties not spread: %v", seen)
	}
}
