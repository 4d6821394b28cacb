package nodelifecycle

import (
	"context"
	"testing"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/client"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/nodelifecycle"
	"platform.io/platform/test/integration/framework"
	"platform.io/platform/test/simnode"
)

// cluster is an API server with simulated nodes and the node lifecycle
// loop running.
type cluster struct {
	agent *simnode.Agent
	set   *client.Set
	ctx   context.Context
}

func startCluster(t *testing.T, nodes int) *cluster {
	t.Helper()
	s := framework.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	set := client.NewSet(s.RESTClient(t))
	agent, err := simnode.New(zap.NewNop(), set, simnode.Config{
		Nodes: nodes, NamePrefix: "sim-", Zones: []string{"z1"},
		CPU: resource.MustParse("2"), Memory: resource.MustParse("4Gi"), Pods: 20,
		// Status is reported rarely: the lease is the heartbeat.
		LeaseInterval: 200 * time.Millisecond, LeaseDuration: time.Second, StatusInterval: time.Hour,
		JobPodDuration: time.Hour, Workers: 4,
	})
	if err != nil {
		t.Fatal(err)
	}
	agentDone := make(chan error, 1)
	go func() { agentDone <- agent.Run(ctx) }()
	d := s.Deps(t, "controller-manager")
	opts := *nodelifecycle.NewOptions()
	opts.NodeMonitorPeriod, opts.NodeMonitorGracePeriod, opts.NodeStartupGracePeriod = 100*time.Millisecond, 1500*time.Millisecond, 5*time.Second
	opts.PodEvictionTimeout, opts.NodeEvictionRate = 2*time.Second, 50
	lc, err := nodelifecycle.New(controller.Context{Deps: d}, opts, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	lcDone := make(chan error, 1)
	go func() { lcDone <- lc.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		for _, ch := range []chan error{agentDone, lcDone} {
			if err := <-ch; err != nil && ctx.Err() == nil {
				t.Errorf("stopped with %v", err)
			}
		}
	})
	return &cluster{agent: agent, set: set, ctx: ctx}
}

func eventually(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached (last error %v)", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *cluster) node(t *testing.T, name string) *corev1.Node {
	t.Helper()
	n, err := c.set.Nodes.Get(c.ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (c *cluster) pod(t *testing.T, name string) *corev1.Pod {
	t.Helper()
	p, err := c.set.Pods.Namespace("default").Get(c.ctx, name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ready(n *corev1.Node) (corev1.ConditionStatus, string) {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status, c.Reason
		}
	}
	return "", ""
}

func hasTaint(n *corev1.Node, key string, effect corev1.TaintEffect) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == key && t.Effect == effect {
			return true
		}
	}
	return false
}

func podOn(name, node string, grace int64, tols ...corev1.Toleration) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default"}, Spec: corev1.PodSpec{
		NodeName: node, TerminationGracePeriodSeconds: &grace, Tolerations: tols,
		Containers: []corev1.Container{{Name: "c", Image: "busybox"}},
	}}
}
