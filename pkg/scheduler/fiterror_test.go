package scheduler

import (
	"testing"

	"platform.io/platform/pkg/scheduler/framework"
)

func TestFitErrorMessage(t *testing.T) {
	st := framework.NewStatus
	tests := []struct {
		name     string
		all      int
		statuses framework.NodeToStatus
		post     string
		want     string
	}{
		{"counted and sorted by count", 5, framework.NodeToStatus{
			"a": st(framework.Unschedulable, "Insufficient cpu"),
			"b": st(framework.Unschedulable, "Insufficient cpu"),
			"c": st(framework.Unschedulable, "Insufficient cpu"),
			"d": st(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {k: v}"),
			"e": st(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {k: v}"),
		}, "", "0/5 nodes are available: 3 Insufficient cpu, 2 node(s) had untolerated taint {k: v}."},
		{"several reasons of one node, ties alphabetical", 2, framework.NodeToStatus{
			"a": st(framework.Unschedulable, "Insufficient memory", "Insufficient cpu"),
			"b": st(framework.Unschedulable, "node(s) were unschedulable"),
		}, "", "0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) were unschedulable."},
		{"post-filter message appended", 1, framework.NodeToStatus{
			"a": st(framework.Unschedulable, "Insufficient cpu"),
		}, "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
			"0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &FitError{NumAllNodes: tc.all, Diagnosis: Diagnosis{NodeToStatus: tc.statuses}, PostFilterMsg: tc.post}
			if got := e.Error(); got != tc.want {
				t.Errorf("message\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestNumFeasibleNodesToFind(t *testing.T) {
	tests := []struct {
		percentage int32
		nodes      int
		want       int
	}{
		{0, 10, 10},
		{0, 99, 99},
		{0, 100, 100},
		{0, 500, 230},     // 50 - 4 = 46%
		{0, 1000, 420},    // 50 - 8 = 42%
		{0, 5000, 500},    // 50 - 40 = 10%
		{0, 6000, 300},    // 50 - 48 = 2% -> floor 5%
		{0, 1200, 492},    // 50 - 9 = 41%
		{10, 500, 100},    // 50 < 100 minimum
		{10, 5000, 500},   // fixed 10%
		{100, 5000, 5000}, // all
		{50, 50, 50},
	}
	for _, tc := range tests {
		if got := numFeasibleNodesToFind(tc.percentage, tc.nodes); got != tc.want {
			t.Errorf("numFeasibleNodesToFind(%d%%, %d) = %d, want %d", tc.percentage, tc.nodes, got, tc.want)
		}
	}
}
