package nodeipam_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/nodeipam"
	"platform.io/platform/test/integration/framework"
)

func eventually(t *testing.T, what string, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached: %s", what, msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAssignsAndFreesPodCIDRs: against a real API server, nodes without a
// pod CIDR get the lowest free one, a CIDR a node already has is kept and
// not handed out again, and a deleted node's CIDR is reused.
func TestAssignsAndFreesPodCIDRs(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	d := s.Deps(t, "controller-manager")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	nodes := d.Clients.Nodes
	if _, err := nodes.Create(ctx, &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "had"},
		Spec: corev1.NodeSpec{PodCIDR: "10.70.0.0/24"}}, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	loop, err := nodeipam.New(controller.Context{Deps: d}, nodeipam.Options{AllocateNodeCIDRs: true, ClusterCIDR: "10.70.0.0/22", NodeCIDRMaskSize: 24})
	if err != nil {
		t.Fatal(err)
	}
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()
	defer func() { cancel(); <-done }()

	cidrOf := func(name string) string {
		n, err := nodes.Get(ctx, name, meta.GetOptions{})
		if err != nil {
			return "error: " + err.Error()
		}
		if len(n.Spec.PodCIDRs) != 1 || n.Spec.PodCIDRs[0] != n.Spec.PodCIDR {
			return fmt.Sprintf("podCIDR %q podCIDRs %v", n.Spec.PodCIDR, n.Spec.PodCIDRs)
		}
		return n.Spec.PodCIDR
	}
	for _, name := range []string{"a", "b"} {
		if _, err := nodes.Create(ctx, &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name}}, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "a and b assigned", func() string {
		got := cidrOf("a") + " " + cidrOf("b")
		if got != "10.70.1.0/24 10.70.2.0/24" && got != "10.70.2.0/24 10.70.1.0/24" {
			return got
		}
		return ""
	})
	if got := cidrOf("had"); got != "10.70.0.0/24" {
		t.Errorf("pre-assigned node now has %s", got)
	}
	freed := cidrOf("a")
	if err := nodes.Delete(ctx, "a", nil); err != nil {
		t.Fatal(err)
	}
	// c and d share what is left of the /22: a's freed CIDR and the last one.
	for _, name := range []string{"c", "d"} {
		if _, err := nodes.Create(ctx, &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name}}, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "c and d assigned, one of them a's freed CIDR", func() string {
		c, dd := cidrOf("c"), cidrOf("d")
		if (c != freed && dd != freed) || (c != "10.70.3.0/24" && dd != "10.70.3.0/24") {
			return fmt.Sprintf("c %s, d %s (freed %s)", c, dd, freed)
		}
		return ""
	})
}
