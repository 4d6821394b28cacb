package cache

import (
	"errors"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap/zaptest"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/scheduler/framework"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }

func node(name, zone string, images ...string) *corev1.Node {
	n := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{ZoneLabel: zone}}}
	n.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")}
	for _, img := range images {
		n.Status.Images = append(n.Status.Images, corev1.ContainerImage{Names: []string{img}, SizeBytes: 100})
	}
	return n
}

func pod(name, nodeName, cpu string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", UID: meta.UID(name)}}
	p.Spec.NodeName = nodeName
	p.Spec.Containers = []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}}}
	return p
}

func requested(t *testing.T, s *Snapshot, name string) int64 {
	t.Helper()
	ni, err := s.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return ni.Requested.MilliCPU
}

func TestAssumeConfirmForgetExpire(t *testing.T) {
	tests := []struct {
		name string
		// steps run on the cache after the pod is assumed on n1
		steps   func(c *Cache, clk *fakeClock, p *corev1.Pod) error
		wantCPU int64
		assumed bool
	}{
		{"assumed counts", func(c *Cache, _ *fakeClock, _ *corev1.Pod) error { return nil }, 1000, true},
		{"forget on bind failure", func(c *Cache, _ *fakeClock, p *corev1.Pod) error { return c.ForgetPod(p) }, 0, false},
		{"confirmed by informer", func(c *Cache, _ *fakeClock, p *corev1.Pod) error { return c.AddPod(p) }, 1000, false},
		{"expires after ttl when binding finished", func(c *Cache, clk *fakeClock, p *corev1.Pod) error {
			c.FinishBinding(p)
			clk.t = clk.t.Add(31 * time.Second)
			c.CleanupAssumedPods()
			return nil
		}, 0, false},
		{"kept before ttl", func(c *Cache, clk *fakeClock, p *corev1.Pod) error {
			c.FinishBinding(p)
			clk.t = clk.t.Add(29 * time.Second)
			c.CleanupAssumedPods()
			return nil
		}, 1000, true},
		{"not expired while binding", func(c *Cache, clk *fakeClock, _ *corev1.Pod) error {
			clk.t = clk.t.Add(time.Hour)
			c.CleanupAssumedPods()
			return nil
		}, 1000, true},
		{"confirmed then deleted", func(c *Cache, _ *fakeClock, p *corev1.Pod) error {
			if err := c.AddPod(p); err != nil {
				return err
			}
			return c.RemovePod(p)
		}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeClock{t: time.Unix(1000, 0)}
			c := New(zaptest.NewLogger(t), 0, clk)
			c.AddNode(node("n1", "a"))
			p := pod("p", "n1", "1")
			if err := c.AssumePod(p); err != nil {
				t.Fatal(err)
			}
			if err := tc.steps(c, clk, p); err != nil {
				t.Fatal(err)
			}
			s := NewEmptySnapshot()
			c.UpdateSnapshot(s)
			if got := requested(t, s, "n1"); got != tc.wantCPU {
				t.Errorf("requested cpu %d, want %d", got, tc.wantCPU)
			}
			if got := c.IsAssumedPod(p); got != tc.assumed {
				t.Errorf("assumed %v, want %v", got, tc.assumed)
			}
		})
	}
}

func TestAssumeErrors(t *testing.T) {
	c := New(zaptest.NewLogger(t), 0, nil)
	if err := c.AssumePod(pod("p", "", "1")); !errors.Is(err, ErrNoNode) {
		t.Errorf("assume without node: %v", err)
	}
	p := pod("p", "n1", "1")
	if err := c.AssumePod(p); err != nil {
		t.Fatal(err)
	}
	if err := c.AssumePod(p); !errors.Is(err, ErrPodExists) {
		t.Errorf("assume twice: %v", err)
	}
	if err := c.ForgetPod(pod("other", "n1", "1")); !errors.Is(err, ErrPodNotFound) {
		t.Errorf("forget unknown: %v", err)
	}
}

func TestIncrementalSnapshot(t *testing.T) {
	c := New(zaptest.NewLogger(t), 0, nil)
	for _, n := range []*corev1.Node{node("a1", "a"), node("a2", "a"), node("b1", "b"), node("c1", "c")} {
		c.AddNode(n)
	}
	s := NewEmptySnapshot()
	c.UpdateSnapshot(s)
	names := func() []string {
		var out []string
		for _, ni := range s.List() {
			out = append(out, ni.Node().Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"a1", "b1", "c1", "a2"}, names()); diff != "" {
		t.Fatalf("zone-interleaved order (-want +got):\n%s", diff)
	}
	before := map[string]*framework.NodeInfo{}
	gens := map[string]int64{}
	for _, ni := range s.List() {
		before[ni.Node().Name] = ni
		gens[ni.Node().Name] = ni.Generation
	}
	if err := c.AddPod(pod("p", "b1", "500m")); err != nil {
		t.Fatal(err)
	}
	c.UpdateSnapshot(s)
	var changed []string
	for _, ni := range s.List() {
		if before[ni.Node().Name] != ni {
			t.Errorf("node %s info pointer replaced; want updated in place", ni.Node().Name)
		}
		if ni.Generation != gens[ni.Node().Name] {
			changed = append(changed, ni.Node().Name)
		}
	}
	if diff := cmp.Diff([]string{"b1"}, changed); diff != "" {
		t.Errorf("re-cloned nodes (-want +got):\n%s", diff)
	}
	if got := requested(t, s, "b1"); got != 500 {
		t.Errorf("b1 requested %d, want 500", got)
	}
	c.RemoveNode(node("c1", "c"))
	c.UpdateSnapshot(s)
	if diff := cmp.Diff([]string{"a1", "b1", "a2"}, names()); diff != "" {
		t.Errorf("after removal (-want +got):\n%s", diff)
	}
	if _, err := s.Get("c1"); !errors.Is(err, framework.ErrNotFound) {
		t.Errorf("removed node: %v", err)
	}
}

func TestAffinityListsAndImages(t *testing.T) {
	c := New(zaptest.NewLogger(t), 0, nil)
	c.AddNode(node("n1", "a", "img:1", "shared:1"))
	c.AddNode(node("n2", "a", "shared:1"))
	s := NewEmptySnapshot()
	c.UpdateSnapshot(s)
	ni, _ := s.Get("n1")
	if got := ni.ImageStates["shared:1"].NumNodes; got != 2 {
		t.Errorf("shared image on %d nodes, want 2", got)
	}
	if got := ni.ImageStates["img:1"].NumNodes; got != 1 {
		t.Errorf("img on %d nodes, want 1", got)
	}
	anti := pod("anti", "n2", "1")
	anti.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, TopologyKey: "zone"}}}}
	if err := c.AddPod(anti); err != nil {
		t.Fatal(err)
	}
	c.RemoveNode(node("n1", "a", "img:1", "shared:1"))
	c.UpdateSnapshot(s)
	list := func(l []*framework.NodeInfo) []string {
		var out []string
		for _, ni := range l {
			out = append(out, ni.Node().Name)
		}
		sort.Strings(out)
		return out
	}
	if diff := cmp.Diff([]string{"n2"}, list(s.HavePodsWithRequiredAntiAffinityList())); diff != "" {
		t.Errorf("required anti-affinity nodes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"n2"}, list(s.HavePodsWithAffinityList())); diff != "" {
		t.Errorf("affinity nodes (-want +got):\n%s", diff)
	}
	n2, _ := s.Get("n2")
	if got := n2.ImageStates["shared:1"].NumNodes; got != 1 {
		t.Errorf("after n1 removal shared image on %d nodes, want 1", got)
	}
}
