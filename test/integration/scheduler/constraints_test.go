package scheduler

import (
	"strings"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// TestConstraints runs, each on a fresh cluster, one pod that exactly one
// node admits, and checks it lands there; and a pod no node admits, and
// checks the FailedScheduling summary.
func TestConstraints(t *testing.T) {
	t.Parallel()
	noSchedule := func(k, v string) []corev1.Taint {
		return []corev1.Taint{{Key: k, Value: v, Effect: corev1.TaintEffectNoSchedule}}
	}
	tests := []struct {
		name     string
		nodes    []nodeSpec
		existing []*corev1.Pod // bound first, to the node in spec.nodeName
		pod      *corev1.Pod
		want     string // node, or "" for unschedulable
		wantMsg  string // FailedScheduling message when want is ""
	}{
		{
			name:  "host ports",
			nodes: []nodeSpec{{name: "a"}, {name: "b"}},
			existing: []*corev1.Pod{newPod("web-a", "", "", func(p *corev1.Pod) {
				p.Spec.NodeName = "a"
				p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: corev1.ProtocolTCP}}
			})},
			pod: newPod("web", "", "", func(p *corev1.Pod) {
				p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: corev1.ProtocolTCP}}
			}),
			want: "b",
		},
		{
			name:  "node selector",
			nodes: []nodeSpec{{name: "a"}, {name: "b", labels: map[string]string{"disk": "ssd"}}},
			pod:   newPod("sel", "", "", func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} }),
			want:  "b",
		},
		{
			name:  "required node affinity",
			nodes: []nodeSpec{{name: "a", labels: map[string]string{"gen": "1"}}, {name: "b", labels: map[string]string{"gen": "3"}}},
			pod: newPod("aff", "", "", func(p *corev1.Pod) {
				p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
						MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "gen", Operator: corev1.NodeSelectorOpIn, Values: []string{"2", "3"}}},
					}}}}}
			}),
			want: "b",
		},
		{
			name:  "taints and tolerations",
			nodes: []nodeSpec{{name: "a", taints: noSchedule("dedicated", "db")}, {name: "b", taints: []corev1.Taint{{Key: "x", Effect: corev1.TaintEffectNoExecute}}}},
			pod: newPod("tol", "", "", func(p *corev1.Pod) {
				p.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "db", Effect: corev1.TaintEffectNoSchedule}}
			}),
			want: "a",
		},
		{
			name:  "unschedulable node",
			nodes: []nodeSpec{{name: "a", unschedulable: true}, {name: "b"}},
			pod:   newPod("plain", "100m", ""),
			want:  "b",
		},
		{
			name:  "node name",
			nodes: []nodeSpec{{name: "a"}, {name: "b"}},
			pod: newPod("named", "", "", func(p *corev1.Pod) {
				p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
						MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}},
					}}}}}
			}),
			want: "a",
		},
		{
			name: "memory pressure keeps BestEffort pods off",
			nodes: []nodeSpec{{name: "a", conditions: []corev1.NodeCondition{{Type: "Ready", Status: corev1.ConditionTrue},
				{Type: "MemoryPressure", Status: corev1.ConditionTrue}}}, {name: "b", cpu: "1"}},
			pod:  newPod("besteffort", "", ""),
			want: "b",
		},
		{
			name:  "memory pressure admits Burstable pods",
			nodes: []nodeSpec{{name: "a", cpu: "64", conditions: []corev1.NodeCondition{{Type: "Ready", Status: corev1.ConditionTrue}, {Type: "MemoryPressure", Status: corev1.ConditionTrue}}}},
			pod:   newPod("burstable", "100m", ""),
			want:  "a",
		},
		{
			name:  "pod count",
			nodes: []nodeSpec{{name: "a", pods: "1"}, {name: "b", pods: "2"}},
			existing: []*corev1.Pod{
				newPod("x", "", "", func(p *corev1.Pod) { p.Spec.NodeName = "a" }),
				newPod("y", "", "", func(p *corev1.Pod) { p.Spec.NodeName = "b" }),
			},
			pod:  newPod("third", "", ""),
			want: "b",
		},
		{
			name:    "nothing fits",
			nodes:   []nodeSpec{{name: "a", mem: "1Gi"}, {name: "b", unschedulable: true}, {name: "c", taints: noSchedule("k", "v")}},
			pod:     newPod("huge", "", "2Gi"),
			wantMsg: "0/3 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {k: v}, 1 node(s) were unschedulable.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := start(t, nil)
			for _, n := range tc.nodes {
				c.addNode(n)
			}
			for _, p := range tc.existing {
				c.create(p)
			}
			c.create(tc.pod)
			if tc.want == "" {
				// Earlier attempts may have seen fewer nodes, or nodes
				// without their status yet; the summary settles.
				msg := c.waitEvent(tc.pod.Name, "FailedScheduling", tc.wantMsg)
				if !strings.HasPrefix(msg, tc.wantMsg) {
					t.Errorf("message\n got %q\nwant %q", msg, tc.wantMsg)
				}
				return
			}
			if got := c.waitBound(tc.pod.Name); got != tc.want {
				t.Errorf("bound to %s, want %s", got, tc.want)
			}
		})
	}
}

// TestDeadline checks that a pod whose activeDeadlineSeconds passes while
// it waits is not bound once a node appears, and that this is recorded.
func TestDeadline(t *testing.T) {
	t.Parallel()
	c := start(t, nil)
	c.addNode(nodeSpec{name: "small", cpu: "1"})
	ads := int64(1)
	c.create(newPod("late", "2", "", func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = &ads }))
	c.create(newPod("ontime", "2", ""))
	// Whether its first attempt saw the node or not, it does not fit.
	c.waitEvent("late", "FailedScheduling", "")
	poll(t, "deadline passed", 5*time.Second, func() (bool, error) {
		return time.Since(c.get("late").CreationTimestamp.Time) > 1500*time.Millisecond, nil
	})
	c.addNode(nodeSpec{name: "large", cpu: "8"})
	if got := c.waitBound("ontime"); got != "large" {
		t.Errorf("ontime bound to %s", got)
	}
	c.waitEvent("late", "FailedScheduling", "activeDeadlineSeconds (1s) passed")
	c.stayPending("late", 500*time.Millisecond)
}

// TestDeadlinePassedUnseen checks that a pod whose deadline passed before
// the scheduler first saw it (here: before the scheduler started) is
// recorded as not bound rather than ignored.
func TestDeadlinePassedUnseen(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	ads := int64(1)
	c.create(newPod("expired", "", "", func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = &ads }))
	poll(t, "deadline passed", 5*time.Second, func() (bool, error) {
		return time.Since(c.get("expired").CreationTimestamp.Time) > 1500*time.Millisecond, nil
	})
	c.run(nil)
	c.addNode(nodeSpec{name: "a"})
	c.waitEvent("expired", "FailedScheduling", "activeDeadlineSeconds (1s) passed")
	c.stayPending("expired", 500*time.Millisecond)
}

// TestSchedulerNames checks two profiles in one process, and that pods
// naming another scheduler are left alone.
func TestSchedulerNames(t *testing.T) {
	t.Parallel()
	c := start(t, twoProfiles())
	c.addNode(nodeSpec{name: "a"})
	c.create(newPod("default", "", ""))
	c.create(newPod("second", "", "", func(p *corev1.Pod) { p.Spec.SchedulerName = "second-scheduler" }))
	c.create(newPod("foreign", "", "", func(p *corev1.Pod) { p.Spec.SchedulerName = "someone-else" }))
	c.waitBound("default")
	c.waitBound("second")
	c.stayPending("foreign", time.Second)
	if evs := c.events("foreign", "FailedScheduling"); len(evs) > 0 {
		t.Errorf("events about a foreign pod: %q", evs)
	}
	if p := c.get("foreign"); len(p.Status.Conditions) > 0 {
		t.Errorf("foreign pod's status was written: %+v", p.Status.Conditions)
	}
	// The second profile has no NodeResourcesFit: it binds where the
	// default profile would not.
	c.create(newPod("huge-default", "100", ""))
	c.create(newPod("huge-second", "100", "", func(p *corev1.Pod) { p.Spec.SchedulerName = "second-scheduler" }))
	c.waitBound("huge-second")
	c.waitEvent("huge-default", "FailedScheduling", "Insufficient cpu")
}
