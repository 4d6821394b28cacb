package defaultpreemption

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
	"platform.io/platform/pkg/scheduler/plugins/interpodaffinity"
	"platform.io/platform/pkg/scheduler/plugins/podtopologyspread"
)

// cpuFit is a test filter: the pod's cpu request must fit what is left.
type cpuFit struct{}

func (cpuFit) Name() string { return "CPUFit" }

func (cpuFit) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, ni *framework.NodeInfo) *framework.Status {
	if ni.Requested.MilliCPU+framework.PodRequests(pod).MilliCPU > ni.Allocatable.MilliCPU {
		return framework.NewStatus(framework.Unschedulable, "Insufficient cpu")
	}
	return nil
}

func cpu(v string) map[corev1.ResourceName]string {
	return map[corev1.ResourceName]string{corev1.ResourceCPU: v}
}

func node(name, c string) *corev1.Node { return st.MakeNode().Name(name).Capacity(cpu(c)).Obj() }

// victim is a pod of priority prio using c cpu on node n, started at s
// seconds.
func victim(name, n string, prio int32, c string, s int64) *corev1.Pod {
	return st.MakePod().Name(name).Priority(prio).Req(cpu(c)).Node(n).StartTime(time.Unix(s, 0)).Obj()
}

// preempted gives p the condition preemption sets on its victims.
func preempted(p *corev1.Pod) *corev1.Pod {
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{
		Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: corev1.PodReasonPreemptionByScheduler,
	})
	return p
}

func unschedulable(names ...string) framework.NodeToStatus {
	m := framework.NodeToStatus{}
	for _, n := range names {
		m[n] = framework.NewStatus(framework.Unschedulable, "Insufficient cpu")
	}
	return m
}

type outcome struct {
	Node    string
	Victims []string
	Message string
}

// dryRun runs preemption up to choosing the node, without the API writes.
func dryRun(t *testing.T, pl *Plugin, pod *corev1.Pod, filtered framework.NodeToStatus) outcome {
	t.Helper()
	ctx := context.Background()
	state := framework.NewCycleState()
	for _, pf := range pl.h.(*st.Handle).PreFilters {
		if _, s := pf.PreFilter(ctx, state, pod); !s.IsSuccess() && !s.IsSkip() {
			t.Fatalf("PreFilter %s: %v", pf.Name(), s.AsError())
		}
	}
	if ok, msg := pl.eligible(pod, filtered[pod.Status.NominatedNodeName]); !ok {
		return outcome{Message: msg}
	}
	cands, statuses, err := pl.findCandidates(ctx, state, pod, filtered)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) == 0 {
		return outcome{Message: fitMessage(pl.h.SnapshotSharedLister().List(), statuses)}
	}
	c := pl.selectCandidate(cands)
	o := outcome{Node: c.node}
	for _, v := range c.victims {
		o.Victims = append(o.Victims, v.Name)
	}
	return o
}

func TestPreemption(t *testing.T) {
	high := st.MakePod().Name("preemptor").Priority(100).Req(cpu("2")).Obj()
	never := corev1.PreemptNever
	tests := []struct {
		name      string
		pod       *corev1.Pod
		pods      []*corev1.Pod
		nodes     []*corev1.Node
		filtered  framework.NodeToStatus
		nominated map[string]*corev1.Pod
		args      string
		// plugins are pre-filter and filter plugins run besides cpuFit.
		plugins []framework.Factory
		want    outcome
	}{
		{
			name:     "the node whose best victim has the lowest priority",
			pod:      high,
			pods:     []*corev1.Pod{victim("v1", "n1", 50, "2", 1), victim("v2", "n2", 10, "2", 1)},
			nodes:    []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: unschedulable("n1", "n2"),
			want:     outcome{Node: "n2", Victims: []string{"v2"}},
		},
		{
			name: "equal top priority: the lowest sum of priorities",
			pod:  high,
			pods: []*corev1.Pod{
				victim("a1", "n1", 10, "1", 1), victim("a2", "n1", 10, "1", 1),
				victim("b1", "n2", 10, "1", 1), victim("b2", "n2", 5, "1", 1),
			},
			nodes:    []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: unschedulable("n1", "n2"),
			want:     outcome{Node: "n2", Victims: []string{"b1", "b2"}},
		},
		{
			name: "all else equal: the victims that started last",
			pod:  high,
			pods: []*corev1.Pod{
				victim("old", "n1", 10, "2", 100), victim("new", "n2", 10, "2", 200),
			},
			nodes:    []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: unschedulable("n1", "n2"),
			want:     outcome{Node: "n2", Victims: []string{"new"}},
		},
		{
			name: "reprieve the more important pod when one eviction is enough",
			pod:  high,
			pods: []*corev1.Pod{
				victim("low", "n1", 1, "2", 1), victim("mid", "n1", 2, "2", 1),
			},
			nodes:    []*corev1.Node{node("n1", "4")},
			filtered: unschedulable("n1"),
			want:     outcome{Node: "n1", Victims: []string{"low"}},
		},
		{
			name: "equal priority: reprieve the one that started first",
			pod:  high,
			pods: []*corev1.Pod{
				victim("first", "n1", 1, "2", 1), victim("second", "n1", 1, "2", 2),
			},
			nodes:    []*corev1.Node{node("n1", "4")},
			filtered: unschedulable("n1"),
			want:     outcome{Node: "n1", Victims: []string{"second"}},
		},
		{
			name:     "pods of equal or higher priority are never victims",
			pod:      high,
			pods:     []*corev1.Pod{victim("peer", "n1", 100, "2", 1), victim("boss", "n2", 200, "2", 1)},
			nodes:    []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: unschedulable("n1", "n2"),
			want:     outcome{Message: "0/2 nodes are available: 2 " + reasonNoVictims + "."},
		},
		{
			name:  "evicting all lower-priority pods is not enough",
			pod:   high,
			pods:  []*corev1.Pod{victim("peer", "n1", 100, "1", 1), victim("low", "n1", 1, "1", 1)},
			nodes: []*corev1.Node{node("n1", "2")},
			// With low gone only 1 cpu is free.
			filtered: unschedulable("n1"),
			want:     outcome{Message: "0/1 nodes are available: 1 Insufficient cpu."},
		},
		{
			name:  "unresolvable nodes are not tried",
			pod:   high,
			pods:  []*corev1.Pod{victim("v1", "n1", 1, "2", 1), victim("v2", "n2", 1, "2", 1)},
			nodes: []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: framework.NodeToStatus{
				"n1": framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint"),
				"n2": framework.NewStatus(framework.Unschedulable, "Insufficient cpu"),
			},
			want: outcome{Node: "n2", Victims: []string{"v2"}},
		},
		{
			name:  "no node where preemption helps",
			pod:   high,
			pods:  []*corev1.Pod{victim("v1", "n1", 1, "2", 1)},
			nodes: []*corev1.Node{node("n1", "2")},
			filtered: framework.NodeToStatus{
				"n1": framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint"),
			},
			want: outcome{Message: "0/1 nodes are available: 1 " + reasonNotHelpful + "."},
		},
		{
			name:     "preemptionPolicy Never",
			pod:      st.MakePod().Name("p").Priority(100).Req(cpu("2")).PreemptionPolicy(never).Obj(),
			pods:     []*corev1.Pod{victim("v1", "n1", 1, "2", 1)},
			nodes:    []*corev1.Node{node("n1", "2")},
			filtered: unschedulable("n1"),
			want:     outcome{Message: "not eligible due to preemptionPolicy=Never."},
		},
		{
			name: "a lower-priority pod still terminating on the nominated node",
			pod:  st.MakePod().Name("p").Priority(100).Req(cpu("2")).NominatedNodeName("n1").Obj(),
			pods: []*corev1.Pod{
				preempted(st.MakePod().Name("going").Priority(1).Req(cpu("2")).Node("n1").Terminating(time.Unix(5, 0)).Obj()),
			},
			nodes:    []*corev1.Node{node("n1", "2")},
			filtered: unschedulable("n1"),
			want:     outcome{Message: "not eligible due to a terminating pod on the nominated node."},
		},
		{
			name: "a lower-priority pod terminating for another reason does not block",
			pod:  st.MakePod().Name("p").Priority(100).Req(cpu("2")).NominatedNodeName("n1").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("going").Priority(1).Req(cpu("1")).Node("n1").Terminating(time.Unix(5, 0)).Obj(),
				victim("v", "n1", 1, "1", 1),
			},
			nodes:    []*corev1.Node{node("n1", "2")},
			filtered: unschedulable("n1"),
			want:     outcome{Node: "n1", Victims: []string{"v", "going"}},
		},
		{
			name: "the nominated node became unresolvable: preempt again",
			pod:  st.MakePod().Name("p").Priority(100).Req(cpu("2")).NominatedNodeName("n1").Obj(),
			pods: []*corev1.Pod{
				preempted(st.MakePod().Name("going").Priority(1).Req(cpu("2")).Node("n1").Terminating(time.Unix(5, 0)).Obj()),
				victim("v2", "n2", 1, "2", 1),
			},
			nodes: []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: framework.NodeToStatus{
				"n1": framework.NewStatus(framework.UnschedulableAndUnresolvable, "gone"),
				"n2": framework.NewStatus(framework.Unschedulable, "Insufficient cpu"),
			},
			want: outcome{Node: "n2", Victims: []string{"v2"}},
		},
		{
			name:     "a higher-priority pod nominated to the node keeps its room",
			pod:      high,
			pods:     []*corev1.Pod{victim("v1", "n1", 1, "2", 1), victim("v2", "n2", 5, "2", 1)},
			nodes:    []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: unschedulable("n1", "n2"),
			nominated: map[string]*corev1.Pod{
				"n1": st.MakePod().Name("vip").Priority(1000).Req(cpu("2")).Obj(),
			},
			want: outcome{Node: "n2", Victims: []string{"v2"}},
		},
		{
			name: "only as many candidates as asked, from the offset",
			pod:  high,
			pods: []*corev1.Pod{victim("v1", "n1", 1, "2", 1), victim("v2", "n2", 50, "2", 1)},
			// n1 would win, but one candidate is examined starting at index 1.
			nodes:    []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: unschedulable("n1", "n2"),
			args:     `{"minCandidateNodesPercentage":0,"minCandidateNodesAbsolute":1}`,
			want:     outcome{Node: "n2", Victims: []string{"v2"}},
		},
		{
			name: "pre-filter state follows removed pods (topology spread)",
			pod: st.MakePod().Name("p").Priority(100).Label("app", "web").SpreadConstraint(1, "platform.io/hostname",
				corev1.DoNotSchedule, st.MakeLabelSelector().Label("app", "web").Obj(), nil, nil, nil, nil).Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("w1").Priority(1).Label("app", "web").Node("n1").Obj(),
				st.MakePod().Name("w2").Priority(1).Label("app", "web").Node("n1").Obj(),
			},
			nodes:    []*corev1.Node{node("n1", "2"), node("n2", "2")},
			filtered: framework.NodeToStatus{"n1": framework.NewStatus(framework.Unschedulable, podtopologyspread.ErrReasonConstraintsNotMatch)},
			plugins:  []framework.Factory{podtopologyspread.New},
			// n2 has 0: n1 needs 2+1-0 <= 1, so both pods go.
			want: outcome{Node: "n1", Victims: []string{"w1", "w2"}},
		},
		{
			name: "pre-filter state follows removed pods (the pod's anti-affinity)",
			pod: st.MakePod().Name("p").Priority(100).Label("app", "db").
				PodAntiAffinityIn("app", "platform.io/hostname", []string{"web"}, st.PodAffinityWithRequiredReq).Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("web").Priority(1).Label("app", "web").Node("n1").StartTime(time.Unix(1, 0)).Obj(),
				st.MakePod().Name("other").Priority(1).Label("app", "cache").Node("n1").StartTime(time.Unix(1, 0)).Obj(),
			},
			nodes:    []*corev1.Node{node("n1", "2")},
			filtered: framework.NodeToStatus{"n1": framework.NewStatus(framework.Unschedulable, interpodaffinity.ErrReasonAntiAffinityRulesNotMatch)},
			plugins:  []framework.Factory{interpodaffinity.New},
			// Only the web pod must go; the cache pod is reprieved.
			want: outcome{Node: "n1", Victims: []string{"web"}},
		},
		{
			name: "pre-filter state follows removed pods (existing pods' anti-affinity)",
			pod:  st.MakePod().Name("p").Priority(100).Label("app", "db").Obj(),
			pods: []*corev1.Pod{
				st.MakePod().Name("hater").Priority(1).Node("n1").StartTime(time.Unix(1, 0)).
					PodAntiAffinityIn("app", "platform.io/hostname", []string{"db"}, st.PodAffinityWithRequiredReq).Obj(),
				st.MakePod().Name("calm").Priority(1).Node("n1").StartTime(time.Unix(1, 0)).Obj(),
			},
			nodes:    []*corev1.Node{node("n1", "2")},
			filtered: framework.NodeToStatus{"n1": framework.NewStatus(framework.Unschedulable, interpodaffinity.ErrReasonExistingAntiAffinityRulesNotMatch)},
			plugins:  []framework.Factory{interpodaffinity.New},
			want:     outcome{Node: "n1", Victims: []string{"hater"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := st.NewSnapshot(tc.pods, tc.nodes)
			h := st.NewHandle(snap)
			// One worker: the dry run stops at the first num candidates
			// found, which with several workers is a race (as upstream).
			h.Workers = 1
			h.Filters = []framework.FilterPlugin{cpuFit{}}
			for _, f := range tc.plugins {
				p, err := f(nil, h)
				if err != nil {
					t.Fatal(err)
				}
				h.PreFilters = append(h.PreFilters, p.(framework.PreFilterPlugin))
				h.Filters = append(h.Filters, p.(framework.FilterPlugin))
			}
			for n, p := range tc.nominated {
				h.Nominator.AddNominatedPod(framework.NewPodInfo(p), n)
			}
			var raw []byte
			if tc.args != "" {
				raw = []byte(tc.args)
			}
			p, err := New(raw, h)
			if err != nil {
				t.Fatal(err)
			}
			pl := p.(*Plugin)
			pl.offset = func(n int) int { return 1 % n }
			pl.now = func() time.Time { return time.Unix(1000, 0) }
			if diff := cmp.Diff(tc.want, dryRun(t, pl, tc.pod, tc.filtered)); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNumCandidates(t *testing.T) {
	tests := []struct {
		pct, abs int32
		nodes    int
		want     int
	}{
		{10, 100, 50, 50},
		{10, 100, 5000, 500},
		{10, 100, 500, 100},
		{0, 1, 500, 1},
		{100, 0, 7, 7},
		{40, 0, 10, 4},
	}
	for _, tc := range tests {
		pl := &Plugin{percentage: tc.pct, absolute: tc.abs}
		if got := pl.numCandidates(tc.nodes); got != tc.want {
			t.Errorf("numCandidates(%d) with %d%%, %d: %d, want %d", tc.nodes, tc.pct, tc.abs, got, tc.want)
		}
	}
}

func TestNewArgs(t *testing.T) {
	tests := []struct {
		args     string
		pct, abs int32
		wantErr  bool
	}{
		{args: "", pct: 10, abs: 100},
		{args: "null", pct: 10, abs: 100},
		{args: `{"minCandidateNodesPercentage":50}`, pct: 50, abs: 100},
		{args: `{"minCandidateNodesAbsolute":0}`, pct: 10, abs: 0},
		{args: `{"minCandidateNodesPercentage":0,"minCandidateNodesAbsolute":0}`, wantErr: true},
		{args: `{"minCandidateNodesPercentage":101}`, wantErr: true},
		{args: `{"minCandidateNodesAbsolute":-1}`, wantErr: true},
		{args: `{"minCandidates":1}`, wantErr: true},
	}
	for _, tc := range tests {
		var raw []byte
		if tc.args != "" {
			raw = []byte(tc.args)
		}
		p, err := New(raw, st.NewHandle(st.NewSnapshot(nil, nil)))
		if (err != nil) != tc.wantErr {
			t.Errorf("New(%s): %v, want error %v", tc.args, err, tc.wantErr)
			continue
		}
		if err == nil && (p.(*Plugin).percentage != tc.pct || p.(*Plugin).absolute != tc.abs) {
			t.Errorf("New(%s): %d%%, %d; want %d%%, %d", tc.args, p.(*Plugin).percentage, p.(*Plugin).absolute, tc.pct, tc.abs)
		}
	}
}
