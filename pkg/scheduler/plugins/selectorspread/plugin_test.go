package selectorspread

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

func rsPod(name, rs, node string) *st.PodWrapper {
	return st.MakePod().Name(name).OwnerReference("apps/v1", "ReplicaSet", rs).Node(node)
}

func TestScore(t *testing.T) {
	plain := []*corev1.Node{st.MakeNode().Name("m1").Obj(), st.MakeNode().Name("m2").Obj(), st.MakeNode().Name("m3").Obj()}
	zoned := []*corev1.Node{
		st.MakeNode().Name("a1").Label(LabelZone, "a").Obj(),
		st.MakeNode().Name("a2").Label(LabelZone, "a").Obj(),
		st.MakeNode().Name("b1").Label(LabelZone, "b").Obj(),
	}
	upstreamZoned := []*corev1.Node{
		st.MakeNode().Name("a1").Label(LabelUpstreamZone, "a").Obj(),
		st.MakeNode().Name("a2").Label(LabelUpstreamZone, "a").Obj(),
		st.MakeNode().Name("b1").Label(LabelUpstreamZone, "b").Obj(),
	}
	pod := rsPod("p", "rs1", "").Obj()
	tests := []struct {
		name  string
		pod   *corev1.Pod
		pods  []*corev1.Pod
		nodes []*corev1.Node
		want  []int64 // nil: skipped
	}{
		{
			name:  "no pods of the owner: all max",
			pod:   pod,
			pods:  []*corev1.Pod{rsPod("o", "rs2", "m1").Obj()},
			nodes: plain,
			want:  []int64{100, 100, 100},
		},
		{
			name:  "by node: 2, 1, 0",
			pod:   pod,
			pods:  []*corev1.Pod{rsPod("w1", "rs1", "m1").Obj(), rsPod("w2", "rs1", "m1").Obj(), rsPod("w3", "rs1", "m2").Obj()},
			nodes: plain,
			want:  []int64{0, 50, 100},
		},
		{
			name: "other namespaces, other owners and terminating pods do not count",
			pod:  pod,
			pods: []*corev1.Pod{
				rsPod("w1", "rs1", "m1").Obj(),
				rsPod("x", "rs1", "m2").Namespace("other").Obj(),
				rsPod("y", "rs2", "m2").Obj(),
				rsPod("z", "rs1", "m3").Terminating(time.Unix(1, 0)).Obj(),
				st.MakePod().Name("free").Node("m3").Obj(),
			},
			nodes: plain,
			want:  []int64{0, 100, 100},
		},
		{
			name:  "zones weigh two thirds",
			pod:   pod,
			pods:  []*corev1.Pod{rsPod("w1", "rs1", "a1").Obj(), rsPod("w2", "rs1", "a1").Obj()},
			nodes: zoned,
			// node: a1 0, a2 100, b1 100; zone: a 0, b 100. 100/3 + 200/3
			// is 99.99... in floating point and truncates to 99, as upstream.
			want: []int64{0, 33, 99},
		},
		{
			name:  "one pod per zone: only the node counts differ",
			pod:   pod,
			pods:  []*corev1.Pod{rsPod("w1", "rs1", "a1").Obj(), rsPod("w2", "rs1", "b1").Obj()},
			nodes: zoned,
			want:  []int64{0, 33, 0},
		},
		{
			name:  "the upstream zone label is read when ours is absent",
			pod:   pod,
			pods:  []*corev1.Pod{rsPod("w1", "rs1", "a1").Obj(), rsPod("w2", "rs1", "a1").Obj()},
			nodes: upstreamZoned,
			want:  []int64{0, 33, 99},
		},
		{
			name: "a node without a zone scores by node only",
			pod:  pod,
			pods: []*corev1.Pod{rsPod("w1", "rs1", "a1").Obj(), rsPod("w2", "rs1", "m1").Obj()},
			nodes: []*corev1.Node{
				st.MakeNode().Name("a1").Label(LabelZone, "a").Obj(),
				st.MakeNode().Name("b1").Label(LabelZone, "b").Obj(),
				st.MakeNode().Name("m1").Obj(),
			},
			// b1: node 100, zone 100; m1: node 0, no zone.
			want: []int64{0, 99, 0},
		},
		{
			name:  "a pod without a controller is skipped",
			pod:   st.MakePod().Name("p").Obj(),
			nodes: plain,
		},
		{
			name: "a pod with spread constraints is skipped",
			pod: rsPod("p", "rs1", "").SpreadConstraint(1, LabelZone, corev1.ScheduleAnyway,
				st.MakeLabelSelector().Exists("a").Obj(), nil, nil, nil, nil).Obj(),
			nodes: plain,
		},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.NewSnapshot(tc.pods, tc.nodes)
			p, err := New(nil, st.NewHandle(snap))
			if err != nil {
				t.Fatal(err)
			}
			pl := p.(*Plugin)
			cs := framework.NewCycleState()
			if s := pl.PreScore(ctx, cs, tc.pod, snap.List()); s.IsSkip() {
				if tc.want != nil {
					t.Fatalf("skipped, want scores %v", tc.want)
				}
				return
			} else if !s.IsSuccess() {
				t.Fatal(s.AsError())
			}
			var scores framework.NodeScoreList
			for _, n := range tc.nodes {
				sc, s := pl.Score(ctx, cs, tc.pod, snap.NodeInfo(n.Name))
				if !s.IsSuccess() {
					t.Fatal(s.AsError())
				}
				scores = append(scores, framework.NodeScore{Name: n.Name, Score: sc})
			}
			if s := pl.NormalizeScore(ctx, cs, tc.pod, scores); !s.IsSuccess() {
				t.Fatal(s.AsError())
			}
			var got []int64
			for _, s := range scores {
				got = append(got, s.Score)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewArgs(t *testing.T) {
	for _, tc := range []struct {
		args    string
		wantErr bool
	}{{"", false}, {"null", false}, {"{}", false}, {`{"x":1}`, true}, {"[", true}} {
		var raw []byte
		if tc.args != "" {
			raw = []byte(tc.args)
		}
		if _, err := New(raw, st.NewHandle(st.NewSnapshot(nil, nil))); (err != nil) != tc.wantErr {
			t.Errorf("New(%q): %v, want error %v", tc.args, err, tc.wantErr)
		}
	}
}
