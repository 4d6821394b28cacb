package noderesources

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

const (
	gpu      corev1.ResourceName = "example.com/gpu"
	unknown  corev1.ResourceName = "example.com/unknown"
	hugepage corev1.ResourceName = "hugepages-2Mi"
	cpu                          = corev1.ResourceCPU
	mem                          = corev1.ResourceMemory
	storage                      = corev1.ResourceEphemeralStorage
)

type req = map[corev1.ResourceName]string

// fitNode has 10m cpu, 20 bytes of memory and of ephemeral storage, 32
// pods, 5 GPUs and 5 huge pages, as upstream's fit tests.
func fitNode() *corev1.Node {
	return st.MakeNode().Name("node").Capacity(req{cpu: "10m", mem: "20", storage: "20", gpu: "5", hugepage: "5"}).Obj()
}

func wantInsufficient(reasons ...string) *framework.Status {
	return framework.NewStatus(framework.Unschedulable, reasons...)
}

func TestFitFilter(t *testing.T) {
	tests := []struct {
		name     string
		pod      *corev1.Pod
		existing []*corev1.Pod
		args     string
		pods     string // node's pod count, "" for 32
		want     *framework.Status
	}{
		{
			name:     "no requests always fit",
			pod:      st.MakePod().Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "10m", mem: "20"}).Obj()},
		},
		{
			name:     "cpu and memory both short, both listed",
			pod:      st.MakePod().Req(req{cpu: "1m", mem: "1"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "10m", mem: "20"}).Obj()},
			want:     wantInsufficient("Insufficient cpu", "Insufficient memory"),
		},
		{
			name:     "init container's cpu counts",
			pod:      st.MakePod().Req(req{cpu: "1m", mem: "1"}).InitReq(req{cpu: "3m", mem: "1"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "8m", mem: "19"}).Obj()},
			want:     wantInsufficient("Insufficient cpu"),
		},
		{
			name:     "largest init container counts",
			pod:      st.MakePod().Req(req{cpu: "1m", mem: "1"}).InitReq(req{cpu: "3m", mem: "1"}).InitReq(req{cpu: "2m", mem: "1"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "8m", mem: "19"}).Obj()},
			want:     wantInsufficient("Insufficient cpu"),
		},
		{
			name:     "init container's memory counts",
			pod:      st.MakePod().Req(req{cpu: "1m", mem: "1"}).InitReq(req{cpu: "1m", mem: "3"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "9m", mem: "19"}).Obj()},
			want:     wantInsufficient("Insufficient memory"),
		},
		{
			name:     "init container fits",
			pod:      st.MakePod().Req(req{cpu: "1m", mem: "1"}).InitReq(req{cpu: "1m", mem: "1"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "9m", mem: "19"}).Obj()},
		},
		{
			name:     "both fit",
			pod:      st.MakePod().Req(req{cpu: "1m", mem: "1"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "5m", mem: "5"}).Obj()},
		},
		{
			name:     "exactly full fits",
			pod:      st.MakePod().Req(req{cpu: "5m", mem: "1"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "5m", mem: "19"}).Obj()},
		},
		{
			name:     "overhead counts",
			pod:      st.MakePod().Req(req{cpu: "1m", mem: "1"}).Overhead(req{cpu: "1m", mem: "15"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "5m", mem: "5"}).Obj()},
			want:     wantInsufficient("Insufficient memory"),
		},
		{
			name:     "ephemeral storage short",
			pod:      st.MakePod().Req(req{storage: "10"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{storage: "15"}).Obj()},
			want:     wantInsufficient("Insufficient ephemeral-storage"),
		},
		{
			name:     "extended resource fits",
			pod:      st.MakePod().Req(req{gpu: "2"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{gpu: "3"}).Obj()},
		},
		{
			name:     "extended resource short",
			pod:      st.MakePod().Req(req{gpu: "1"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{gpu: "5"}).Obj()},
			want:     wantInsufficient("Insufficient example.com/gpu"),
		},
		{
			name: "extended resource the node lacks",
			pod:  st.MakePod().Req(req{unknown: "1"}).Obj(),
			want: wantInsufficient("Insufficient example.com/unknown"),
		},
		{
			name: "ignored extended resource",
			pod:  st.MakePod().Req(req{unknown: "1"}).Obj(),
			args: `{"ignoredResources":["example.com/unknown"]}`,
		},
		{
			name:     "ignored group, others still checked",
			pod:      st.MakePod().Req(req{unknown: "1", "other.io/fpga": "1"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{gpu: "5"}).Obj()},
			args:     `{"ignoredResourceGroups":["example.com"]}`,
			want:     wantInsufficient("Insufficient other.io/fpga"),
		},
		{
			name: "huge pages are never ignored",
			pod:  st.MakePod().Req(req{hugepage: "6"}).Obj(),
			args: `{"ignoredResourceGroups":["example.com"],"ignoredResources":["hugepages-2Mi"]}`,
			want: wantInsufficient("Insufficient hugepages-2Mi"),
		},
		{
			name: "extended resources listed in name order",
			pod:  st.MakePod().Req(req{"z.io/b": "1", gpu: "6", "a.io/c": "1"}).Obj(),
			want: wantInsufficient("Insufficient a.io/c", "Insufficient example.com/gpu", "Insufficient z.io/b"),
		},
		{
			name:     "too many pods",
			pod:      st.MakePod().Obj(),
			existing: []*corev1.Pod{st.MakePod().Obj()},
			pods:     "1",
			want:     wantInsufficient(ReasonTooManyPods),
		},
		{
			name:     "too many pods and too little cpu",
			pod:      st.MakePod().Req(req{cpu: "6m"}).Obj(),
			existing: []*corev1.Pod{st.MakePod().Req(req{cpu: "5m"}).Obj()},
			pods:     "1",
			want:     wantInsufficient(ReasonTooManyPods, "Insufficient cpu"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node := fitNode()
			if tt.pods != "" {
				node.Status.Allocatable[corev1.ResourcePods] = st.ResourceList(req{corev1.ResourcePods: tt.pods})[corev1.ResourcePods]
			}
			ni := st.NewNodeInfo(node, tt.existing...)
			p, err := NewFit(json.RawMessage(tt.args), nil)
			if err != nil {
				t.Fatal(err)
			}
			pl := p.(*Fit)
			state := framework.NewCycleState()
			if _, s := pl.PreFilter(context.Background(), state, tt.pod); !s.IsSuccess() {
				t.Fatalf("PreFilter = %v", s.Message())
			}
			if got := pl.Filter(context.Background(), state, tt.pod, ni); !got.Equal(tt.want) {
				t.Errorf("Filter = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
			if got := pl.Filter(context.Background(), framework.NewCycleState(), tt.pod, ni); !got.Equal(tt.want) {
				t.Errorf("Filter without PreFilter = %v %q, want %v %q", got.Code(), got.Reasons(), tt.want.Code(), tt.want.Reasons())
			}
		})
	}
}

func TestFitEvents(t *testing.T) {
	ev := (&Fit{}).EventsToRegister()
	matches := func(e framework.ClusterEvent) bool {
		for _, r := range ev {
			if r.Match(e) {
				return true
			}
		}
		return false
	}
	for _, tt := range []struct {
		e    framework.ClusterEvent
		want bool
	}{
		{framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Delete}, true},
		{framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.Add}, true},
		{framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.UpdateNodeAllocatable}, true},
		{framework.ClusterEvent{Resource: framework.NodeResource, ActionType: framework.UpdateNodeLabel}, false},
		{framework.ClusterEvent{Resource: framework.PodResource, ActionType: framework.Add}, false},
	} {
		if got := matches(tt.e); got != tt.want {
			t.Errorf("event %+v registered = %v, want %v", tt.e, got, tt.want)
		}
	}
}

// BenchmarkFitFilter filters a pod asking for cpu, memory and a GPU over
// 5,000 nodes with 10 pods each; about half the nodes are full.
func BenchmarkFitFilter(b *testing.B) {
	pod := st.MakePod().Name("p").Req(req{cpu: "500m", mem: "1Gi", gpu: "1"}).Obj()
	nodes := make([]*framework.NodeInfo, 5000)
	for i := range nodes {
		n := st.MakeNode().Name(fmt.Sprintf("n%d", i)).Capacity(req{cpu: "8", mem: "32Gi", gpu: "4", corev1.ResourcePods: "110"}).Obj()
		var pods []*corev1.Pod
		for j := range 10 {
			c := "500m"
			if i%2 == 0 {
				c = "790m"
			}
			pods = append(pods, st.MakePod().Name(fmt.Sprintf("p%d-%d", i, j)).Node(n.Name).Req(req{cpu: c, mem: "1Gi"}).Obj())
		}
		nodes[i] = st.NewNodeInfo(n, pods...)
	}
	p, err := NewFit(nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	pl := p.(*Fit)
	ctx, state := context.Background(), framework.NewCycleState()
	pl.PreFilter(ctx, state, pod)
	b.ReportAllocs()
	for b.Loop() {
		for _, ni := range nodes {
			pl.Filter(ctx, state, pod, ni)
		}
	}
}
