package workloads_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

func worker(name string, taints ...corev1.Taint) *corev1.Node {
	return &corev1.Node{
		ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"role": "worker", "platform.io/hostname": name}},
		Spec:       corev1.NodeSpec{Taints: taints},
	}
}

func (e *env) updateDS(name string, change func(*appsv1.DaemonSet)) {
	e.t.Helper()
	for {
		ds, err := e.clients.DaemonSets.Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		change(ds)
		_, err = e.clients.DaemonSets.Namespace(ns).Update(e.ctx, ds, meta.WriteOptions{})
		if err == nil {
			return
		}
		if !apierrors.IsConflict(err) {
			e.t.Fatal(err)
		}
	}
}

func (e *env) dsStatus(name, what string, ok func(st appsv1.DaemonSetStatus) bool) appsv1.DaemonSetStatus {
	e.t.Helper()
	var got appsv1.DaemonSetStatus
	e.waitFor(what, func() (bool, error) {
		ds, err := e.clients.DaemonSets.Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
		if err != nil {
			return false, err
		}
		got = ds.Status
		return ds.Status.ObservedGeneration == ds.Generation && ok(ds.Status), fmt.Errorf("status %+v", ds.Status)
	})
	return got
}

// nodesWithPods returns "node" for every live pod of the DaemonSet, by the
// node it is bound to, sorted.
func (e *env) nodesWithPods(sel string) []string {
	var out []string
	for _, p := range e.listPods(sel) {
		if p.DeletionTimestamp == nil {
			out = append(out, p.Spec.NodeName)
		}
	}
	sort.Strings(out)
	return out
}

func settled(st appsv1.DaemonSetStatus, n int32) bool {
	return st.DesiredNumberScheduled == n && st.CurrentNumberScheduled == n && st.NumberReady == n &&
		st.NumberAvailable == n && st.UpdatedNumberScheduled == n && st.NumberUnavailable == 0 && st.NumberMisscheduled == 0
}

// TestDaemonSet: one pod per eligible node (matching labels, tolerated
// taints), placed by node-name affinity with the default tolerations;
// nodes added, relabeled and deleted are re-evaluated; a failed pod is
// replaced.
func TestDaemonSet(t *testing.T) {
	e := start(t)
	e.createNode(worker("n1"))
	e.createNode(worker("n2", corev1.Taint{Key: "node.platform.io/unschedulable", Effect: corev1.TaintEffectNoSchedule}))
	e.createNode(worker("tainted", corev1.Taint{Key: "dedicated", Value: "db", Effect: corev1.TaintEffectNoSchedule}))
	e.createNode(&corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "db", Labels: map[string]string{"role": "db"}}})
	e.simulate(e.ctx)
	e.createDS(newDS("agent"))
	e.dsStatus("agent", "two nodes served", func(st appsv1.DaemonSetStatus) bool { return settled(st, 2) })
	if got := strings.Join(e.nodesWithPods("app=agent"), ","); got != "n1,n2" {
		t.Fatalf("pods on %s, want n1,n2", got)
	}
	p := e.listPods("app=agent")[0]
	if affinityNode(&p) != p.Spec.NodeName || !tolerates(&p, corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute) ||
		!tolerates(&p, corev1.TaintNodeUnschedulable, corev1.TaintEffectNoSchedule) || p.Labels["controller-revision-hash"] == "" {
		t.Fatalf("pod %s: affinity %q node %q tolerations %+v labels %v", p.Name, affinityNode(&p), p.Spec.NodeName, p.Spec.Tolerations, p.Labels)
	}

	e.createNode(worker("n3"))
	e.dsStatus("agent", "a node added later", func(st appsv1.DaemonSetStatus) bool { return settled(st, 3) })
	for {
		n, err := e.clients.Nodes.Get(e.ctx, "db", meta.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n.Labels["role"] = "worker"
		if _, err = e.clients.Nodes.Update(e.ctx, n, meta.WriteOptions{}); !apierrors.IsConflict(err) {
			if err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	e.dsStatus("agent", "a relabeled node", func(st appsv1.DaemonSetStatus) bool { return settled(st, 4) })
	if got := strings.Join(e.nodesWithPods("app=agent"), ","); got != "db,n1,n2,n3" {
		t.Fatalf("pods on %s", got)
	}
	if err := e.clients.Nodes.Delete(e.ctx, "n3", nil); err != nil {
		t.Fatal(err)
	}
	e.dsStatus("agent", "a node deleted", func(st appsv1.DaemonSetStatus) bool { return st.DesiredNumberScheduled == 3 && settled(st, 3) })

	var failed corev1.Pod
	for _, p := range e.listPods("app=agent") {
		if p.Spec.NodeName == "n1" {
			failed = p
		}
	}
	failed.Status.Phase = corev1.PodFailed
	if _, err := e.clients.Pods.Namespace(ns).UpdateStatus(e.ctx, &failed, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the failed pod replaced", func() (bool, error) {
		for _, p := range e.listPods("app=agent") {
			if p.Spec.NodeName == "n1" && p.UID != failed.UID && isReady(&p) {
				return true, nil
			}
		}
		return false, nil
	})
	e.dsStatus("agent", "settled after the replacement", func(st appsv1.DaemonSetStatus) bool { return settled(st, 3) })
}

// TestDaemonSetRollingUpdate: a new template replaces pods node by node,
// never leaving more than maxUnavailable nodes without an available pod.
func TestDaemonSetRollingUpdate(t *testing.T) {
	for _, tc := range []struct {
		name           string
		maxUnavailable string
		want           int32
	}{{"default 1", "", 1}, {"40% of 5 is 2", "40%", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t)
			for i := 1; i <= 5; i++ {
				e.createNode(worker(fmt.Sprintf("n%d", i)))
			}
			e.simulate(e.ctx)
			ds := newDS("roll")
			if tc.maxUnavailable != "" {
				v := intstr.Parse(tc.maxUnavailable)
				ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: &v}}
			}
			e.createDS(ds)
			e.dsStatus("roll", "five nodes served", func(st appsv1.DaemonSetStatus) bool { return settled(st, 5) })

			var worst atomic.Int32
			watchCtx, stop := context.WithCancel(e.ctx)
			watched := make(chan struct{})
			go func() {
				defer close(watched)
				for watchCtx.Err() == nil {
					l, err := e.clients.Pods.Namespace(ns).List(watchCtx, meta.ListOptions{LabelSelector: "app=roll"})
					if err != nil {
						continue
					}
					up := map[string]bool{}
					for _, p := range l.Items {
						if p.DeletionTimestamp == nil && isReady(&p) {
							up[p.Spec.NodeName] = true
						}
					}
					if down := int32(5 - len(up)); down > worst.Load() {
						worst.Store(down)
					}
				}
			}()
			e.updateDS("roll", func(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.Containers[0].Image = "agent:2" })
			e.dsStatus("roll", "rolled out", func(st appsv1.DaemonSetStatus) bool { return settled(st, 5) })
			stop()
			<-watched
			if w := worst.Load(); w > tc.want || w == 0 {
				t.Errorf("at worst %d nodes had no available pod; maxUnavailable is %d", w, tc.want)
			}
			for _, p := range e.listPods("app=roll") {
				if p.DeletionTimestamp == nil && p.Spec.Containers[0].Image != "agent:2" {
					t.Errorf("pod %s on %s still runs %s", p.Name, p.Spec.NodeName, p.Spec.Containers[0].Image)
				}
			}
			revs, err := e.clients.ControllerRevisions.Namespace(ns).List(e.ctx, meta.ListOptions{LabelSelector: "app=roll"})
			if err != nil || len(revs.Items) != 2 {
				t.Errorf("revisions: %v, %d", err, len(revs.Items))
			}
		})
	}
}

// TestDaemonSetOnDelete: with OnDelete a new template reaches only the
// nodes whose pod was deleted.
func TestDaemonSetOnDelete(t *testing.T) {
	e := start(t)
	e.createNode(worker("n1"))
	e.createNode(worker("n2"))
	e.simulate(e.ctx)
	ds := newDS("od")
	ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}
	e.createDS(ds)
	e.dsStatus("od", "two nodes served", func(st appsv1.DaemonSetStatus) bool { return settled(st, 2) })
	e.updateDS("od", func(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.Containers[0].Image = "agent:2" })
	st := e.dsStatus("od", "new template seen", func(st appsv1.DaemonSetStatus) bool { return st.UpdatedNumberScheduled == 0 })
	if st.NumberReady != 2 {
		t.Fatalf("OnDelete touched pods: %+v", st)
	}
	var victim string
	for _, p := range e.listPods("app=od") {
		if p.Spec.NodeName == "n2" {
			victim = p.Name
		}
	}
	if err := e.clients.Pods.Namespace(ns).Delete(e.ctx, victim, nil); err != nil {
		t.Fatal(err)
	}
	e.dsStatus("od", "n2 updated", func(st appsv1.DaemonSetStatus) bool { return st.UpdatedNumberScheduled == 1 && st.NumberReady == 2 })
	for _, p := range e.listPods("app=od") {
		if want := map[string]string{"n1": "agent:1", "n2": "agent:2"}[p.Spec.NodeName]; p.DeletionTimestamp == nil && p.Spec.Containers[0].Image != want {
			t.Errorf("pod on %s runs %s, want %s", p.Spec.NodeName, p.Spec.Containers[0].Image, want)
		}
	}
}

func newDS(name string) *appsv1.DaemonSet {
	l := map[string]string{"app": name}
	return &appsv1.DaemonSet{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DaemonSetSpec{
			Selector: &meta.LabelSelector{MatchLabels: l},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: l},
				Spec: corev1.PodSpec{
					NodeSelector: map[string]string{"role": "worker"},
					Containers:   []corev1.Container{{Name: "agent", Image: "agent:1"}},
				},
			},
		},
	}
}

func (e *env) createDS(ds *appsv1.DaemonSet) {
	e.t.Helper()
	if _, err := e.clients.DaemonSets.Namespace(ns).Create(e.ctx, ds, meta.WriteOptions{}); err != nil {
		e.t.Fatal(err)
	}
}

func tolerates(p *corev1.Pod, key string, effect corev1.TaintEffect) bool {
	return corev1.TolerationsTolerateTaint(p.Spec.Tolerations, &corev1.Taint{Key: key, Effect: effect})
}
