package nodeaffinity

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

func expr(key string, op corev1.NodeSelectorOperator, vals ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: op, Values: vals}
}

func nameIn(names ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: names}
}

func exprTerm(rs ...corev1.NodeSelectorRequirement) corev1.NodeSelectorTerm {
	return corev1.NodeSelectorTerm{MatchExpressions: rs}
}

func fieldTerm(rs ...corev1.NodeSelectorRequirement) corev1.NodeSelectorTerm {
	return corev1.NodeSelectorTerm{MatchFields: rs}
}

func TestFilter(t *testing.T) {
	podReject := framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonPod)
	tests := []struct {
		name   string
		pod    *corev1.Pod
		labels map[string]string
		args   string
		want   *framework.Status
	}{
		{name: "no constraints", pod: st.MakePod().Obj(), labels: map[string]string{"foo": "bar"}},
		{name: "selector matches", pod: st.MakePod().NodeSelector(map[string]string{"foo": "bar"}).Obj(), labels: map[string]string{"foo": "bar"}},
		{name: "selector value differs", pod: st.MakePod().NodeSelector(map[string]string{"foo": "bar"}).Obj(), labels: map[string]string{"foo": "baz"}, want: podReject},
		{name: "selector label missing", pod: st.MakePod().NodeSelector(map[string]string{"foo": "bar"}).Obj(), want: podReject},
		{name: "In matches", pod: st.MakePod().NodeAffinityIn("foo", "x", "bar").Obj(), labels: map[string]string{"foo": "bar"}},
		{name: "In misses", pod: st.MakePod().NodeAffinityIn("foo", "x").Obj(), labels: map[string]string{"foo": "bar"}, want: podReject},
		{name: "NotIn with label absent", pod: st.MakePod().NodeAffinityNotIn("foo", "bar").Obj()},
		{name: "NotIn excludes", pod: st.MakePod().NodeAffinityNotIn("foo", "bar").Obj(), labels: map[string]string{"foo": "bar"}, want: podReject},
		{
			name:   "Gt compares integers",
			pod:    st.MakePod().RequiredNodeTerms(exprTerm(expr("gpus", corev1.NodeSelectorOpGt, "2"))).Obj(),
			labels: map[string]string{"gpus": "4"},
		},
		{
			name:   "Lt fails on a larger value",
			pod:    st.MakePod().RequiredNodeTerms(exprTerm(expr("gpus", corev1.NodeSelectorOpLt, "2"))).Obj(),
			labels: map[string]string{"gpus": "4"},
			want:   podReject,
		},
		{
			name:   "DoesNotExist",
			pod:    st.MakePod().RequiredNodeTerms(exprTerm(expr("gpus", corev1.NodeSelectorOpDoesNotExist))).Obj(),
			labels: map[string]string{"gpus": "4"},
			want:   podReject,
		},
		{
			name: "terms are ORed",
			pod: st.MakePod().RequiredNodeTerms(
				exprTerm(expr("zone", corev1.NodeSelectorOpIn, "a")),
				exprTerm(expr("gpus", corev1.NodeSelectorOpExists)),
			).Obj(),
			labels: map[string]string{"gpus": "4", "zone": "b"},
		},
		{
			name:   "requirements of a term are ANDed",
			pod:    st.MakePod().RequiredNodeTerms(exprTerm(expr("zone", corev1.NodeSelectorOpIn, "b"), expr("gpus", corev1.NodeSelectorOpDoesNotExist))).Obj(),
			labels: map[string]string{"gpus": "4", "zone": "b"},
			want:   podReject,
		},
		{name: "empty term matches nothing", pod: st.MakePod().RequiredNodeTerms(corev1.NodeSelectorTerm{}).Obj(), labels: map[string]string{"a": "b"}, want: podReject},
		{name: "no terms matches nothing", pod: st.MakePod().RequiredNodeTerms().Obj(), want: podReject},
		{
			name:   "selector and affinity must both match",
			pod:    st.MakePod().NodeSelector(map[string]string{"foo": "bar"}).NodeAffinityIn("zone", "a").Obj(),
			labels: map[string]string{"foo": "bar", "zone": "b"},
			want:   podReject,
		},
		{name: "matchFields by name", pod: st.MakePod().RequiredNodeTerms(fieldTerm(nameIn("node1"))).Obj()},
		{name: "matchFields other name", pod: st.MakePod().RequiredNodeTerms(fieldTerm(nameIn("node2"))).Obj(), want: podReject},
		{
			name:   "added affinity enforced",
			pod:    st.MakePod().Obj(),
			labels: map[string]string{"zone": "b"},
			args:   `{"addedAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]}}}`,
			want:   framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonEnforced),
		},
		{
			name:   "added affinity and pod's both pass",
			pod:    st.MakePod().NodeAffinityIn("foo", "bar").Obj(),
			labels: map[string]string{"zone": "a", "foo": "bar"},
			args:   `{"addedAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]}}}`,
		},
		{
			name:   "added affinity passes, pod's fails",
			pod:    st.MakePod().NodeAffinityIn("foo", "bar").Obj(),
			labels: map[string]string{"zone": "a"},
			args:   `{"addedAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]}}}`,
			want:   podReject,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := st.MakeNode().Name("node1").Labels(tt.labels).Obj()
			p, err := New(json.RawMessage(tt.args), nil)
			if err != nil {
				t.Fatal(err)
			}
			pl := p.(*NodeAffinity)
			state := framework.NewCycleState()
			_, pre := pl.PreFilter(context.Background(), state, tt.pod)
			if pre.IsSkip() {
				if tt.want != nil {
					t.Fatalf("PreFilter skipped a pod that Filter must reject")
				}
			} else if pre.IsRejected() {
				t.Fatalf("PreFilter = %v", pre.Message())
			}
			got := pl.Filter(context.Background(), state, tt.pod, st.NewNodeInfo(node))
			if !got.Equal(tt.want) {
				t.Errorf("Filter = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
		})
	}
}

func TestPreFilter(t *testing.T) {
	tests := []struct {
		name       string
		pod        *corev1.Pod
		wantResult *framework.PreFilterResult
		wantCode   framework.Code
	}{
		{name: "nothing to check", pod: st.MakePod().Obj(), wantCode: framework.Skip},
		{name: "selector only", pod: st.MakePod().NodeSelector(map[string]string{"a": "b"}).Obj()},
		{name: "labels only", pod: st.MakePod().NodeAffinityIn("a", "b").Obj()},
		{
			name:       "one term by name",
			pod:        st.MakePod().RequiredNodeTerms(fieldTerm(nameIn("n1", "n2"))).Obj(),
			wantResult: &framework.PreFilterResult{NodeNames: map[string]bool{"n1": true, "n2": true}},
		},
		{
			name:       "names intersect within a term",
			pod:        st.MakePod().RequiredNodeTerms(fieldTerm(nameIn("n1", "n2"), nameIn("n2", "n3"))).Obj(),
			wantResult: &framework.PreFilterResult{NodeNames: map[string]bool{"n2": true}},
		},
		{
			name:       "names unite across terms",
			pod:        st.MakePod().RequiredNodeTerms(fieldTerm(nameIn("n1")), fieldTerm(nameIn("n3"))).Obj(),
			wantResult: &framework.PreFilterResult{NodeNames: map[string]bool{"n1": true, "n3": true}},
		},
		{
			name: "a term without names allows all",
			pod:  st.MakePod().RequiredNodeTerms(fieldTerm(nameIn("n1")), exprTerm(expr("a", corev1.NodeSelectorOpExists))).Obj(),
		},
		{
			name:     "conflicting names",
			pod:      st.MakePod().RequiredNodeTerms(fieldTerm(nameIn("n1"), nameIn("n2"))).Obj(),
			wantCode: framework.UnschedulableAndUnresolvable,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl := &NodeAffinity{}
			got, s := pl.PreFilter(context.Background(), framework.NewCycleState(), tt.pod)
			if s.Code() != tt.wantCode {
				t.Errorf("code = %v (%s), want %v", s.Code(), s.Message(), tt.wantCode)
			}
			if diff := cmp.Diff(tt.wantResult, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScore(t *testing.T) {
	nodes := func() []*corev1.Node {
		return []*corev1.Node{
			st.MakeNode().Name("a").Label("zone", "z1").Obj(),
			st.MakeNode().Name("b").Label("zone", "z2").Label("disk", "ssd").Obj(),
			st.MakeNode().Name("c").Label("zone", "z3").Obj(),
		}
	}
	tests := []struct {
		name string
		pod  *corev1.Pod
		args string
		want framework.NodeScoreList
	}{
		{
			name: "no preferences",
			pod:  st.MakePod().Obj(),
			want: framework.NodeScoreList{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		},
		{
			name: "one term",
			pod:  st.MakePod().PreferredNodeAffinityIn(2, "zone", "z1").Obj(),
			want: framework.NodeScoreList{{Name: "a", Score: 100}, {Name: "b"}, {Name: "c"}},
		},
		{
			name: "weights add and normalize by the best",
			pod:  st.MakePod().PreferredNodeAffinityIn(2, "zone", "z1").PreferredNodeAffinityIn(5, "zone", "z2").PreferredNodeAffinityIn(3, "disk", "ssd").Obj(),
			want: framework.NodeScoreList{{Name: "a", Score: 25}, {Name: "b", Score: 100}, {Name: "c"}},
		},
		{
			name: "added preferred terms count",
			pod:  st.MakePod().PreferredNodeAffinityIn(1, "zone", "z1").Obj(),
			args: `{"addedAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":3,"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["z3"]}]}}]}}`,
			want: framework.NodeScoreList{{Name: "a", Score: 33}, {Name: "b"}, {Name: "c", Score: 100}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := nodes()
			snap := st.NewSnapshot(nil, ns)
			p, err := New(json.RawMessage(tt.args), st.NewHandle(snap))
			if err != nil {
				t.Fatal(err)
			}
			pl := p.(*NodeAffinity)
			ctx, state := context.Background(), framework.NewCycleState()
			pre := pl.PreScore(ctx, state, tt.pod, nil)
			var got framework.NodeScoreList
			for _, n := range ns {
				score := int64(0)
				if !pre.IsSkip() {
					var s *framework.Status
					if score, s = pl.Score(ctx, state, tt.pod, snap.NodeInfo(n.Name)); !s.IsSuccess() {
						t.Fatalf("Score(%s) = %v", n.Name, s.Message())
					}
				}
				got = append(got, framework.NodeScore{Name: n.Name, Score: score})
			}
			pl.NormalizeScore(ctx, state, tt.pod, got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewArgs(t *testing.T) {
	const req = `{"addedAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[%s]}}}`
	tests := []struct {
		name    string
		args    string
		wantErr bool
	}{
		{name: "nil"},
		{name: "empty", args: `{}`},
		{name: "valid", args: fmt.Sprintf(req, `{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}`)},
		{name: "unknown field", args: `{"addedAffinity":{},"extra":1}`, wantErr: true},
		{name: "no terms", args: fmt.Sprintf(req, ``), wantErr: true},
		{name: "bad operator", args: fmt.Sprintf(req, `{"matchExpressions":[{"key":"zone","operator":"Near","values":["a"]}]}`), wantErr: true},
		{name: "In without values", args: fmt.Sprintf(req, `{"matchExpressions":[{"key":"zone","operator":"In"}]}`), wantErr: true},
		{name: "Exists with values", args: fmt.Sprintf(req, `{"matchExpressions":[{"key":"zone","operator":"Exists","values":["a"]}]}`), wantErr: true},
		{name: "Gt not integer", args: fmt.Sprintf(req, `{"matchExpressions":[{"key":"n","operator":"Gt","values":["x"]}]}`), wantErr: true},
		{name: "field not name", args: fmt.Sprintf(req, `{"matchFields":[{"key":"spec.x","operator":"In","values":["a"]}]}`), wantErr: true},
		{name: "field two values", args: fmt.Sprintf(req, `{"matchFields":[{"key":"metadata.name","operator":"In","values":["a","b"]}]}`), wantErr: true},
		{
			name:    "weight out of range",
			args:    `{"addedAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":101,"preference":{}}]}}`,
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(json.RawMessage(tt.args), nil)
			if (err != nil) != tt.wantErr {
				t.Errorf("New error = %v, wantErr %v", err, tt.wantErr)
			}
		})
	}
}

func TestEvents(t *testing.T) {
	ev := (&NodeAffinity{}).EventsToRegister()[0]
	if !ev.Match(framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.UpdateNodeLabel}) ||
		ev.Match(framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Delete}) {
		t.Errorf("events %+v", ev)
	}
}

// BenchmarkFilter filters a pod with a node selector and a required term
// over 5,000 nodes in 10 zones; 3 zones fit.
func BenchmarkFilter(b *testing.B) {
	pod := st.MakePod().Name("p").NodeSelector(map[string]string{"pool": "general"}).
		NodeAffinityIn("topology.platform.io/zone", "z1", "z4", "z7").NodeAffinityNotIn("maintenance", "true").Obj()
	nodes := make([]*framework.NodeInfo, 5000)
	for i := range nodes {
		n := st.MakeNode().Name(fmt.Sprintf("n%d", i)).Label("pool", "general").
			Label("topology.platform.io/zone", fmt.Sprintf("z%d", i%10)).Label("arch", "amd64").Obj()
		nodes[i] = st.NewNodeInfo(n)
	}
	pl := &NodeAffinity{}
	ctx, state := context.Background(), framework.NewCycleState()
	b.ReportAllocs()
	for b.Loop() {
		for _, ni := range nodes {
			pl.Filter(ctx, state, pod, ni)
		}
	}
}
