package scheduler

import (
	"fmt"
	"testing"

	"golang.org/x/sync/errgroup"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// TestFirstCycleSeesTheWholeList starts the scheduler on a cluster whose
// only node has room for one pod, taken by an assigned pod that the pod
// list returns after many pending ones. Informers that have synced may
// still be handing the list to the handlers; a scheduler that began then
// would find the node empty and bind a pending pod to it.
func TestFirstCycleSeesTheWholeList(t *testing.T) {
	t.Parallel()
	const pending = 3000
	c := newCluster(t)
	c.addNode(nodeSpec{name: "one-slot", pods: "1"})
	// Names sort the assigned pod after the pending ones in the list.
	c.create(newPod("z-assigned", "100m", "", func(p *corev1.Pod) { p.Spec.NodeName = "one-slot" }))
	var g errgroup.Group
	g.SetLimit(16)
	for i := range pending {
		g.Go(func() error {
			_, err := c.c.Pods.Namespace(ns).Create(c.ctx, newPod(fmt.Sprintf("a-%04d", i), "100m", ""), meta.WriteOptions{})
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	c.run(nil)

	// The first pending pod is scheduled first (same priority, created
	// first): wait for its outcome.
	first := "a-0000"
	poll(t, first+" bound or unschedulable", waitTimeout, func() (bool, error) {
		p := c.get(first)
		if p.Spec.NodeName != "" {
			return true, nil
		}
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse {
				return true, nil
			}
		}
		return false, nil
	})
	l, err := c.c.Pods.Namespace(ns).List(c.ctx, meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range l.Items {
		if p.Name != "z-assigned" && p.Spec.NodeName != "" {
			t.Errorf("pod %s bound to %s, whose one slot z-assigned holds", p.Name, p.Spec.NodeName)
		}
	}
}
