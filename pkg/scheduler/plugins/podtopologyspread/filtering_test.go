package podtopologyspread

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
	"platform.io/platform/pkg/scheduler/plugins/internal/plugintest"
)

const zoneKey = LabelZone

var (
	honor  = corev1.NodeInclusionPolicyHonor
	ignore = corev1.NodeInclusionPolicyIgnore
)

func int32p(v int32) *int32 { return &v }

func newPlugin(t testing.TB, h framework.Handle, args string) *Plugin {
	t.Helper()
	return plugintest.NewPlugin[*Plugin](t, New, h, args)
}

// statusText renders a status for comparison; filterAll runs PreFilter,
// then Filter on every node.
var (
	statusText = plugintest.StatusText
	filterAll  = plugintest.FilterAll
)

const (
	skewFail  = "Unschedulable: " + ErrReasonConstraintsNotMatch
	labelFail = "UnschedulableAndUnresolvable: " + ErrReasonNodeLabelNotMatch
)

// fooPod is a pod labelled foo on node.
func fooPod(name, node string) *corev1.Pod {
	return st.MakePod().Name(name).Label("foo", "").Node(node).Obj()
}

func fooSelector() *st.LabelSelectorWrapper { return st.MakeLabelSelector().Exists("foo") }

func TestFilter(t *testing.T) {
	nodes := []*corev1.Node{
		st.MakeNode().Name("a").Label(zoneKey, "z1").Obj(),
		st.MakeNode().Name("b").Label(zoneKey, "z1").Obj(),
		st.MakeNode().Name("x").Label(zoneKey, "z2").Obj(),
		st.MakeNode().Name("y").Label(zoneKey, "z2").Obj(),
	}
	withNoZone := append(append([]*corev1.Node{}, nodes...), st.MakeNode().Name("nozone").Obj())
	tainted := append(append([]*corev1.Node{}, nodes[:2]...),
		st.MakeNode().Name("x").Label(zoneKey, "z2").Taint("k", "v", corev1.TaintEffectNoSchedule).Obj(),
		st.MakeNode().Name("y").Label(zoneKey, "z2").Taint("k", "v", corev1.TaintEffectNoSchedule).Obj())
	zoneSpread := func(skew int32) *st.PodWrapper {
		return st.MakePod().Name("p").Label("foo", "").SpreadConstraint(skew, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, nil, nil)
	}
	tests := []struct {
		name  string
		pod   *corev1.Pod
		pods  []*corev1.Pod
		nodes []*corev1.Node
		args  string
		want  map[string]string
	}{
		{
			name:  "no existing pods: every node fits",
			pod:   zoneSpread(1).Obj(),
			nodes: nodes,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": ""},
		},
		{
			name:  "3 in z1, 1 in z2, maxSkew 1: only z2",
			pod:   zoneSpread(1).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "a"), fooPod("p3", "b"), fooPod("p4", "x")},
			nodes: nodes,
			want:  map[string]string{"a": skewFail, "b": skewFail, "x": "", "y": ""},
		},
		{
			name:  "3 in z1, 1 in z2, maxSkew 3: everywhere",
			pod:   zoneSpread(3).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "a"), fooPod("p3", "b"), fooPod("p4", "x")},
			nodes: nodes,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": ""},
		},
		{
			name: "a pod that does not match itself adds nothing",
			pod: st.MakePod().Name("p").
				SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, nil, nil).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p4", "x"), fooPod("p5", "a")},
			nodes: nodes,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": ""},
		},
		{
			name:  "a node without the key is unresolvable",
			pod:   zoneSpread(1).Obj(),
			nodes: withNoZone,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": "", "nozone": labelFail},
		},
		{
			name: "terminating pods and pods of other namespaces are not counted",
			pod:  zoneSpread(1).Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("t1").Label("foo", "").Node("a").Terminating(time.Unix(100, 0)).Obj(),
				st.MakePod().Name("o1").Namespace("other").Label("foo", "").Node("a").Obj(),
				fooPod("p1", "x"),
			},
			nodes: nodes,
			// Counted, they would make z1 2 and the minimum 1, failing a and b.
			want: map[string]string{"a": "", "b": "", "x": skewFail, "y": skewFail},
		},
		{
			name: "two constraints: zone and host",
			pod:  zoneSpread(1).SpreadConstraint(1, LabelHostname, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, nil, nil).Obj(),
			// z1: a=1, b=0; z2: x=1, y=1. zone min 1: z1 1+1-1=1 ok, z2 2+1-1=2 fails.
			// host min 0: a 1+1=2 fails.
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "x"), fooPod("p3", "y")},
			nodes: nodes,
			want:  map[string]string{"a": skewFail, "b": "", "x": skewFail, "y": skewFail},
		},
		{
			name: "minDomains above the domains makes the global minimum 0",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), int32p(3), nil, nil, nil).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "x")},
			nodes: nodes,
			want:  map[string]string{"a": skewFail, "b": skewFail, "x": skewFail, "y": skewFail},
		},
		{
			name: "minDomains met keeps the real minimum",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), int32p(2), nil, nil, nil).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "x")},
			nodes: nodes,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": ""},
		},
		{
			name: "nodeAffinityPolicy Honor (default): z2 excluded by node affinity is no domain",
			pod:  zoneSpread(1).NodeAffinityIn(zoneKey, "z1").Obj(),
			// Only z1 counts: min is z1's 2, so z1 fits (2+1-2 = 1).
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "b")},
			nodes: nodes,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": ""},
		},
		{
			name: "nodeAffinityPolicy Ignore: z2 counts with 0, so z1 fails",
			pod: st.MakePod().Name("p").Label("foo", "").NodeAffinityIn(zoneKey, "z1").
				SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), nil, &ignore, nil, nil).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "b")},
			nodes: nodes,
			want:  map[string]string{"a": skewFail, "b": skewFail, "x": "", "y": ""},
		},
		{
			name:  "nodeTaintsPolicy Ignore (default): tainted z2 counts with 0",
			pod:   zoneSpread(1).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "b")},
			nodes: tainted,
			want:  map[string]string{"a": skewFail, "b": skewFail, "x": "", "y": ""},
		},
		{
			name: "nodeTaintsPolicy Honor: untolerated tainted z2 is no domain",
			pod: st.MakePod().Name("p").Label("foo", "").
				SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, &honor, nil).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "b")},
			nodes: tainted,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": ""},
		},
		{
			name: "nodeTaintsPolicy Honor with a toleration: z2 counts again",
			pod: st.MakePod().Name("p").Label("foo", "").Toleration("k").
				SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, &honor, nil).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "b")},
			nodes: tainted,
			want:  map[string]string{"a": skewFail, "b": skewFail, "x": "", "y": ""},
		},
		{
			name: "matchLabelKeys narrows to pods with the pod's own value",
			pod: st.MakePod().Name("p").Labels(map[string]string{"foo": "", "rev": "2"}).
				SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, nil, []string{"rev"}).Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("old1").Labels(map[string]string{"foo": "", "rev": "1"}).Node("x").Obj(),
				st.MakePod().Name("old2").Labels(map[string]string{"foo": "", "rev": "1"}).Node("x").Obj(),
				st.MakePod().Name("new1").Labels(map[string]string{"foo": "", "rev": "2"}).Node("a").Obj(),
			},
			nodes: nodes,
			want:  map[string]string{"a": skewFail, "b": skewFail, "x": "", "y": ""},
		},
		{
			name:  "ScheduleAnyway constraints never filter",
			pod:   st.MakePod().Name("p").Label("foo", "").SpreadConstraint(1, zoneKey, corev1.ScheduleAnyway, fooSelector().Obj(), nil, nil, nil, nil).Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "a"), fooPod("p3", "a")},
			nodes: nodes,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": ""},
		},
		{
			name: "List default DoNotSchedule constraint counts the pods of the same controller",
			pod:  st.MakePod().Name("p").Label("app", "web").OwnerReference("apps/v1", "ReplicaSet", "rs1").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("w1").Label("app", "web").OwnerReference("apps/v1", "ReplicaSet", "rs1").Node("a").Obj(),
				st.MakePod().Name("w2").Label("app", "web").OwnerReference("apps/v1", "ReplicaSet", "rs1").Node("b").Obj(),
				// Same labels, another owner: not counted.
				st.MakePod().Name("v1").Label("app", "web").OwnerReference("apps/v1", "ReplicaSet", "rs2").Node("x").Obj(),
				st.MakePod().Name("v2").Label("app", "web").OwnerReference("apps/v1", "ReplicaSet", "rs2").Node("y").Obj(),
			},
			nodes: nodes,
			args:  `{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"` + zoneKey + `","whenUnsatisfiable":"DoNotSchedule"}]}`,
			want:  map[string]string{"a": skewFail, "b": skewFail, "x": "", "y": ""},
		},
		{
			name:  "List defaults do not apply to a pod without a controller",
			pod:   st.MakePod().Name("p").Label("app", "web").Obj(),
			pods:  []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "b")},
			nodes: nodes,
			args:  `{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"` + zoneKey + `","whenUnsatisfiable":"DoNotSchedule"}]}`,
			want:  map[string]string{"a": "", "b": "", "x": "", "y": ""},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.NewSnapshot(tc.pods, tc.nodes)
			pl := newPlugin(t, st.NewHandle(snap), tc.args)
			if diff := cmp.Diff(tc.want, filterAll(t, pl, snap, tc.pod)); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPreFilterExtensions(t *testing.T) {
	nodes := []*corev1.Node{
		st.MakeNode().Name("a").Label(zoneKey, "z1").Obj(),
		st.MakeNode().Name("b").Label(zoneKey, "z1").Obj(),
		st.MakeNode().Name("x").Label(zoneKey, "z2").Obj(),
	}
	pod := st.MakePod().Name("p").Label("foo", "").
		SpreadConstraint(1, zoneKey, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, nil, nil).
		SpreadConstraint(1, LabelHostname, corev1.DoNotSchedule, fooSelector().Obj(), nil, nil, nil, nil).Obj()
	start := []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "a"), fooPod("p3", "x")}
	tests := []struct {
		name        string
		add, remove []*corev1.Pod
	}{
		{name: "remove from the crowded node", remove: []*corev1.Pod{fooPod("p1", "a"), fooPod("p2", "a")}},
		{name: "add to the empty zone", add: []*corev1.Pod{fooPod("n1", "x"), fooPod("n2", "x")}},
		{name: "add to another namespace changes nothing", add: []*corev1.Pod{
			st.MakePod().Name("o").Namespace("other").Label("foo", "").Node("x").Obj(),
		}},
		{name: "remove then add back", remove: []*corev1.Pod{fooPod("p3", "x")}, add: []*corev1.Pod{fooPod("p3", "x")}},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.NewSnapshot(start, nodes)
			pl := newPlugin(t, st.NewHandle(snap), "")
			cs := framework.NewCycleState()
			if _, s := pl.PreFilter(ctx, cs, pod); !s.IsSuccess() {
				t.Fatal(s.AsError())
			}
			final := map[string]*corev1.Pod{}
			for _, p := range start {
				final[p.Name] = p
			}
			for _, p := range tc.remove {
				ni, _ := snap.Get(p.Spec.NodeName)
				if s := pl.RemovePod(ctx, cs, pod, framework.NewPodInfo(p), ni); !s.IsSuccess() {
					t.Fatal(s.AsError())
				}
				delete(final, p.Name)
			}
			for _, p := range tc.add {
				ni, _ := snap.Get(p.Spec.NodeName)
				if s := pl.AddPod(ctx, cs, pod, framework.NewPodInfo(p), ni); !s.IsSuccess() {
					t.Fatal(s.AsError())
				}
				final[p.Name] = p
			}
			var all []*corev1.Pod
			for _, p := range final {
				all = append(all, p)
			}
			fresh := st.NewSnapshot(all, nodes)
			want := filterAll(t, newPlugin(t, st.NewHandle(fresh), ""), fresh, pod)
			got := map[string]string{}
			for _, ni := range snap.List() {
				got[ni.Node().Name] = statusText(pl.Filter(ctx, cs, pod, ni))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-fresh +incremental):\n%s", diff)
			}
		})
	}
}

func TestCriticalPaths(t *testing.T) {
	type upd struct {
		v string
		n int
	}
	tests := []struct {
		name    string
		updates []upd
		want    [2]string
		nums    [2]int
	}{
		{name: "two domains", updates: []upd{{"a", 3}, {"b", 1}}, want: [2]string{"b", "a"}, nums: [2]int{1, 3}},
		{name: "third smaller pushes out", updates: []upd{{"a", 3}, {"b", 2}, {"c", 1}}, want: [2]string{"c", "b"}, nums: [2]int{1, 2}},
		{name: "existing grows past the other", updates: []upd{{"a", 1}, {"b", 2}, {"a", 5}}, want: [2]string{"b", "a"}, nums: [2]int{2, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newCriticalPaths()
			for _, u := range tc.updates {
				p.update(u.v, u.n)
			}
			got := [2]string{p[0].value, p[1].value}
			nums := [2]int{p[0].num, p[1].num}
			if got != tc.want || nums != tc.nums {
				t.Errorf("got %v %v, want %v %v", got, nums, tc.want, tc.nums)
			}
		})
	}
}

func TestNewArgs(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		wantErr bool
		system  bool
	}{
		{name: "nil is System", system: true},
		{name: "explicit System", args: `{"defaultingType":"System"}`, system: true},
		{name: "List with constraints", args: `{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"ScheduleAnyway"}]}`},
		{name: "List empty", args: `{"defaultingType":"List"}`},
		{name: "System with constraints", args: `{"defaultingType":"System","defaultConstraints":[{"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"ScheduleAnyway"}]}`, wantErr: true},
		{name: "bad type", args: `{"defaultingType":"Other"}`, wantErr: true},
		{name: "unknown field", args: `{"defaultConstraint":[]}`, wantErr: true},
		{name: "zero skew", args: `{"defaultingType":"List","defaultConstraints":[{"maxSkew":0,"topologyKey":"k","whenUnsatisfiable":"ScheduleAnyway"}]}`, wantErr: true},
		{name: "selector set", args: `{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"ScheduleAnyway","labelSelector":{}}]}`, wantErr: true},
		{name: "duplicate", args: `{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"ScheduleAnyway"},{"maxSkew":2,"topologyKey":"k","whenUnsatisfiable":"ScheduleAnyway"}]}`, wantErr: true},
		{name: "bad action", args: `{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"Maybe"}]}`, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var raw []byte
			if tc.args != "" {
				raw = []byte(tc.args)
			}
			p, err := New(raw, st.NewHandle(st.NewSnapshot(nil, nil)))
			if (err != nil) != tc.wantErr {
				t.Fatalf("New: %v, want error %v", err, tc.wantErr)
			}
			if err == nil && p.(*Plugin).systemDefaulted != tc.system {
				t.Errorf("systemDefaulted %v, want %v", p.(*Plugin).systemDefaulted, tc.system)
			}
		})
	}
}
