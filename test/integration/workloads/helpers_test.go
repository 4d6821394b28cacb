package workloads_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/daemonset"
	"platform.io/platform/pkg/controller/statefulset"
	"platform.io/platform/test/integration/framework"
)

const ns = "default"

// env is an API server with the statefulset and daemonset loops running
// against it.
type env struct {
	t       *testing.T
	ctx     context.Context
	clients *client.Set
}

// start runs an API server and both loops until the test ends.
func start(t *testing.T) *env {
	t.Helper()
	s := framework.Start(t)
	d := s.Deps(t, "controller-manager")
	c := controller.Context{Deps: d}
	ss, err := statefulset.New(c, statefulset.NewOptions())
	if err != nil {
		t.Fatal(err)
	}
	ds, err := daemonset.New(c, daemonset.NewOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	done := make(chan struct{}, 2)
	for _, r := range []interface{ Run(context.Context) error }{ss, ds} {
		go func() {
			if err := r.Run(ctx); err != nil {
				t.Errorf("loop: %v", err)
			}
			done <- struct{}{}
		}()
	}
	t.Cleanup(func() {
		cancel()
		<-done
		<-done
	})
	return &env{t: t, ctx: ctx, clients: d.Clients}
}

// waitFor polls cond every 20ms until it holds, failing the test after
// 30s with what.
func (e *env) waitFor(what string, cond func() (bool, error)) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		ok, err := cond()
		if ok {
			return
		}
		last = err
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("timed out waiting for %s (last error: %v)", what, last)
}

func (e *env) pod(name string) (*corev1.Pod, error) {
	return e.clients.Pods.Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
}

func (e *env) mustNotExist(name string) {
	e.t.Helper()
	if _, err := e.pod(name); !apierrors.IsNotFound(err) {
		e.t.Fatalf("pod %s exists too early (%v)", name, err)
	}
}

// listPods returns the pods matching sel.
func (e *env) listPods(sel string) []corev1.Pod {
	e.t.Helper()
	l, err := e.clients.Pods.Namespace(ns).List(e.ctx, meta.ListOptions{LabelSelector: sel})
	if err != nil {
		e.t.Fatal(err)
	}
	return l.Items
}

// markReady does what a node agent does for a started pod: Running, with
// its containers running and ready, and the Ready condition True.
func (e *env) markReady(name string) {
	e.t.Helper()
	if err := markReady(e.ctx, e.clients, name); err != nil {
		e.t.Fatal(err)
	}
}

func markReady(ctx context.Context, c *client.Set, name string) error {
	for {
		p, err := c.Pods.Namespace(ns).Get(ctx, name, meta.GetOptions{})
		if err != nil {
			return err
		}
		ts := meta.NewTime(time.Now())
		p.Status.Phase = corev1.PodRunning
		p.Status.StartTime = &ts
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: ts}}
		p.Status.ContainerStatuses = nil
		for i, ctr := range p.Spec.Containers {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{
				Name: ctr.Name, Image: ctr.Image, Ready: true, ContainerID: fmt.Sprintf("docker://%s-%d", p.UID, i),
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: ts}},
			})
		}
		_, err = c.Pods.Namespace(ns).UpdateStatus(ctx, p, meta.WriteOptions{})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
}

func (e *env) bind(pod, node string) {
	e.t.Helper()
	if err := bind(e.ctx, e.clients, pod, node); err != nil {
		e.t.Fatal(err)
	}
}

func bind(ctx context.Context, c *client.Set, pod, node string) error {
	b := &corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: pod, Namespace: ns}, Target: corev1.ObjectReference{Kind: "Node", Name: node}}
	return c.Pods.Namespace(ns).Bind(ctx, b, meta.WriteOptions{})
}

// confirmDelete does what a node agent does once a deleted pod's
// containers stopped: the delete with grace 0 that removes it.
func (e *env) confirmDelete(name string) {
	e.t.Helper()
	zero := int64(0)
	if err := e.clients.Pods.Namespace(ns).Delete(e.ctx, name, &meta.DeleteOptions{GracePeriodSeconds: &zero}); err != nil && !apierrors.IsNotFound(err) {
		e.t.Fatal(err)
	}
}

func (e *env) createNode(n *corev1.Node) {
	e.t.Helper()
	if _, err := e.clients.Nodes.Create(e.ctx, n, meta.WriteOptions{}); err != nil {
		e.t.Fatal(err)
	}
}

// simulate plays scheduler and node agents until ctx ends: it binds
// unbound pods to the node their matchFields affinity names (others to a
// node "sim" it registers), marks bound pods ready, and confirms graceful
// deletes.
func (e *env) simulate(ctx context.Context) {
	e.createNode(&corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "sim"}})
	go func() {
		for ctx.Err() == nil {
			l, err := e.clients.Pods.Namespace(ns).List(ctx, meta.ListOptions{})
			if err == nil {
				for i := range l.Items {
					simulatePod(ctx, e.clients, &l.Items[i])
				}
			}
			select {
			case <-ctx.Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
}

func simulatePod(ctx context.Context, c *client.Set, p *corev1.Pod) {
	switch {
	case p.DeletionTimestamp != nil:
		zero := int64(0)
		_ = c.Pods.Namespace(ns).Delete(ctx, p.Name, &meta.DeleteOptions{GracePeriodSeconds: &zero})
	case p.Spec.NodeName == "":
		node := affinityNode(p)
		if node == "" {
			node = "sim"
		}
		_ = bind(ctx, c, p.Name, node)
	case p.Status.Phase == corev1.PodPending || p.Status.Phase == "":
		_ = markReady(ctx, c, p.Name)
	}
}

// affinityNode is the node a DaemonSet pod's matchFields affinity names.
func affinityNode(p *corev1.Pod) string {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range term.MatchFields {
			if f.Key == "metadata.name" && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

func isReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
