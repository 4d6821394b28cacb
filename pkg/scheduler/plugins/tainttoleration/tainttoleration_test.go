package tainttoleration

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

func taint(key, value string, effect corev1.TaintEffect) corev1.Taint {
	return corev1.Taint{Key: key, Value: value, Effect: effect}
}

func tol(key string, op corev1.TolerationOperator, value string, effect corev1.TaintEffect) corev1.Toleration {
	return corev1.Toleration{Key: key, Operator: op, Value: value, Effect: effect}
}

func TestFilter(t *testing.T) {
	const (
		noSched  = corev1.TaintEffectNoSchedule
		noExec   = corev1.TaintEffectNoExecute
		prefer   = corev1.TaintEffectPreferNoSchedule
		equal    = corev1.TolerationOpEqual
		exists   = corev1.TolerationOpExists
		dedicate = "dedicated"
	)
	reject := func(k, v string) *framework.Status {
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("node(s) had untolerated taint {%s: %s}", k, v))
	}
	tests := []struct {
		name   string
		tols   []corev1.Toleration
		taints []corev1.Taint
		want   *framework.Status
	}{
		{name: "no taints"},
		{name: "untolerated NoSchedule", taints: []corev1.Taint{taint(dedicate, "user1", noSched)}, want: reject(dedicate, "user1")},
		{name: "untolerated NoExecute", taints: []corev1.Taint{taint(dedicate, "user1", noExec)}, want: reject(dedicate, "user1")},
		{name: "PreferNoSchedule is not enforced", taints: []corev1.Taint{taint(dedicate, "user1", prefer)}},
		{
			name:   "tolerated by key, value and effect",
			tols:   []corev1.Toleration{tol(dedicate, equal, "user1", noSched)},
			taints: []corev1.Taint{taint(dedicate, "user1", noSched)},
		},
		{
			name:   "value differs",
			tols:   []corev1.Toleration{tol(dedicate, equal, "user2", noSched)},
			taints: []corev1.Taint{taint(dedicate, "user1", noSched)},
			want:   reject(dedicate, "user1"),
		},
		{
			name:   "Exists ignores the value",
			tols:   []corev1.Toleration{tol(dedicate, exists, "", noSched)},
			taints: []corev1.Taint{taint(dedicate, "user1", noSched)},
		},
		{
			name:   "empty toleration effect matches all effects",
			tols:   []corev1.Toleration{tol(dedicate, equal, "user1", "")},
			taints: []corev1.Taint{taint(dedicate, "user1", noSched), taint(dedicate, "user1", noExec)},
		},
		{
			name:   "effect differs",
			tols:   []corev1.Toleration{tol(dedicate, equal, "user1", noExec)},
			taints: []corev1.Taint{taint(dedicate, "user1", noSched)},
			want:   reject(dedicate, "user1"),
		},
		{
			name:   "first untolerated of several is named",
			tols:   []corev1.Toleration{tol("a", exists, "", "")},
			taints: []corev1.Taint{taint("a", "1", noSched), taint("b", "2", prefer), taint("c", "3", noExec), taint("d", "", noSched)},
			want:   reject("c", "3"),
		},
		{
			name:   "empty key with Exists tolerates everything",
			tols:   []corev1.Toleration{tol("", exists, "", "")},
			taints: []corev1.Taint{taint("a", "1", noSched), taint("c", "3", noExec)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := st.MakePod().Name("p").Tolerations(tt.tols).Obj()
			node := st.MakeNode().Name("n").Taints(tt.taints).Obj()
			p, err := New(nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := p.(*TaintToleration).Filter(context.Background(), framework.NewCycleState(), pod, st.NewNodeInfo(node))
			if !got.Equal(tt.want) {
				t.Errorf("Filter = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
		})
	}
}

func TestScore(t *testing.T) {
	const prefer = corev1.TaintEffectPreferNoSchedule
	tests := []struct {
		name  string
		pod   *corev1.Pod
		nodes []*corev1.Node
		want  framework.NodeScoreList
	}{
		{
			name:  "no taints anywhere",
			pod:   st.MakePod().Name("p").Obj(),
			nodes: []*corev1.Node{st.MakeNode().Name("a").Obj(), st.MakeNode().Name("b").Obj()},
			want:  framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b", Score: 100}},
		},
		{
			name: "tolerated soft taint does not count",
			pod:  st.MakePod().Name("p").Tolerations([]corev1.Toleration{tol("foo", corev1.TolerationOpEqual, "bar", prefer)}).Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Taints([]corev1.Taint{taint("foo", "bar", prefer)}).Obj(),
				st.MakeNode().Name("b").Taints([]corev1.Taint{taint("foo", "blah", prefer)}).Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b", Score: 0}},
		},
		{
			name: "fewer untolerated soft taints score higher",
			pod:  st.MakePod().Name("p").Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Obj(),
				st.MakeNode().Name("b").Taints([]corev1.Taint{taint("x", "1", prefer)}).Obj(),
				st.MakeNode().Name("c").Taints([]corev1.Taint{taint("x", "1", prefer), taint("y", "2", prefer)}).Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b", Score: 50}, {Name: "c", Score: 0}},
		},
		{
			name: "hard taints and NoSchedule tolerations do not count",
			pod:  st.MakePod().Name("p").Tolerations([]corev1.Toleration{tol("x", corev1.TolerationOpExists, "", corev1.TaintEffectNoSchedule)}).Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Taints([]corev1.Taint{taint("x", "1", corev1.TaintEffectNoSchedule)}).Obj(),
				st.MakeNode().Name("b").Taints([]corev1.Taint{taint("x", "1", prefer)}).Obj(),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b", Score: 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := st.NewSnapshot(nil, tt.nodes)
			p, err := New(nil, st.NewHandle(snap))
			if err != nil {
				t.Fatal(err)
			}
			pl := p.(*TaintToleration)
			ctx, state := context.Background(), framework.NewCycleState()
			if s := pl.PreScore(ctx, state, tt.pod, snap.List()); !s.IsSuccess() {
				t.Fatalf("PreScore = %v", s.Message())
			}
			var got framework.NodeScoreList
			for _, n := range tt.nodes {
				score, s := pl.Score(ctx, state, tt.pod, snap.NodeInfo(n.Name))
				if !s.IsSuccess() {
					t.Fatalf("Score(%s) = %v", n.Name, s.Message())
				}
				got = append(got, framework.NodeScore{Name: n.Name, Score: score})
			}
			if s := pl.ScoreExtensions().NormalizeScore(ctx, state, tt.pod, got); !s.IsSuccess() {
				t.Fatalf("NormalizeScore = %v", s.Message())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewRejectsArgs(t *testing.T) {
	if _, err := New(json.RawMessage(`{"x": 1}`), nil); err == nil {
		t.Errorf("New accepted an unknown field")
	}
}

func TestEvents(t *testing.T) {
	ev := (&TaintToleration{}).EventsToRegister()[0]
	if !ev.Match(framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.UpdateNodeTaint}) ||
		ev.Match(framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.UpdateNodeAllocatable}) {
		t.Errorf("events %+v", ev)
	}
}

// BenchmarkFilter filters one pod with two tolerations over 5,000 nodes,
// a third of them with a taint it does not tolerate.
func BenchmarkFilter(b *testing.B) {
	pod := st.MakePod().Name("p").Tolerations([]corev1.Toleration{
		tol("dedicated", corev1.TolerationOpEqual, "team", corev1.TaintEffectNoSchedule),
		tol("node.platform.io/not-ready", corev1.TolerationOpExists, "", corev1.TaintEffectNoExecute),
	}).Obj()
	nodes := make([]*framework.NodeInfo, 5000)
	for i := range nodes {
		w := st.MakeNode().Name(fmt.Sprintf("n%d", i)).Taint("dedicated", "team", corev1.TaintEffectNoSchedule)
		if i%3 == 0 {
			w.Taint("gpu", "true", corev1.TaintEffectNoSchedule)
		}
		nodes[i] = st.NewNodeInfo(w.Obj())
	}
	pl := &TaintToleration{}
	ctx, state := context.Background(), framework.NewCycleState()
	b.ReportAllocs()
	for b.Loop() {
		for _, ni := range nodes {
			pl.Filter(ctx, state, pod, ni)
		}
	}
}
