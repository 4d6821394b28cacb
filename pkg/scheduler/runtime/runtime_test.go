package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/config"
	"platform.io/platform/pkg/scheduler/framework"
)

// fake is a plugin at every extension point, whose answers tests set.
type fake struct {
	name       string
	preFilter  *framework.Status
	filter     func(ni *framework.NodeInfo) *framework.Status
	score      func(node string) int64
	normalize  bool
	permit     *framework.Status
	timeout    time.Duration
	bind       *framework.Status
	unreserved *[]string
}

func (f *fake) Name() string { return f.name }

// sorter is a queue-sort plugin.
type sorter struct{ name string }

func (s *sorter) Name() string { return s.name }

func (s *sorter) Less(a, b *framework.QueuedPodInfo) bool { return a.Timestamp.Before(b.Timestamp) }
func (f *fake) PreFilter(context.Context, *framework.CycleState, *corev1.Pod) (*framework.PreFilterResult, *framework.Status) {
	return nil, f.preFilter
}
func (f *fake) PreFilterExtensions() framework.PreFilterExtensions { return nil }
func (f *fake) Filter(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, ni *framework.NodeInfo) *framework.Status {
	if f.filter == nil {
		return nil
	}
	return f.filter(ni)
}
func (f *fake) Score(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, ni *framework.NodeInfo) (int64, *framework.Status) {
	return f.score(ni.Node().Name), nil
}
func (f *fake) ScoreExtensions() framework.ScoreExtensions {
	if f.normalize {
		return f
	}
	return nil
}

// NormalizeScore scales to [0, 100] by the maximum.
func (f *fake) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	var hi int64 = 1
	for _, s := range scores {
		hi = max(hi, s.Score)
	}
	for i := range scores {
		scores[i].Score = scores[i].Score * framework.MaxNodeScore / hi
	}
	return nil
}
func (f *fake) Reserve(context.Context, *framework.CycleState, *corev1.Pod, string) *framework.Status {
	return nil
}
func (f *fake) Unreserve(context.Context, *framework.CycleState, *corev1.Pod, string) {
	if f.unreserved != nil {
		*f.unreserved = append(*f.unreserved, f.name)
	}
}
func (f *fake) Permit(context.Context, *framework.CycleState, *corev1.Pod, string) (*framework.Status, time.Duration) {
	return f.permit, f.timeout
}
func (f *fake) Bind(context.Context, *framework.CycleState, *corev1.Pod, string) *framework.Status {
	return f.bind
}

// filterOnly implements only Filter (and Name).
type filterOnly struct{ name string }

func (f filterOnly) Name() string { return f.name }
func (f filterOnly) Filter(context.Context, *framework.CycleState, *corev1.Pod, *framework.NodeInfo) *framework.Status {
	return framework.NewStatus(framework.Unschedulable, "filtered by "+f.name)
}

func registry(plugins ...framework.Plugin) Registry {
	r := Registry{}
	for _, p := range plugins {
		r[p.Name()] = func(json.RawMessage, framework.Handle) (framework.Plugin, error) { return p, nil }
	}
	return r
}

func build(t *testing.T, reg Registry, plugins *config.Plugins) (*Framework, error) {
	t.Helper()
	return New(Options{ProfileName: "p", Registry: reg, Plugins: plugins, Parallelism: 4})
}

func TestBuildExpandsMultiPoint(t *testing.T) {
	reg := registry(&sorter{name: "Sort"}, &sorter{name: "Sort2"}, &fake{name: "A"}, &fake{name: "B"}, filterOnly{"F"})
	tests := []struct {
		name    string
		plugins config.Plugins
		want    map[string][]string
		wantErr string
	}{
		{
			name:    "multiPoint places each plugin where it implements",
			plugins: config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "Sort"}, {Name: "A", Weight: 3}, {Name: "F"}}}},
			want: map[string][]string{"queueSort": {"Sort"}, "preFilter": {"A"}, "filter": {"A", "F"}, "score": {"A:3"},
				"reserve": {"A"}, "permit": {"A"}, "bind": {"A"}},
		},
		{
			name: "point-specific plugins first, disabled and * respected",
			plugins: config.Plugins{
				MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "Sort"}, {Name: "A"}, {Name: "F"}}},
				Filter:     config.PluginSet{Enabled: []config.Plugin{{Name: "B"}}, Disabled: []config.Plugin{{Name: "A"}}},
				Score:      config.PluginSet{Enabled: []config.Plugin{{Name: "B", Weight: 5}}, Disabled: []config.Plugin{{Name: "*"}}},
			},
			want: map[string][]string{"queueSort": {"Sort"}, "preFilter": {"A"}, "filter": {"B", "F"}, "score": {"B:5"},
				"reserve": {"A"}, "permit": {"A"}, "bind": {"A"}},
		},
		{
			name:    "unknown plugin",
			plugins: config.Plugins{Filter: config.PluginSet{Enabled: []config.Plugin{{Name: "Nope"}}}},
			wantErr: `unknown plugin "Nope"`,
		},
		{
			name:    "enabled where not implemented",
			plugins: config.Plugins{QueueSort: config.PluginSet{Enabled: []config.Plugin{{Name: "Sort"}}}, Score: config.PluginSet{Enabled: []config.Plugin{{Name: "F"}}}},
			wantErr: `plugin "F" enabled at score does not implement it`,
		},
		{
			name:    "no queue sort",
			plugins: config.Plugins{Bind: config.PluginSet{Enabled: []config.Plugin{{Name: "A"}}}},
			wantErr: "no queueSort plugin",
		},
		{
			name:    "no binder",
			plugins: config.Plugins{QueueSort: config.PluginSet{Enabled: []config.Plugin{{Name: "Sort"}}}},
			wantErr: "no bind plugin",
		},
		{
			name:    "two queue sorts",
			plugins: config.Plugins{QueueSort: config.PluginSet{Enabled: []config.Plugin{{Name: "Sort"}, {Name: "Sort2"}}}},
			wantErr: "only one queueSort plugin",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := build(t, reg, &tc.plugins)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrConfig) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, f.PluginNames()); diff != "" {
				t.Errorf("plugins (-want +got):\n%s", diff)
			}
		})
	}
}

func node(name string) *framework.NodeInfo {
	ni := framework.NewNodeInfo()
	ni.SetNode(&corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name}})
	return ni
}

func multi(names ...string) *config.Plugins {
	p := &config.Plugins{}
	for _, n := range names {
		p.MultiPoint.Enabled = append(p.MultiPoint.Enabled, config.Plugin{Name: n, Weight: 1})
	}
	return p
}

func TestFilterSkipRejectError(t *testing.T) {
	reject := func(*framework.NodeInfo) *framework.Status { return framework.NewStatus(framework.Unschedulable, "no") }
	fail := func(*framework.NodeInfo) *framework.Status { return framework.AsStatus(errors.New("boom")) }
	tests := []struct {
		name       string
		a, b       *fake
		wantCode   framework.Code
		wantPlugin string
	}{
		{"all pass", &fake{name: "A"}, &fake{name: "B"}, framework.Success, ""},
		{"first rejection wins", &fake{name: "A", filter: reject}, &fake{name: "B", filter: fail}, framework.Unschedulable, "A"},
		{"skip at pre-filter skips the filter", &fake{name: "A", preFilter: framework.NewStatus(framework.Skip), filter: reject}, &fake{name: "B"}, framework.Success, ""},
		{"error names the plugin", &fake{name: "A"}, &fake{name: "B", filter: fail}, framework.Error, "B"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := build(t, registry(&sorter{name: "Sort"}, tc.a, tc.b), multi("Sort", "A", "B"))
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			if _, st := f.RunPreFilterPlugins(context.Background(), state, &corev1.Pod{}); !st.IsSuccess() {
				t.Fatal(st.AsError())
			}
			st := f.RunFilterPlugins(context.Background(), state, &corev1.Pod{}, node("n"))
			if st.Code() != tc.wantCode || st.Plugin() != tc.wantPlugin {
				t.Errorf("status %v from %q, want %v from %q", st.Code(), st.Plugin(), tc.wantCode, tc.wantPlugin)
			}
			if st.Code() == framework.Error && !strings.Contains(st.Message(), `"B"`) {
				t.Errorf("error message %q does not name the plugin", st.Message())
			}
		})
	}
}

func TestScoreNormalizeAndWeights(t *testing.T) {
	scores := map[string]int64{"n1": 10, "n2": 20}
	a := &fake{name: "A", score: func(n string) int64 { return scores[n] }, normalize: true}
	b := &fake{name: "B", score: func(n string) int64 { return map[string]int64{"n1": 100, "n2": 0}[n] }}
	p := multi("Sort", "A", "B")
	p.MultiPoint.Enabled[1].Weight = 2
	p.MultiPoint.Enabled[2].Weight = 1
	f, err := build(t, registry(&sorter{name: "Sort"}, a, b), p)
	if err != nil {
		t.Fatal(err)
	}
	totals, st := f.RunScorePlugins(context.Background(), framework.NewCycleState(), &corev1.Pod{}, []*framework.NodeInfo{node("n1"), node("n2")})
	if !st.IsSuccess() {
		t.Fatal(st.AsError())
	}
	// n1: A 10/20*100=50 *2 + B 100 = 200; n2: A 100*2 + 0 = 200.
	if diff := cmp.Diff([]int64{200, 200}, totals); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
	scores["n1"] = 1000 // A's normalizer keeps range; B's raw score does not:
	b.score = func(string) int64 { return 101 }
	if _, st := f.RunScorePlugins(context.Background(), framework.NewCycleState(), &corev1.Pod{}, []*framework.NodeInfo{node("n1")}); st.IsSuccess() || st.Plugin() != "B" {
		t.Errorf("out-of-range score accepted: %v", st)
	}
}

type nominator struct {
	pods map[string][]*framework.PodInfo
}

func (n nominator) NominatedPodsForNode(node string) []*framework.PodInfo { return n.pods[node] }
func (n nominator) AddNominatedPod(*framework.PodInfo, string)            {}
func (n nominator) DeleteNominatedPodIfExists(*corev1.Pod)                {}

func TestFilterWithNominatedPods(t *testing.T) {
	// The filter rejects a node holding more than one pod.
	full := func(ni *framework.NodeInfo) *framework.Status {
		if len(ni.Pods) > 0 {
			return framework.NewStatus(framework.Unschedulable, "full")
		}
		return nil
	}
	prio := func(name string, p int32) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, UID: meta.UID(name)}, Spec: corev1.PodSpec{Priority: &p}}
	}
	tests := []struct {
		name      string
		nominated *corev1.Pod
		pod       *corev1.Pod
		want      framework.Code
	}{
		{"higher-priority nomination takes the room", prio("hi", 10), prio("pod", 5), framework.Unschedulable},
		{"equal priority counts too", prio("eq", 5), prio("pod", 5), framework.Unschedulable},
		{"lower priority is ignored", prio("lo", 1), prio("pod", 5), framework.Success},
		{"the pod's own nomination is ignored", prio("pod", 5), prio("pod", 5), framework.Success},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New(Options{ProfileName: "p", Parallelism: 1,
				Registry:  registry(&sorter{name: "Sort"}, &fake{name: "A", filter: full}),
				Plugins:   multi("Sort", "A"),
				Nominator: nominator{pods: map[string][]*framework.PodInfo{"n": {framework.NewPodInfo(tc.nominated)}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			ni := node("n")
			st := f.RunFilterPluginsWithNominatedPods(context.Background(), framework.NewCycleState(), tc.pod, ni)
			if st.Code() != tc.want {
				t.Errorf("code %v, want %v", st.Code(), tc.want)
			}
			if len(ni.Pods) != 0 {
				t.Errorf("the snapshot's node info was changed")
			}
		})
	}
}

func TestPermitWaitAndBind(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", UID: "uid"}}
	wait := framework.NewStatus(framework.Wait)
	t.Run("allowed", func(t *testing.T) {
		f, _ := build(t, registry(&sorter{name: "Sort"}, &fake{name: "A", permit: wait, timeout: time.Minute}), multi("Sort", "A"))
		if st := f.RunPermitPlugins(context.Background(), nil, pod, "n"); st.Code() != framework.Wait {
			t.Fatalf("permit: %v", st)
		}
		f.GetWaitingPod(pod.UID).Allow("A")
		if st := f.WaitOnPermit(context.Background(), pod); !st.IsSuccess() {
			t.Errorf("after allow: %v", st)
		}
		if f.GetWaitingPod(pod.UID) != nil {
			t.Error("waiting pod kept")
		}
	})
	t.Run("timed out", func(t *testing.T) {
		f, _ := build(t, registry(&sorter{name: "Sort"}, &fake{name: "A", permit: wait, timeout: time.Millisecond}), multi("Sort", "A"))
		f.RunPermitPlugins(context.Background(), nil, pod, "n")
		st := f.WaitOnPermit(context.Background(), pod)
		if st.Code() != framework.Unschedulable || !strings.Contains(st.Message(), "timeout") || st.Plugin() != "A" {
			t.Errorf("after timeout: %v %q", st.Code(), st.Message())
		}
	})
	t.Run("binders skip in turn", func(t *testing.T) {
		f, _ := build(t, registry(&sorter{name: "Sort"}, &fake{name: "A", bind: framework.NewStatus(framework.Skip)},
			&fake{name: "B", bind: nil}), multi("Sort", "A", "B"))
		if st := f.RunBindPlugins(context.Background(), nil, pod, "n"); !st.IsSuccess() {
			t.Errorf("bind: %v", st)
		}
		g, _ := build(t, registry(&sorter{name: "Sort"}, &fake{name: "A", bind: framework.NewStatus(framework.Skip)}), multi("Sort", "A"))
		if st := g.RunBindPlugins(context.Background(), nil, pod, "n"); st.Code() != framework.Error {
			t.Errorf("all skipped: %v", st)
		}
	})
	t.Run("unreserve in reverse order", func(t *testing.T) {
		var got []string
		f, _ := build(t, registry(&sorter{name: "Sort"}, &fake{name: "A", unreserved: &got}, &fake{name: "B", unreserved: &got}), multi("Sort", "A", "B"))
		f.RunReservePluginsUnreserve(context.Background(), nil, pod, "n")
		if diff := cmp.Diff([]string{"B", "A"}, got); diff != "" {
			t.Errorf("unreserve order (-want +got):\n%s", diff)
		}
	})
}

func TestParallelizerCoversEveryPiece(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 1001} {
		seen := make([]int, n)
		NewParallelizer(4).Until(context.Background(), n, func(i int) { seen[i]++ })
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: piece %d ran %d times", n, i, c)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := 0
	NewParallelizer(1).Until(ctx, 10, func(int) { ran++ })
	if ran != 0 {
		t.Errorf("cancelled: %d pieces ran", ran)
	}
}

// TestBuildRejectsTooManyFilters: a cycle keeps skipped filters as bits,
// so a profile may enable at most 64 filter plugins; more fail at start.
func TestBuildRejectsTooManyFilters(t *testing.T) {
	for _, n := range []int{maxFilterPlugins, maxFilterPlugins + 1} {
		// The binder is a fake, which filters too.
		plugins := []framework.Plugin{&sorter{name: "Sort"}, &fake{name: "Bind", bind: framework.NewStatus(framework.Success)}}
		names := []string{"Sort", "Bind"}
		for i := range n - 1 {
			name := fmt.Sprintf("F%02d", i)
			plugins = append(plugins, filterOnly{name})
			names = append(names, name)
		}
		_, err := build(t, registry(plugins...), multi(names...))
		if tooMany := n > maxFilterPlugins; (err != nil) != tooMany || (tooMany && !errors.Is(err, ErrConfig)) {
			t.Errorf("%d filter plugins: err = %v", n, err)
		}
	}
}

// TestTimedNodes: a sampled cycle times the filter calls of its first
// maxTimedNodes nodes and, separately, the score calls of its first
// maxTimedNodes nodes; an unsampled cycle times none.
func TestTimedNodes(t *testing.T) {
	if timedNode(context.Background(), false) || timedNode(context.Background(), true) {
		t.Fatal("an unsampled cycle timed a node")
	}
	ctx := WithPluginMetrics(context.Background())
	for _, score := range []bool{false, true} {
		n := 0
		for range 3 * maxTimedNodes {
			if timedNode(ctx, score) {
				n++
			}
		}
		if n != maxTimedNodes {
			t.Errorf("score=%v: %d nodes timed, want %d", score, n, maxTimedNodes)
		}
	}
}
