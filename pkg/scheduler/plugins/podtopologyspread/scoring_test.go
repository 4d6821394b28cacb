package podtopologyspread

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

// scoreAll runs PreScore over the given candidate nodes, Score and
// NormalizeScore; a skipped PreScore gives nil.
func scoreAll(t *testing.T, pl *Plugin, snap *st.Snapshot, pod *corev1.Pod, filtered []string) framework.NodeScoreList {
	t.Helper()
	ctx := context.Background()
	cs := framework.NewCycleState()
	var nis []*framework.NodeInfo
	for _, n := range filtered {
		ni, err := snap.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		nis = append(nis, ni)
	}
	if s := pl.PreScore(ctx, cs, pod, nis); s.IsSkip() {
		return nil
	} else if !s.IsSuccess() {
		t.Fatalf("PreScore: %v", s.AsError())
	}
	var scores framework.NodeScoreList
	for _, n := range filtered {
		sc, s := pl.Score(ctx, cs, pod, snap.NodeInfo(n))
		if !s.IsSuccess() {
			t.Fatalf("Score: %v", s.AsError())
		}
		scores = append(scores, framework.NodeScore{Name: n, Score: sc})
	}
	if s := pl.NormalizeScore(ctx, cs, pod, scores); !s.IsSuccess() {
		t.Fatalf("NormalizeScore: %v", s.AsError())
	}
	return scores
}

func rsPod(name, rs, node string) *corev1.Pod {
	return st.MakePod().Name(name).Label("app", "web").OwnerReference("apps/v1", "ReplicaSet", rs).Node(node).Obj()
}

func TestScore(t *testing.T) {
	zoned := []*corev1.Node{
		st.MakeNode().Name("a").Label(zoneKey, "z1").Obj(),
		st.MakeNode().Name("b").Label(zoneKey, "z1").Obj(),
		st.MakeNode().Name("x").Label(zoneKey, "z2").Obj(),
	}
	mixed := []*corev1.Node{
		st.MakeNode().Name("a").Label(zoneKey, "z1").Obj(),
		st.MakeNode().Name("b").Label(zoneKey, "z1").Obj(),
		st.MakeNode().Name("c").Obj(),
	}
	soft := func(skew int32, key string) *st.PodWrapper {
		return st.MakePod().Name("p").Label("foo", "").SpreadConstraint(skew, key, corev1.ScheduleAnyway, fooSelector().Obj(), nil, nil, nil, nil)
	}
	tests := []struct {
		name     string
		pod      *corev1.Pod
		pods     []*corev1.Pod
		nodes    []*corev1.Node
		filtered []string
		args     string
		want     framework.NodeScoreList
	}{
		{
			name:     "no soft constraints and no controller: skipped",
			pod:      st.MakePod().Name("p").Obj(),
			nodes:    zoned,
			filtered: []string{"a", "b", "x"},
		},
		{
			name:     "DoNotSchedule only: skipped",
			pod:      st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, nil, nil).Obj(),
			nodes:    zoned,
			filtered: []string{"a", "b", "x"},
		},
		{
			name: "by zone: z1 holds 2, z2 holds 1",
			pod:  soft(1, zoneKey).Obj(),
			pods: []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "a"), fooPod("p3", "x")},
			// weight ln 4: z1 2*1.386 = 3, z2 1; 100*(3+1-s)/3.
			nodes:    zoned,
			filtered: []string{"a", "b", "x"},
			want:     framework.NodeScoreList{{Name: "a", Score: 33}, {Name: "b", Score: 33}, {Name: "x", Score: 100}},
		},
		{
			name: "by host: 2, 1, 0 pods",
			pod:  soft(1, LabelHostname).Obj(),
			pods: []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "a"), fooPod("p3", "b")},
			// weight ln 5 = 1.609: a 3, b 2, x 0; 100*(3-s)/3.
			nodes:    zoned,
			filtered: []string{"a", "b", "x"},
			want:     framework.NodeScoreList{{Name: "a", Score: 0}, {Name: "b", Score: 33}, {Name: "x", Score: 100}},
		},
		{
			name:     "maxSkew softens: all empty nodes score the maximum",
			pod:      soft(3, LabelHostname).Obj(),
			nodes:    zoned,
			filtered: []string{"a", "b", "x"},
			want:     framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b", Score: 100}, {Name: "x", Score: 100}},
		},
		{
			name: "pod constraints ignore a node without the key",
			pod:  soft(1, zoneKey).Obj(),
			pods: []*corev1.Pod{fooPod("p1", "a")},
			// weight ln 3: a, b 1; c ignored.
			nodes:    mixed,
			filtered: []string{"a", "b", "c"},
			want:     framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b", Score: 100}, {Name: "c", Score: 0}},
		},
		{
			name: "counts only domains of candidate nodes but pods on all nodes",
			pod:  soft(1, zoneKey).Obj(),
			pods: []*corev1.Pod{fooPod("p1", "b"), fooPod("p2", "b"), fooPod("p3", "x")},
			// Only a and x are candidates; z1 still counts b's 2 pods.
			nodes:    zoned,
			filtered: []string{"a", "x"},
			want:     framework.NodeScoreList{{Name: "a", Score: 33}, {Name: "x", Score: 100}},
		},
		{
			name: "system defaults spread a controller's pods; a zoneless node still spreads by host",
			pod:  st.MakePod().Name("p").Label("app", "web").OwnerReference("apps/v1", "ReplicaSet", "rs1").Obj(),
			pods: []*corev1.Pod{
				rsPod("w1", "rs1", "a"),
				rsPod("o1", "rs2", "b"), rsPod("o2", "rs2", "c"), rsPod("o3", "rs2", "c"),
			},
			// host (skew 3, ln 5): a 1.609+2, b 2, c 2; zone (skew 5, ln 4, domains z1 and ""):
			// a, b 1.386+4. a 9, b 7, c 2: 100*(11-s)/9.
			nodes:    mixed,
			filtered: []string{"a", "b", "c"},
			want:     framework.NodeScoreList{{Name: "a", Score: 22}, {Name: "b", Score: 44}, {Name: "c", Score: 100}},
		},
		{
			name:     "List defaulting with no constraints: skipped",
			pod:      st.MakePod().Name("p").Label("app", "web").OwnerReference("apps/v1", "ReplicaSet", "rs1").Obj(),
			pods:     []*corev1.Pod{rsPod("w1", "rs1", "a")},
			nodes:    zoned,
			filtered: []string{"a", "b", "x"},
			args:     `{"defaultingType":"List"}`,
		},
		{
			name: "nodeTaintsPolicy Honor leaves the tainted node's pods out",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, zoneKey, corev1.ScheduleAnyway, fooSelector().Obj(), nil, nil, &honor, nil).Obj(),
			pods: []*corev1.Pod{fooPod("p1", "t"), fooPod("p2", "t"), fooPod("p3", "x")},
			nodes: append(append([]*corev1.Node{}, zoned...),
				st.MakeNode().Name("t").Label(zoneKey, "z1").Taint("k", "v", corev1.TaintEffectNoSchedule).Obj()),
			// z1 counts 0 (t excluded), z2 1: a, b 0, x 1.386 -> 1.
			filtered: []string{"a", "b", "x"},
			want:     framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b", Score: 100}, {Name: "x", Score: 0}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.NewSnapshot(tc.pods, tc.nodes)
			pl := newPlugin(t, st.NewHandle(snap), tc.args)
			if diff := cmp.Diff(tc.want, scoreAll(t, pl, snap, tc.pod, tc.filtered)); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}
