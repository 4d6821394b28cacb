package apps

import (
	"context"
	"testing"
	"time"

	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

// TestDeploymentSteadyStateWritesNothing: once a rollout is complete, the
// loops leave the Deployment and its ReplicaSets alone; a loop that
// rewrote an unchanged status would feed itself forever.
func TestDeploymentSteadyStateWritesNothing(t *testing.T) {
	e := startDeployments(t)
	d := newDeployment("calm", 3, "img:1", intstr.FromInt(1), intstr.FromInt(1))
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rollOut(t, "calm", nil)
	e.waitObserved(t, "calm")
	dl, err := e.set.Deployments.Namespace(e.ns).List(e.ctx, meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rl, err := e.set.ReplicaSets.Namespace(e.ns).List(e.ctx, meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Watch both for two seconds: any write shows up as an event.
	ctx, cancel := context.WithTimeout(e.ctx, 2*time.Second)
	defer cancel()
	dw, err := e.set.Deployments.Namespace(e.ns).Watch(ctx, meta.ListOptions{ResourceVersion: dl.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer dw.Stop()
	rw, err := e.set.ReplicaSets.Namespace(e.ns).Watch(ctx, meta.ListOptions{ResourceVersion: rl.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Stop()
	for dch, rch := dw.ResultChan(), rw.ResultChan(); dch != nil || rch != nil; {
		select {
		case ev, ok := <-dch:
			if !ok {
				dch = nil
				continue
			}
			t.Errorf("deployment written in steady state: %s rv %s status %+v", ev.Type, ev.Object.ResourceVersion, ev.Object.Status)
		case ev, ok := <-rch:
			if !ok {
				rch = nil
				continue
			}
			t.Errorf("replicaset written in steady state: %s %s rv %s", ev.Type, ev.Object.Name, ev.Object.ResourceVersion)
		}
	}
}
