package testing_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
	st "platform.io/platform/pkg/scheduler/internal/testing"
)

func TestPodBuilder(t *testing.T) {
	p := st.MakePod().Name("p").Namespace("ns").Priority(7).Node("n1").
		Req(map[corev1.ResourceName]string{corev1.ResourceCPU: "500m", corev1.ResourceMemory: "1Gi"}).
		InitReq(map[corev1.ResourceName]string{corev1.ResourceCPU: "2"}).
		HostPort(8080).Toleration("k").NodeAffinityIn("zone", "a", "b").Obj()
	got := framework.PodRequests(p)
	want := &framework.Resource{MilliCPU: 2000, Memory: 1 << 30}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if p.UID != "p" || *p.Spec.Priority != 7 || p.Spec.NodeName != "n1" || len(p.Spec.Containers) != 2 {
		t.Errorf("pod = %+v", p)
	}
	node := st.MakeNode().Name("n1").Label("zone", "a").Obj()
	if !corev1.RequiredNodeAffinityMatches(p, node) {
		t.Errorf("affinity In(a, b) does not match zone=a")
	}
}

func TestSnapshotImageStates(t *testing.T) {
	nodes := []*corev1.Node{
		st.MakeNode().Name("a").Images(map[string]int64{"x:1": 10, "y:1": 20}).Obj(),
		st.MakeNode().Name("b").Image(30, "x:1", "docker.io/library/x:1").Obj(),
		st.MakeNode().Name("c").Obj(),
	}
	pods := []*corev1.Pod{st.MakePod().Name("p").Node("b").Obj(), st.MakePod().Name("q").Node("gone").Obj()}
	s := st.NewSnapshot(pods, nodes)
	b, err := s.Get("b")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*framework.ImageStateSummary{"x:1": {Size: 30, NumNodes: 2}, "docker.io/library/x:1": {Size: 30, NumNodes: 1}}
	if diff := cmp.Diff(want, b.ImageStates); diff != "" {
		t.Errorf("image states (-want +got):\n%s", diff)
	}
	if len(b.Pods) != 1 || len(s.List()) != 3 {
		t.Errorf("pods on b = %d, nodes = %d", len(b.Pods), len(s.List()))
	}
	if _, err := s.Get("gone"); err == nil {
		t.Errorf("Get(gone) succeeded")
	}
}

func TestNominatorAndParallelize(t *testing.T) {
	n := st.NewNominator()
	p := framework.NewPodInfo(st.MakePod().Name("p").Obj())
	n.AddNominatedPod(p, "a")
	n.AddNominatedPod(p, "b")
	if len(n.NominatedPodsForNode("a")) != 0 || len(n.NominatedPodsForNode("b")) != 1 {
		t.Errorf("renomination kept the old node")
	}
	n.DeleteNominatedPodIfExists(p.Pod)
	if len(n.NominatedPodsForNode("b")) != 0 {
		t.Errorf("delete kept the nomination")
	}
	var sum atomic.Int64
	st.NewHandle(nil).Parallelize(context.Background(), 100, func(i int) { sum.Add(int64(i)) })
	if sum.Load() != 4950 {
		t.Errorf("sum = %d, want 4950", sum.Load())
	}
}
