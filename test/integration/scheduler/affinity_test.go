package scheduler

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func term(topologyKey string, kv ...string) corev1.PodAffinityTerm {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return corev1.PodAffinityTerm{LabelSelector: &meta.LabelSelector{MatchLabels: m}, TopologyKey: topologyKey}
}

func zones(c *cluster) {
	for _, n := range []struct{ name, zone string }{{"a1", "a"}, {"a2", "a"}, {"b1", "b"}, {"b2", "b"}} {
		c.addNode(nodeSpec{name: n.name, labels: map[string]string{zoneLabel: n.zone}})
	}
}

// TestInterPodAffinity checks required affinity by zone, required
// anti-affinity by host, and the symmetry of an existing pod's
// anti-affinity.
func TestInterPodAffinity(t *testing.T) {
	t.Parallel()
	c := start(t, nil)
	zones(c)
	c.create(newPod("db", "", "", withLabels("app", "db"), func(p *corev1.Pod) { p.Spec.NodeName = "b1" }))
	c.create(newPod("guard", "", "", withLabels("app", "guard"), func(p *corev1.Pod) {
		p.Spec.NodeName = "a1"
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term(zoneLabel, "app", "web")}}}
	}))
	// Affinity to the db's zone: b1 or b2.
	for _, name := range []string{"near-1", "near-2", "near-3"} {
		c.create(newPod(name, "", "", func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term(zoneLabel, "app", "db")}}}
		}))
		if got := c.waitBound(name); got != "b1" && got != "b2" {
			t.Errorf("%s bound to %s, want zone b", name, got)
		}
	}
	// Anti-affinity to the db's host: anywhere but b1.
	c.create(newPod("away", "", "", func(p *corev1.Pod) {
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term(hostLabel, "app", "db")}}}
	}))
	if got := c.waitBound("away"); got == "b1" {
		t.Errorf("away bound next to the db")
	}
	// Symmetry: guard's anti-affinity keeps web pods out of zone a.
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		c.create(newPod(name, "", "", withLabels("app", "web")))
		if got := c.waitBound(name); got == "a1" || got == "a2" {
			t.Errorf("%s bound to %s in guard's zone", name, got)
		}
	}
	// A pod whose affinity nothing satisfies stays pending with the reason.
	c.create(newPod("lonely", "", "", func(p *corev1.Pod) {
		p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term(zoneLabel, "app", "nothing")}}}
	}))
	c.waitEvent("lonely", "FailedScheduling", "0/4 nodes are available")
}

// TestTopologySpread checks a DoNotSchedule zone constraint spreads pods
// evenly, and that SelectorSpread spreads one owner's pods over nodes.
func TestTopologySpread(t *testing.T) {
	t.Parallel()
	c := start(t, nil)
	zones(c)
	perZone := map[string]int{}
	for i, name := range []string{"s-1", "s-2", "s-3", "s-4", "s-5", "s-6"} {
		c.create(newPod(name, "", "", withLabels("app", "spread"), func(p *corev1.Pod) {
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: zoneLabel, WhenUnsatisfiable: corev1.DoNotSchedule,
				LabelSelector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "spread"}},
			}}
		}))
		perZone[c.waitBound(name)[:1]]++
		if d := perZone["a"] - perZone["b"]; d > 1 || d < -1 {
			t.Fatalf("after %d pods: %v, skew over 1", i+1, perZone)
		}
	}
	// Pods of one owner (a ReplicaSet reference) spread over the nodes.
	owner := meta.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid", Controller: ptr(true)}
	perNode := map[string]int{}
	for _, name := range []string{"o-1", "o-2", "o-3", "o-4"} {
		c.create(newPod(name, "", "", withLabels("app", "owned"), func(p *corev1.Pod) {
			p.OwnerReferences = []meta.OwnerReference{owner}
		}))
		perNode[c.waitBound(name)]++
	}
	if len(perNode) < 3 {
		t.Errorf("one owner's 4 pods on %d nodes: %v", len(perNode), perNode)
	}
}

func ptr[T any](v T) *T { return &v }

// TestImageLocality checks that of otherwise equal nodes the one holding
// the pod's (large) image is preferred.
func TestImageLocality(t *testing.T) {
	t.Parallel()
	c := start(t, nil)
	big := []corev1.ContainerImage{{Names: []string{"registry.example/big:1"}, SizeBytes: 900 << 20}}
	c.addNode(nodeSpec{name: "plain-1"})
	c.addNode(nodeSpec{name: "cached", images: big})
	c.addNode(nodeSpec{name: "plain-2"})
	for _, name := range []string{"img-1", "img-2"} {
		c.create(newPod(name, "", "", func(p *corev1.Pod) { p.Spec.Containers[0].Image = "registry.example/big:1" }))
		if got := c.waitBound(name); got != "cached" {
			t.Errorf("%s bound to %s, want the node with its image", name, got)
		}
	}
}

// TestPreemption checks that a high-priority pod that fits nowhere gets a
// nominated node, its lower-priority victims are deleted, and it is bound
// there.
func TestPreemption(t *testing.T) {
	t.Parallel()
	c := start(t, nil)
	c.addNode(nodeSpec{name: "only", cpu: "2"})
	// Pods get their priority from their class (the Priority admission plugin).
	low, high := c.priorityClass("low", 0), c.priorityClass("high", 1000)
	c.create(newPod("victim", "1500m", "", low))
	c.waitBound("victim")
	pre := c.create(newPod("preemptor", "1500m", "", high))
	poll(t, "victim deleted", waitTimeout, func() (bool, error) {
		p, err := c.c.Pods.Namespace(ns).Get(c.ctx, "victim", meta.GetOptions{})
		return err != nil || p.DeletionTimestamp != nil, nil
	})
	if got := c.waitBound("preemptor"); got != "only" {
		t.Errorf("preemptor bound to %s", got)
	}
	p := c.get("preemptor")
	if p.UID != pre.UID {
		t.Fatal("preemptor replaced")
	}
	if p.Status.NominatedNodeName != "only" {
		t.Errorf("nominatedNodeName %q, want only", p.Status.NominatedNodeName)
	}
	// A lower-priority pod cannot preempt the preemptor.
	c.create(newPod("low-again", "1500m", "", low))
	c.waitEvent("low-again", "FailedScheduling", "Insufficient cpu")
	c.stayPending("low-again", 500*time.Millisecond)
}
