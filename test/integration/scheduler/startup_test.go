package scheduler

import (
	"context"
	"fmt"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/cmd/scheduler/app"
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

// TestStepDownAbandonsQueuedBindings stops a scheduler whose client allows
// two requests a second while 30 bindings wait for it: Run must return at
// once, leaving the unsent bindings to the next leader, instead of sending
// them at two a second.
func TestStepDownAbandonsQueuedBindings(t *testing.T) {
	t.Parallel()
	const pods = 30
	c := newCluster(t)
	c.addNode(nodeSpec{name: "big", cpu: "64", mem: "64Gi"})
	for i := range pods {
		c.create(newPod(fmt.Sprintf("p-%02d", i), "100m", ""))
	}
	d := c.srv.Deps(t, "platform-scheduler")
	slow, err := rest.NewClient(&rest.Config{Host: c.srv.URL, QPS: 2, Burst: 1})
	if err != nil {
		t.Fatal(err)
	}
	d.Clients = client.NewSet(slow)
	o := app.NewOptions()
	o.Port = 0
	d.Own = o
	s, err := app.NewScheduler(d, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(c.ctx)
	defer cancel()
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	poll(t, "a first binding", waitTimeout, func() (bool, error) {
		l, err := c.c.Pods.Namespace(ns).List(c.ctx, meta.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, p := range l.Items {
			if p.Spec.NodeName != "" {
				return true, nil
			}
		}
		return false, nil
	})
	stopped := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitTimeout):
		t.Fatal("Run did not return")
	}
	// Sending the queued bindings would take about (pods-1)/2 seconds.
	if took := time.Since(stopped); took > 3*time.Second {
		t.Errorf("Run returned %s after its context ended; it waited for the queued bindings", took)
	}
}
