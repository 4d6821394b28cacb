package noderesources

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

// scoreAll runs PreScore and Score (and NormalizeScore when there is one)
// of the plugin built by newPlugin over nodes holding existing pods.
func scoreAll(t *testing.T, newPlugin framework.Factory, args string, pod *corev1.Pod, existing []*corev1.Pod, nodes []*corev1.Node) framework.NodeScoreList {
	t.Helper()
	snap := st.NewSnapshot(existing, nodes)
	p, err := newPlugin(json.RawMessage(args), st.NewHandle(snap))
	if err != nil {
		t.Fatal(err)
	}
	ctx, state := context.Background(), framework.NewCycleState()
	if s := p.(framework.PreScorePlugin).PreScore(ctx, state, pod, snap.List()); !s.IsSuccess() {
		t.Fatalf("PreScore = %v", s.Message())
	}
	sp := p.(framework.ScorePlugin)
	var out framework.NodeScoreList
	for _, n := range nodes {
		score, s := sp.Score(ctx, state, pod, snap.NodeInfo(n.Name))
		if !s.IsSuccess() {
			t.Fatalf("Score(%s) = %v", n.Name, s.Message())
		}
		// Without PreScore's state the score is the same.
		again, _ := sp.Score(ctx, framework.NewCycleState(), pod, snap.NodeInfo(n.Name))
		if again != score {
			t.Errorf("Score(%s) without PreScore = %d, with = %d", n.Name, again, score)
		}
		out = append(out, framework.NodeScore{Name: n.Name, Score: score})
	}
	if ext := sp.ScoreExtensions(); ext != nil {
		ext.NormalizeScore(ctx, state, pod, out)
	}
	return out
}

func sized(name, c, m string) *corev1.Node {
	return st.MakeNode().Name(name).Capacity(req{cpu: c, mem: m}).Obj()
}

// twoContainers requests 1000m/2000 and 2000m/3000: 3000m and 5000 bytes.
func twoContainers() *corev1.Pod {
	return st.MakePod().Name("p").Req(req{cpu: "1000m", mem: "2000"}).Req(req{cpu: "2000m", mem: "3000"}).Obj()
}

func TestFitScore(t *testing.T) {
	existing := func(node string) *corev1.Pod {
		return st.MakePod().Name("e-" + node).Node(node).Req(req{cpu: "3000m", mem: "5000"}).Obj()
	}
	tests := []struct {
		name     string
		args     string
		pod      *corev1.Pod
		existing []*corev1.Pod
		nodes    []*corev1.Node
		want     framework.NodeScoreList
	}{
		{
			// cpu (4000-3000)*100/4000 = 25, memory 50: 37; cpu 50, memory 50: 50.
			name:  "least allocated, differently sized nodes",
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "4000m", "10000"), sized("b", "6000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 37}, {Name: "b", Score: 50}},
		},
		{
			// a: cpu 40, memory 50: 45; b: cpu 40, memory 80: 60.
			name:     "least allocated counts pods on the node",
			pod:      twoContainers(),
			existing: []*corev1.Pod{existing("a"), existing("b")},
			nodes:    []*corev1.Node{sized("a", "10000m", "20000"), sized("b", "10000m", "50000")},
			want:     framework.NodeScoreList{{Name: "a", Score: 45}, {Name: "b", Score: 60}},
		},
		{
			// A pod without requests counts as 100m and 200Mi: cpu 90, memory 80.
			name:  "least allocated uses the non-zero defaults",
			pod:   st.MakePod().Name("p").Container("img").Obj(),
			nodes: []*corev1.Node{sized("a", "1000m", "1000Mi")},
			want:  framework.NodeScoreList{{Name: "a", Score: 85}},
		},
		{
			name:  "least allocated, request over capacity scores 0 for it",
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "2000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 25}},
		},
		{
			// (25*3 + 50*1) / 4 = 31.
			name:  "least allocated, weighted",
			args:  `{"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"cpu","weight":3},{"name":"memory","weight":1}]}}`,
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "4000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 31}},
		},
		{
			// a: (25 + 50 + 2*75) / 4 = 56; b has no GPUs: (25 + 50) / 2 = 37.
			name: "least allocated over an extended resource",
			args: `{"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"cpu"},{"name":"memory"},{"name":"example.com/gpu","weight":2}]}}`,
			pod:  st.MakePod().Name("p").Req(req{cpu: "3000m", mem: "5000", gpu: "1"}).Obj(),
			nodes: []*corev1.Node{
				st.MakeNode().Name("a").Capacity(req{cpu: "4000m", mem: "10000", gpu: "4"}).Obj(),
				sized("b", "4000m", "10000"),
			},
			want: framework.NodeScoreList{{Name: "a", Score: 56}, {Name: "b", Score: 37}},
		},
		{
			name:  "extended resource the pod does not request is left out",
			args:  `{"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"cpu"},{"name":"memory"},{"name":"example.com/gpu","weight":2}]}}`,
			pod:   twoContainers(),
			nodes: []*corev1.Node{st.MakeNode().Name("a").Capacity(req{cpu: "4000m", mem: "10000", gpu: "4"}).Obj()},
			want:  framework.NodeScoreList{{Name: "a", Score: 37}},
		},
		{
			// a: cpu 75, memory 50: 62; b: 50, 50: 50.
			name:  "most allocated",
			args:  `{"scoringStrategy":{"type":"MostAllocated"}}`,
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "4000m", "10000"), sized("b", "6000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 62}, {Name: "b", Score: 50}},
		},
		{
			name:  "most allocated caps at capacity",
			args:  `{"scoringStrategy":{"type":"MostAllocated"}}`,
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "2000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 75}},
		},
		{
			// Utilization 75 and 50 scored as is: round(62.5) = 63.
			name:  "requested to capacity ratio, rising line",
			args:  `{"scoringStrategy":{"type":"RequestedToCapacityRatio","requestedToCapacityRatio":{"shape":[{"utilization":0,"score":0},{"utilization":100,"score":10}]}}}`,
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "4000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 63}},
		},
		{
			// cpu 25, memory 50: round(37.5) = 38.
			name:  "requested to capacity ratio, falling line",
			args:  `{"scoringStrategy":{"type":"RequestedToCapacityRatio","requestedToCapacityRatio":{"shape":[{"utilization":0,"score":10},{"utilization":100,"score":0}]}}}`,
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "4000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 38}},
		},
		{
			// cpu at 75: 100 - 100*25/30 = 17; memory at 50: 100; round(58.5) = 59.
			// Over capacity (b's cpu) is utilization 100: past the last point, 0,
			// and a zero score is left out of the average: b = 100.
			name:  "requested to capacity ratio, broken line",
			args:  `{"scoringStrategy":{"type":"RequestedToCapacityRatio","requestedToCapacityRatio":{"shape":[{"utilization":30,"score":0},{"utilization":50,"score":10},{"utilization":80,"score":0}]}}}`,
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "4000m", "10000"), sized("b", "1000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 59}, {Name: "b", Score: 100}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scoreAll(t, NewFit, tt.args, tt.pod, tt.existing, tt.nodes)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBalancedAllocationScore(t *testing.T) {
	tests := []struct {
		name     string
		args     string
		pod      *corev1.Pod
		existing []*corev1.Pod
		nodes    []*corev1.Node
		want     framework.NodeScoreList
	}{
		{
			// a: fractions 0.75 and 0.5, std 0.125: 87; b: 0.5 and 0.5: 100.
			name:  "differently sized nodes",
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "4000m", "10000"), sized("b", "6000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 87}, {Name: "b", Score: 100}},
		},
		{
			// Plain requests, no defaults: only the pod on the node counts:
			// 0.3 and 0.1, std 0.1: 90.
			name:     "pod without requests, pods on the node",
			pod:      st.MakePod().Name("p").Container("img").Obj(),
			existing: []*corev1.Pod{st.MakePod().Name("e").Node("a").Req(req{cpu: "3000m", mem: "1000"}).Obj()},
			nodes:    []*corev1.Node{sized("a", "10000m", "10000")},
			want:     framework.NodeScoreList{{Name: "a", Score: 90}},
		},
		{
			// cpu fraction capped at 1: 1 and 0.5, std 0.25: 75.
			name:  "fraction capped at one",
			pod:   twoContainers(),
			nodes: []*corev1.Node{sized("a", "2000m", "10000")},
			want:  framework.NodeScoreList{{Name: "a", Score: 75}},
		},
		{
			// 0.75, 0.5, 0.25: mean 0.5, std sqrt(0.125/3) = 0.2041: 79.
			name:  "three resources",
			args:  `{"resources":[{"name":"cpu"},{"name":"memory"},{"name":"example.com/gpu","weight":1}]}`,
			pod:   st.MakePod().Name("p").Req(req{cpu: "3000m", mem: "5000", gpu: "1"}).Obj(),
			nodes: []*corev1.Node{st.MakeNode().Name("a").Capacity(req{cpu: "4000m", mem: "10000", gpu: "4"}).Obj()},
			want:  framework.NodeScoreList{{Name: "a", Score: 79}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scoreAll(t, NewBalancedAllocation, tt.args, tt.pod, tt.existing, tt.nodes)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

// BenchmarkScore runs PreScore and Score of NodeResourcesFit
// (LeastAllocated) and NodeResourcesBalancedAllocation over 5,000 nodes
// with 10 pods each, for a pod asking for cpu and memory only.
func BenchmarkScore(b *testing.B) {
	pod := st.MakePod().Name("p").Req(req{cpu: "100m", mem: "100Mi"}).Obj()
	var nodes []*corev1.Node
	var pods []*corev1.Pod
	for i := range 5000 {
		n := st.MakeNode().Name(fmt.Sprintf("n%d", i)).Capacity(req{cpu: "32", mem: "64Gi", corev1.ResourcePods: "110"}).Obj()
		nodes = append(nodes, n)
		for j := range 10 {
			pods = append(pods, st.MakePod().Name(fmt.Sprintf("p%d-%d", i, j)).Node(n.Name).Req(req{cpu: "100m", mem: "100Mi"}).Obj())
		}
	}
	snap := st.NewSnapshot(pods, nodes)
	for _, bb := range []struct {
		name string
		f    framework.Factory
	}{{FitName, NewFit}, {BalancedAllocationName, NewBalancedAllocation}} {
		b.Run(bb.name, func(b *testing.B) {
			p, err := bb.f(nil, st.NewHandle(snap))
			if err != nil {
				b.Fatal(err)
			}
			sp := p.(framework.ScorePlugin)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				state := framework.NewCycleState()
				p.(framework.PreScorePlugin).PreScore(ctx, state, pod, snap.List())
				for _, ni := range snap.List() {
					sp.Score(ctx, state, pod, ni)
				}
			}
		})
	}
}
