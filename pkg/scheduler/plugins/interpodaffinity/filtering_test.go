package interpodaffinity

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
	"platform.io/platform/pkg/scheduler/plugins/internal/plugintest"
)

const (
	hostKey = "platform.io/hostname"
	zoneKey = "topology.platform.io/zone"
)

var (
	required  = st.PodAffinityWithRequiredReq
	preferred = st.PodAffinityWithPreferredReq
)

// nsHandle is a test handle that knows namespaces' labels.
type nsHandle struct {
	*st.Handle
	ns map[string]labels.Set
}

func (h nsHandle) NamespaceLabels(ns string) labels.Set { return h.ns[ns] }

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
	affinityFail = "UnschedulableAndUnresolvable: " + ErrReasonAffinityRulesNotMatch
	antiFail     = "Unschedulable: " + ErrReasonAntiAffinityRulesNotMatch
	existingFail = "Unschedulable: " + ErrReasonExistingAntiAffinityRulesNotMatch
)

func TestFilter(t *testing.T) {
	zoneNodes := []*corev1.Node{
		st.MakeNode().Name("a1").Label(zoneKey, "a").Obj(),
		st.MakeNode().Name("a2").Label(zoneKey, "a").Obj(),
		st.MakeNode().Name("b1").Label(zoneKey, "b").Obj(),
		st.MakeNode().Name("nozone").Obj(),
	}
	tests := []struct {
		name  string
		pod   *corev1.Pod
		pods  []*corev1.Pod
		nodes []*corev1.Node
		ns    map[string]labels.Set
		want  map[string]string
	}{
		{
			name:  "no terms anywhere fits everywhere",
			pod:   st.MakePod().Name("p").Label("app", "web").Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("e").Label("app", "web").Node("a1").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": "", "a2": "", "b1": "", "nozone": ""},
		},
		{
			name:  "required affinity by zone: only the zone holding a match",
			pod:   st.MakePod().Name("p").PodAffinityIn("app", zoneKey, []string{"db"}, required).Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("db").Label("app", "db").Node("a2").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": "", "a2": "", "b1": affinityFail, "nozone": affinityFail},
		},
		{
			name: "required affinity: a match in another namespace does not count",
			pod:  st.MakePod().Name("p").PodAffinityIn("app", zoneKey, []string{"db"}, required).Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("db").Namespace("other").Label("app", "db").Node("a2").Obj(),
				st.MakePod().Name("web").Label("app", "web").Node("b1").Obj(),
			},
			nodes: zoneNodes,
			want:  map[string]string{"a1": affinityFail, "a2": affinityFail, "b1": affinityFail, "nozone": affinityFail},
		},
		{
			name: "required affinity with namespaces names the other namespace",
			pod: st.MakePod().Name("p").PodAffinity(required, corev1.PodAffinityTerm{
				TopologyKey: zoneKey, Namespaces: []string{"other"},
				LabelSelector: st.MakeLabelSelector().Label("app", "db").Obj(),
			}).Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("db").Namespace("other").Label("app", "db").Node("b1").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": affinityFail, "a2": affinityFail, "b1": "", "nozone": affinityFail},
		},
		{
			name: "required affinity with a namespaceSelector reads namespace labels",
			pod: st.MakePod().Name("p").PodAffinity(required, corev1.PodAffinityTerm{
				TopologyKey:       zoneKey,
				NamespaceSelector: st.MakeLabelSelector().Label("team", "data").Obj(),
				LabelSelector:     st.MakeLabelSelector().Label("app", "db").Obj(),
			}).Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("db1").Namespace("data").Label("app", "db").Node("b1").Obj(),
				st.MakePod().Name("db2").Namespace("other").Label("app", "db").Node("a1").Obj(),
			},
			ns:    map[string]labels.Set{"data": {"team": "data"}, "other": {"team": "web"}},
			nodes: zoneNodes,
			want:  map[string]string{"a1": affinityFail, "a2": affinityFail, "b1": "", "nozone": affinityFail},
		},
		{
			name:  "first pod of a self-affine group may go anywhere with the key",
			pod:   st.MakePod().Name("p").Label("app", "web").PodAffinityIn("app", zoneKey, []string{"web"}, required).Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("other").Label("app", "db").Node("a1").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": "", "a2": "", "b1": "", "nozone": affinityFail},
		},
		{
			name:  "no matching pod and not self-affine: nowhere",
			pod:   st.MakePod().Name("p").Label("app", "web").PodAffinityIn("app", zoneKey, []string{"db"}, required).Obj(),
			nodes: zoneNodes,
			want:  map[string]string{"a1": affinityFail, "a2": affinityFail, "b1": affinityFail, "nozone": affinityFail},
		},
		{
			name: "affinity with two terms needs one pod matching both",
			pod: st.MakePod().Name("p").
				PodAffinityIn("app", zoneKey, []string{"db"}, required).
				PodAffinityIn("tier", zoneKey, []string{"back"}, required).Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("db").Label("app", "db").Node("a1").Obj(),
				st.MakePod().Name("back").Label("tier", "back").Node("a2").Obj(),
				st.MakePod().Name("both").Labels(map[string]string{"app": "db", "tier": "back"}).Node("b1").Obj(),
			},
			nodes: zoneNodes,
			want:  map[string]string{"a1": affinityFail, "a2": affinityFail, "b1": "", "nozone": affinityFail},
		},
		{
			name:  "required anti-affinity by hostname keeps off the node with a match",
			pod:   st.MakePod().Name("p").PodAntiAffinityIn("app", hostKey, []string{"web"}, required).Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("web").Label("app", "web").Node("a1").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": antiFail, "a2": "", "b1": "", "nozone": ""},
		},
		{
			name:  "required anti-affinity by zone keeps off the whole zone; a node without the key fits",
			pod:   st.MakePod().Name("p").PodAntiAffinityIn("app", zoneKey, []string{"web"}, required).Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("web").Label("app", "web").Node("a1").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": antiFail, "a2": antiFail, "b1": "", "nozone": ""},
		},
		{
			name:  "a terminating-free match in another namespace does not repel",
			pod:   st.MakePod().Name("p").PodAntiAffinityIn("app", zoneKey, []string{"web"}, required).Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("web").Namespace("x").Label("app", "web").Node("a1").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": "", "a2": "", "b1": "", "nozone": ""},
		},
		{
			name: "symmetry: an existing pod's anti-affinity repels the incoming pod from its zone",
			pod:  st.MakePod().Name("p").Label("app", "web").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("lonely").PodAntiAffinityIn("app", zoneKey, []string{"web"}, required).Node("b1").Obj(),
			},
			nodes: zoneNodes,
			want:  map[string]string{"a1": "", "a2": "", "b1": existingFail, "nozone": ""},
		},
		{
			name: "symmetry ignores an existing pod's anti-affinity the pod does not match",
			pod:  st.MakePod().Name("p").Label("app", "db").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("lonely").PodAntiAffinityIn("app", zoneKey, []string{"web"}, required).Node("b1").Obj(),
			},
			nodes: zoneNodes,
			want:  map[string]string{"a1": "", "a2": "", "b1": "", "nozone": ""},
		},
		{
			name: "affinity satisfied but anti-affinity violated on the same node",
			pod: st.MakePod().Name("p").
				PodAffinityIn("app", zoneKey, []string{"db"}, required).
				PodAntiAffinityIn("app", hostKey, []string{"db"}, required).Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("db").Label("app", "db").Node("a1").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": antiFail, "a2": "", "b1": affinityFail, "nozone": affinityFail},
		},
		{
			name:  "preferred terms never filter",
			pod:   st.MakePod().Name("p").PodAntiAffinityIn("app", hostKey, []string{"web"}, preferred).Obj(),
			pods:  []*corev1.Pod{st.MakePod().Name("web").Label("app", "web").Node("a1").Obj()},
			nodes: zoneNodes,
			want:  map[string]string{"a1": "", "a2": "", "b1": "", "nozone": ""},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.NewSnapshot(tc.pods, tc.nodes)
			pl := newPlugin(t, nsHandle{Handle: st.NewHandle(snap), ns: tc.ns}, "")
			if diff := cmp.Diff(tc.want, filterAll(t, pl, snap, tc.pod)); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNamespaceSelectorWithoutLabeler(t *testing.T) {
	// A handle without namespace labels: a selector asking for a label
	// matches no namespace, so only the pod's own namespace would count.
	pod := st.MakePod().Name("p").PodAffinity(required, corev1.PodAffinityTerm{
		TopologyKey:       hostKey,
		NamespaceSelector: st.MakeLabelSelector().Label("team", "data").Obj(),
		LabelSelector:     st.MakeLabelSelector().Label("app", "db").Obj(),
	}).Obj()
	nodes := []*corev1.Node{st.MakeNode().Name("n1").Obj()}
	pods := []*corev1.Pod{st.MakePod().Name("db").Namespace("data").Label("app", "db").Node("n1").Obj()}
	snap := st.NewSnapshot(pods, nodes)
	pl := newPlugin(t, st.NewHandle(snap), "")
	if diff := cmp.Diff(map[string]string{"n1": affinityFail}, filterAll(t, pl, snap, pod)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// An empty namespaceSelector selects every namespace, labels or not.
	pod.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].NamespaceSelector = &meta.LabelSelector{}
	if diff := cmp.Diff(map[string]string{"n1": ""}, filterAll(t, pl, snap, pod)); diff != "" {
		t.Errorf("empty selector (-want +got):\n%s", diff)
	}
}

// TestPreFilterExtensions checks that adding and removing pods through the
// extensions gives the same verdicts as a fresh PreFilter over the changed
// cluster.
func TestPreFilterExtensions(t *testing.T) {
	nodes := []*corev1.Node{
		st.MakeNode().Name("a1").Label(zoneKey, "a").Obj(),
		st.MakeNode().Name("b1").Label(zoneKey, "b").Obj(),
	}
	pod := st.MakePod().Name("p").Label("app", "web").
		PodAffinityIn("app", zoneKey, []string{"db"}, required).
		PodAntiAffinityIn("app", hostKey, []string{"web"}, required).Obj()
	base := []*corev1.Pod{
		st.MakePod().Name("db").Label("app", "db").Node("a1").Obj(),
		st.MakePod().Name("web").Label("app", "web").Node("a1").Obj(),
	}
	extra := []*corev1.Pod{
		st.MakePod().Name("db2").Label("app", "db").Node("b1").Obj(),
		st.MakePod().Name("hater").PodAntiAffinityIn("app", zoneKey, []string{"web"}, required).Node("b1").Obj(),
	}
	tests := []struct {
		name   string
		start  []*corev1.Pod
		add    []*corev1.Pod
		remove []*corev1.Pod
	}{
		{name: "add a db and a hater", start: base, add: extra},
		{name: "remove the web and the db", start: base, remove: base},
		{name: "remove what was added", start: append(append([]*corev1.Pod{}, base...), extra...), remove: extra},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.NewSnapshot(tc.start, nodes)
			pl := newPlugin(t, st.NewHandle(snap), "")
			cs := framework.NewCycleState()
			if _, s := pl.PreFilter(ctx, cs, pod); !s.IsSuccess() {
				t.Fatal(s.AsError())
			}
			final := map[string]bool{}
			for _, p := range tc.start {
				final[p.Name] = true
			}
			for _, p := range tc.add {
				ni, _ := snap.Get(p.Spec.NodeName)
				if s := pl.AddPod(ctx, cs, pod, framework.NewPodInfo(p), ni); !s.IsSuccess() {
					t.Fatal(s.AsError())
				}
				final[p.Name] = true
			}
			for _, p := range tc.remove {
				ni, _ := snap.Get(p.Spec.NodeName)
				if s := pl.RemovePod(ctx, cs, pod, framework.NewPodInfo(p), ni); !s.IsSuccess() {
					t.Fatal(s.AsError())
				}
				delete(final, p.Name)
			}
			var all []*corev1.Pod
			for _, p := range append(append([]*corev1.Pod{}, tc.start...), tc.add...) {
				if final[p.Name] {
					all = append(all, p)
					delete(final, p.Name)
				}
			}
			fresh := st.NewSnapshot(all, nodes)
			want := filterAll(t, newPlugin(t, st.NewHandle(fresh), ""), fresh, pod)
			got := map[string]string{}
			for _, ni := range snap.List() {
				got[ni.Node().Name] = statusText(pl.Filter(ctx, cs, pod, ni))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("after the extensions (-fresh +incremental):\n%s", diff)
			}
		})
	}
}

func TestStateClone(t *testing.T) {
	nodes := []*corev1.Node{st.MakeNode().Name("a1").Label(zoneKey, "a").Obj()}
	pods := []*corev1.Pod{st.MakePod().Name("web").Label("app", "web").Node("a1").Obj()}
	pod := st.MakePod().Name("p").PodAntiAffinityIn("app", zoneKey, []string{"web"}, required).Obj()
	snap := st.NewSnapshot(pods, nodes)
	pl := newPlugin(t, st.NewHandle(snap), "")
	ctx := context.Background()
	cs := framework.NewCycleState()
	pl.PreFilter(ctx, cs, pod)
	ni, _ := snap.Get("a1")
	clone := cs.Clone()
	if s := pl.RemovePod(ctx, clone, pod, framework.NewPodInfo(pods[0]), ni); !s.IsSuccess() {
		t.Fatal(s.AsError())
	}
	if got := statusText(pl.Filter(ctx, clone, pod, ni)); got != "" {
		t.Errorf("clone after removing the web pod: %q, want a fit", got)
	}
	if got := statusText(pl.Filter(ctx, cs, pod, ni)); got != antiFail {
		t.Errorf("original after changing the clone: %q, want %q", got, antiFail)
	}
}

func TestNewArgs(t *testing.T) {
	snap := st.NewSnapshot(nil, nil)
	tests := []struct {
		name    string
		args    string
		weight  int32
		wantW   int32
		wantErr bool
	}{
		{name: "nil takes the handle's weight", weight: 7, wantW: 7},
		{name: "null", args: "null", weight: 1, wantW: 1},
		{name: "explicit weight", args: `{"hardPodAffinityWeight": 0}`, weight: 1, wantW: 0},
		{name: "weight 100", args: `{"hardPodAffinityWeight": 100}`, weight: 1, wantW: 100},
		{name: "weight over 100", args: `{"hardPodAffinityWeight": 101}`, weight: 1, wantErr: true},
		{name: "negative", args: `{"hardPodAffinityWeight": -1}`, weight: 1, wantErr: true},
		{name: "unknown field", args: `{"hardPodAffinityWeigth": 2}`, weight: 1, wantErr: true},
		{name: "handle weight out of range", weight: 200, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := st.NewHandle(snap)
			h.SymmetricWeight = tc.weight
			var raw []byte
			if tc.args != "" {
				raw = []byte(tc.args)
			}
			p, err := New(raw, h)
			if (err != nil) != tc.wantErr {
				t.Fatalf("New: %v, want error %v", err, tc.wantErr)
			}
			if err == nil && p.(*Plugin).hardWeight != tc.wantW {
				t.Errorf("weight %d, want %d", p.(*Plugin).hardWeight, tc.wantW)
			}
		})
	}
}
