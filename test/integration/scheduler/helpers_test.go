package scheduler

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/client"

	"platform.io/platform/cmd/scheduler/app"
	"platform.io/platform/pkg/scheduler"
	"platform.io/platform/pkg/scheduler/config"
	"platform.io/platform/test/integration/framework"
)

const (
	ns          = "default"
	waitTimeout = 30 * time.Second
	zoneLabel   = "topology.platform.io/zone"
	hostLabel   = "platform.io/hostname"
)

// cluster is an API server with a scheduler running against it.
type cluster struct {
	t     *testing.T
	srv   *framework.Server
	c     *client.Set
	sched *scheduler.Scheduler
	ctx   context.Context
	reg   prometheus.Gatherer
}

// start runs an API server and a scheduler with cfg (nil for the default
// configuration) until the test ends.
func start(t *testing.T, cfg *config.Configuration) *cluster {
	t.Helper()
	c := newCluster(t)
	c.run(cfg)
	return c
}

// newCluster runs an API server until the test ends; run starts the
// scheduler.
func newCluster(t *testing.T) *cluster {
	t.Helper()
	srv := framework.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return &cluster{t: t, srv: srv, c: client.NewSet(srv.RESTClient(t)), ctx: ctx}
}

// run starts a scheduler with cfg (nil for the default configuration)
// once its informers have synced, as the daemon does, until the test ends.
func (c *cluster) run(cfg *config.Configuration) {
	t := c.t
	t.Helper()
	d := c.srv.Deps(t, "platform-scheduler")
	o := app.NewOptions()
	o.Port = 0
	if cfg != nil {
		if err := o.SetConfiguration(cfg); err != nil {
			t.Fatal(err)
		}
	}
	d.Own = o
	s, err := app.NewScheduler(d, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(c.ctx)
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("scheduler: %v", err)
		}
	})
	c.reg, _ = d.Registry.(prometheus.Gatherer)
	c.c, c.sched = d.Clients, s
}

// nodeSpec describes a test node.
type nodeSpec struct {
	name          string
	cpu, mem      string
	pods          string
	labels        map[string]string
	taints        []corev1.Taint
	unschedulable bool
	conditions    []corev1.NodeCondition
	images        []corev1.ContainerImage
}

// addNode creates a node and sets its status (allocatable, conditions,
// images).
func (c *cluster) addNode(n nodeSpec) {
	c.t.Helper()
	if n.cpu == "" {
		n.cpu = "4"
	}
	if n.mem == "" {
		n.mem = "8Gi"
	}
	if n.pods == "" {
		n.pods = "110"
	}
	labels := map[string]string{hostLabel: n.name}
	for k, v := range n.labels {
		labels[k] = v
	}
	node := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: n.name, Labels: labels},
		Spec: corev1.NodeSpec{Taints: n.taints, Unschedulable: n.unschedulable}}
	created, err := c.c.Nodes.Create(c.ctx, node, meta.WriteOptions{})
	if err != nil {
		c.t.Fatalf("create node %s: %v", n.name, err)
	}
	rl := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(n.cpu),
		corev1.ResourceMemory: resource.MustParse(n.mem), corev1.ResourcePods: resource.MustParse(n.pods)}
	created.Status.Capacity, created.Status.Allocatable = rl, rl
	created.Status.Conditions = append([]corev1.NodeCondition{}, n.conditions...)
	if len(created.Status.Conditions) == 0 {
		created.Status.Conditions = []corev1.NodeCondition{{Type: "Ready", Status: corev1.ConditionTrue}}
	}
	created.Status.Images = n.images
	if _, err := c.c.Nodes.UpdateStatus(c.ctx, created, meta.WriteOptions{}); err != nil {
		c.t.Fatalf("node %s status: %v", n.name, err)
	}
}

// podSpec builds a pod; mutate adjusts it.
func newPod(name string, cpu, mem string, mutate ...func(*corev1.Pod)) *corev1.Pod {
	c := corev1.Container{Name: "c", Image: "registry.example/app:1"}
	if cpu != "" || mem != "" {
		c.Resources.Requests = corev1.ResourceList{}
		if cpu != "" {
			c.Resources.Requests[corev1.ResourceCPU] = resource.MustParse(cpu)
		}
		if mem != "" {
			c.Resources.Requests[corev1.ResourceMemory] = resource.MustParse(mem)
		}
	}
	zero := int64(0)
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
		Spec: corev1.PodSpec{Containers: []corev1.Container{c}, TerminationGracePeriodSeconds: &zero}}
	for _, m := range mutate {
		m(p)
	}
	return p
}

// priorityClass creates a priority class and returns the pod mutator that
// names it.
func (c *cluster) priorityClass(name string, value int32) func(*corev1.Pod) {
	c.t.Helper()
	pc := map[string]any{"apiVersion": "scheduling.platform.io/v1", "kind": "PriorityClass", "metadata": map[string]any{"name": name}, "value": value}
	c.srv.Do(c.t, "POST", "/apis/scheduling.platform.io/v1/priorityclasses", pc).Expect(c.t, http.StatusCreated)
	return func(p *corev1.Pod) { p.Spec.PriorityClassName = name }
}

func withLabels(kv ...string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		for i := 0; i+1 < len(kv); i += 2 {
			p.Labels[kv[i]] = kv[i+1]
		}
	}
}

func (c *cluster) create(p *corev1.Pod) *corev1.Pod {
	c.t.Helper()
	got, err := c.c.Pods.Namespace(p.Namespace).Create(c.ctx, p, meta.WriteOptions{})
	if err != nil {
		c.t.Fatalf("create pod %s: %v", p.Name, err)
	}
	return got
}

// poll calls f until it returns true or the timeout passes.
func poll(t *testing.T, what string, timeout time.Duration, f func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		ok, err := f()
		if ok {
			return
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: not within %s (last error: %v)", what, timeout, last)
}

func (c *cluster) get(name string) *corev1.Pod {
	c.t.Helper()
	p, err := c.c.Pods.Namespace(ns).Get(c.ctx, name, meta.GetOptions{})
	if err != nil {
		c.t.Fatalf("get pod %s: %v", name, err)
	}
	return p
}

// waitBound returns the node pod name is bound to.
func (c *cluster) waitBound(name string) string {
	c.t.Helper()
	var node string
	poll(c.t, "pod "+name+" bound", waitTimeout, func() (bool, error) {
		p, err := c.c.Pods.Namespace(ns).Get(c.ctx, name, meta.GetOptions{})
		if err != nil {
			return false, err
		}
		node = p.Spec.NodeName
		return node != "", nil
	})
	return node
}

// events returns the messages of the events about pod name with reason.
func (c *cluster) events(name, reason string) []string {
	c.t.Helper()
	list, err := c.c.Events.Namespace(ns).List(c.ctx, meta.ListOptions{})
	if err != nil {
		c.t.Fatal(err)
	}
	var out []string
	for _, ev := range list.Items {
		if ev.InvolvedObject.Name == name && ev.Reason == reason {
			out = append(out, ev.Message)
		}
	}
	return out
}

// waitEvent waits for an event about pod name with reason whose message
// contains want, and returns the message.
func (c *cluster) waitEvent(name, reason, want string) string {
	c.t.Helper()
	var msg string
	poll(c.t, fmt.Sprintf("%s event of %s containing %q", reason, name, want), waitTimeout, func() (bool, error) {
		for _, m := range c.events(name, reason) {
			if strings.Contains(m, want) {
				msg = m
				return true, nil
			}
		}
		return false, fmt.Errorf("events: %q", c.events(name, reason))
	})
	return msg
}

// waitUnschedulable waits for the PodScheduled=False condition and
// returns its message.
func (c *cluster) waitUnschedulable(name string) string {
	c.t.Helper()
	var msg string
	poll(c.t, "PodScheduled=False on "+name, waitTimeout, func() (bool, error) {
		for _, cond := range c.get(name).Status.Conditions {
			if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse && cond.Reason == corev1.PodReasonUnschedulable {
				msg = cond.Message
				return true, nil
			}
		}
		return false, nil
	})
	return msg
}

// stayPending checks the pod is still unbound after the scheduler has
// had the time of several attempts.
func (c *cluster) stayPending(name string, d time.Duration) {
	c.t.Helper()
	time.Sleep(d)
	if p := c.get(name); p.Spec.NodeName != "" {
		c.t.Fatalf("pod %s was bound to %s", name, p.Spec.NodeName)
	}
}

// counter returns the value of the counter family name with labels
// (a subset of the series' labels); histograms count their observations.
func (c *cluster) counter(name string, labels map[string]string) float64 {
	c.t.Helper()
	families, err := c.reg.Gather()
	if err != nil {
		c.t.Fatal(err)
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, lp := range m.GetLabel() {
				have[lp.GetName()] = lp.GetValue()
			}
			for k, v := range labels {
				if have[k] != v {
					continue series
				}
			}
			switch {
			case m.GetCounter() != nil:
				total += m.GetCounter().GetValue()
			case m.GetHistogram() != nil:
				total += float64(m.GetHistogram().GetSampleCount())
			case m.GetGauge() != nil:
				total += m.GetGauge().GetValue()
			}
		}
	}
	return total
}
