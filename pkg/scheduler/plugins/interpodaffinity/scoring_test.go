package interpodaffinity

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

// scoreAll runs PreScore, Score on every node and NormalizeScore; a
// skipped PreScore gives nil.
func scoreAll(t *testing.T, pl *Plugin, snap *st.Snapshot, pod *corev1.Pod) framework.NodeScoreList {
	t.Helper()
	ctx := context.Background()
	cs := framework.NewCycleState()
	if s := pl.PreScore(ctx, cs, pod, snap.List()); s.IsSkip() {
		return nil
	} else if !s.IsSuccess() {
		t.Fatalf("PreScore: %v", s.AsError())
	}
	var scores framework.NodeScoreList
	for _, ni := range snap.List() {
		sc, s := pl.Score(ctx, cs, pod, ni)
		if !s.IsSuccess() {
			t.Fatalf("Score: %v", s.AsError())
		}
		scores = append(scores, framework.NodeScore{Name: ni.Node().Name, Score: sc})
	}
	if s := pl.NormalizeScore(ctx, cs, pod, scores); !s.IsSuccess() {
		t.Fatalf("NormalizeScore: %v", s.AsError())
	}
	return scores
}

func inTerm(key, topo string, vals ...string) corev1.PodAffinityTerm {
	return st.Term(topo, st.MakeLabelSelector().In(key, vals).Obj())
}

func TestScore(t *testing.T) {
	nodes := []*corev1.Node{
		st.MakeNode().Name("a1").Label(zoneKey, "a").Obj(),
		st.MakeNode().Name("a2").Label(zoneKey, "a").Obj(),
		st.MakeNode().Name("b1").Label(zoneKey, "b").Obj(),
	}
	list := func(a1, a2, b1 int64) framework.NodeScoreList {
		return framework.NodeScoreList{{Name: "a1", Score: a1}, {Name: "a2", Score: a2}, {Name: "b1", Score: b1}}
	}
	tests := []struct {
		name   string
		pod    *corev1.Pod
		pods   []*corev1.Pod
		args   string
		weight int32
		want   framework.NodeScoreList
	}{
		{
			name: "no terms anywhere: skipped",
			pod:  st.MakePod().Name("p").Label("app", "web").Obj(),
			pods: []*corev1.Pod{st.MakePod().Name("db").Label("app", "db").Node("a1").Obj()},
			want: nil,
		},
		{
			name: "preferred affinity by zone favours the zone with the match",
			pod:  st.MakePod().Name("p").WeightedPodAffinity(preferred, 5, inTerm("app", zoneKey, "db")).Obj(),
			pods: []*corev1.Pod{st.MakePod().Name("db").Label("app", "db").Node("a2").Obj()},
			want: list(100, 100, 0),
		},
		{
			name: "preferred affinity by host, two matches weigh more than one",
			pod:  st.MakePod().Name("p").WeightedPodAffinity(preferred, 4, inTerm("app", hostKey, "db")).Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("db1").Label("app", "db").Node("a1").Obj(),
				st.MakePod().Name("db2").Label("app", "db").Node("a1").Obj(),
				st.MakePod().Name("db3").Label("app", "db").Node("b1").Obj(),
			},
			want: list(100, 0, 50),
		},
		{
			name: "preferred anti-affinity pushes away",
			pod:  st.MakePod().Name("p").WeightedPodAntiAffinity(preferred, 3, inTerm("app", zoneKey, "web")).Obj(),
			pods: []*corev1.Pod{st.MakePod().Name("web").Label("app", "web").Node("b1").Obj()},
			want: list(100, 100, 0),
		},
		{
			name: "affinity and anti-affinity combine",
			pod: st.MakePod().Name("p").
				WeightedPodAffinity(preferred, 10, inTerm("app", zoneKey, "db")).
				WeightedPodAntiAffinity(preferred, 5, inTerm("app", hostKey, "db")).Obj(),
			pods: []*corev1.Pod{st.MakePod().Name("db").Label("app", "db").Node("a1").Obj()},
			// a1: 10-5 = 5, a2: 10, b1: 0.
			want: list(50, 100, 0),
		},
		{
			name: "existing pod's required affinity counts with the hard weight",
			pod:  st.MakePod().Name("p").Label("app", "web").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("fan").PodAffinityIn("app", zoneKey, []string{"web"}, required).Node("b1").Obj(),
			},
			weight: 1,
			want:   list(0, 0, 100),
		},
		{
			name: "hard weight 0 ignores existing pods' required affinity",
			pod:  st.MakePod().Name("p").Label("app", "web").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("fan").PodAffinityIn("app", zoneKey, []string{"web"}, required).Node("b1").Obj(),
			},
			args: `{"hardPodAffinityWeight":0}`,
			want: nil,
		},
		{
			name: "existing pods' preferred terms: affinity attracts, anti-affinity repels",
			pod:  st.MakePod().Name("p").Label("app", "web").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("fan").WeightedPodAffinity(preferred, 8, inTerm("app", hostKey, "web")).Node("a2").Obj(),
				st.MakePod().Name("hater").WeightedPodAntiAffinity(preferred, 8, inTerm("app", hostKey, "web")).Node("b1").Obj(),
			},
			// a1: 0, a2: 8, b1: -8.
			want: list(50, 100, 0),
		},
		{
			name: "ignorePreferredTermsOfExistingPods skips a pod without preferred terms",
			pod:  st.MakePod().Name("p").Label("app", "web").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("fan").WeightedPodAffinity(preferred, 8, inTerm("app", hostKey, "web")).Node("a2").Obj(),
			},
			args: `{"ignorePreferredTermsOfExistingPods":true}`,
			want: nil,
		},
		{
			name: "terms matching nothing in a namespace elsewhere score all the same",
			pod:  st.MakePod().Name("p").WeightedPodAffinity(preferred, 5, inTerm("app", zoneKey, "db")).Obj(),
			pods: []*corev1.Pod{st.MakePod().Name("db").Namespace("x").Label("app", "db").Node("a2").Obj()},
			want: nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.NewSnapshot(tc.pods, nodes)
			h := st.NewHandle(snap)
			if tc.weight != 0 {
				h.SymmetricWeight = tc.weight
			}
			pl := newPlugin(t, h, tc.args)
			if diff := cmp.Diff(tc.want, scoreAll(t, pl, snap, tc.pod)); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNormalizeScore(t *testing.T) {
	tests := []struct {
		name string
		in   []int64
		want []int64
	}{
		{name: "all equal", in: []int64{3, 3, 3}, want: []int64{0, 0, 0}},
		{name: "negative to positive", in: []int64{-10, 0, 10}, want: []int64{0, 50, 100}},
		{name: "thirds truncate", in: []int64{0, 1, 3}, want: []int64{0, 33, 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := framework.NewCycleState()
			cs.Write(preScoreStateKey, &preScoreState{topologyScore: scoreMap{"k": {"v": 1}}})
			var l framework.NodeScoreList
			for i, s := range tc.in {
				l = append(l, framework.NodeScore{Name: string(rune('a' + i)), Score: s})
			}
			pl := &Plugin{}
			if s := pl.NormalizeScore(context.Background(), cs, nil, l); !s.IsSuccess() {
				t.Fatal(s.AsError())
			}
			var got []int64
			for _, s := range l {
				got = append(got, s.Score)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
