package daemonset

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/history"
)

var now = time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)

type dsOpt func(*appsv1.DaemonSet)

func nodeSelector(k, v string) dsOpt {
	return func(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.NodeSelector = map[string]string{k: v} }
}
func hostNetwork(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.HostNetwork = true }
func tolerate(key string) dsOpt {
	return func(ds *appsv1.DaemonSet) {
		ds.Spec.Template.Spec.Tolerations = append(ds.Spec.Template.Spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpExists})
	}
}
func rolling(maxUnavailable, maxSurge string) dsOpt {
	return func(ds *appsv1.DaemonSet) {
		ru := &appsv1.RollingUpdateDaemonSet{}
		if maxUnavailable != "" {
			v := intstr.Parse(maxUnavailable)
			ru.MaxUnavailable = &v
		}
		if maxSurge != "" {
			v := intstr.Parse(maxSurge)
			ru.MaxSurge = &v
		}
		ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: ru}
	}
}
func onDelete(ds *appsv1.DaemonSet) {
	ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}
}

func makeDS(opts ...dsOpt) *appsv1.DaemonSet {
	ds := &appsv1.DaemonSet{
		ObjectMeta: meta.ObjectMeta{Name: "agent", Namespace: "ns", UID: "ds-uid"},
		Spec: appsv1.DaemonSetSpec{
			Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "agent"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "agent:1"}}},
			},
		},
	}
	rolling("", "")(ds)
	for _, o := range opts {
		o(ds)
	}
	return ds
}

type nodeOpt func(*corev1.Node)

func label(k, v string) nodeOpt { return func(n *corev1.Node) { n.Labels[k] = v } }
func taint(key string, effect corev1.TaintEffect) nodeOpt {
	return func(n *corev1.Node) { n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: key, Effect: effect}) }
}

func node(name string, opts ...nodeOpt) *corev1.Node {
	n := &corev1.Node{ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"platform.io/hostname": name}}}
	for _, o := range opts {
		o(n)
	}
	return n
}

func nodes(names ...string) []*corev1.Node {
	var out []*corev1.Node
	for _, n := range names {
		out = append(out, node(n))
	}
	return out
}

type podState int

const (
	ready podState = iota
	pending
	failed
	terminating
)

var serial int

// pod is a daemon pod at hash on node in state, created age ago.
func pod(nodeName, hash string, st podState, age time.Duration) *corev1.Pod {
	serial++
	p := &corev1.Pod{
		ObjectMeta: meta.ObjectMeta{
			Name: fmt.Sprintf("agent-%s-%s-%d", nodeName, hash, serial), Namespace: "ns",
			Labels:            map[string]string{"app": "agent", history.HashLabel: hash},
			CreationTimestamp: meta.NewTime(now.Add(-age)),
		},
		Spec: corev1.PodSpec{NodeName: nodeName},
	}
	switch st {
	case pending:
		p.Status.Phase = corev1.PodPending
		return p
	case failed:
		p.Status.Phase = corev1.PodFailed
		return p
	case terminating:
		t := meta.NewTime(now)
		p.DeletionTimestamp = &t
	}
	p.Status.Phase = corev1.PodRunning
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: meta.NewTime(now.Add(-time.Hour))}}
	return p
}

func onNodes(hash string, st podState, names ...string) []*corev1.Pod {
	var out []*corev1.Pod
	for _, n := range names {
		out = append(out, pod(n, hash, st, time.Hour))
	}
	return out
}

func join(groups ...[]*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func noBackoff(string) (time.Duration, bool) { return 0, false }

// describe renders a plan as "create n1", "delete n2@old" (node@hash).
func describe(p plan) []string {
	var out []string
	for _, n := range p.create {
		out = append(out, "create "+n)
	}
	var dels []string
	for _, pod := range p.delete {
		dels = append(dels, "delete "+targetNode(pod)+"@"+pod.Labels[history.HashLabel])
	}
	sort.Strings(dels)
	return append(out, dels...)
}

func TestFit(t *testing.T) {
	tests := []struct {
		name string
		ds   *appsv1.DaemonSet
		node *corev1.Node
		want fit
	}{
		{"plain node", makeDS(), node("n"), fit{true, true}},
		{"selector matches", makeDS(nodeSelector("disk", "ssd")), node("n", label("disk", "ssd")), fit{true, true}},
		{"selector does not match", makeDS(nodeSelector("disk", "ssd")), node("n", label("disk", "hdd")), fit{}},
		{"untolerated NoSchedule keeps running pods", makeDS(), node("n", taint("dedicated", corev1.TaintEffectNoSchedule)), fit{false, true}},
		{"tolerated NoSchedule", makeDS(tolerate("dedicated")), node("n", taint("dedicated", corev1.TaintEffectNoSchedule)), fit{true, true}},
		{"untolerated NoExecute", makeDS(), node("n", taint("dedicated", corev1.TaintEffectNoExecute)), fit{}},
		{"PreferNoSchedule is ignored", makeDS(), node("n", taint("dedicated", corev1.TaintEffectPreferNoSchedule)), fit{true, true}},
		{"default: not ready", makeDS(), node("n", taint(corev1.TaintNodeNotReady, corev1.TaintEffectNoExecute)), fit{true, true}},
		{"default: unreachable", makeDS(), node("n", taint(corev1.TaintNodeUnreachable, corev1.TaintEffectNoExecute)), fit{true, true}},
		{"default: unschedulable", makeDS(), node("n", taint(corev1.TaintNodeUnschedulable, corev1.TaintEffectNoSchedule)), fit{true, true}},
		{"default: memory pressure", makeDS(), node("n", taint(corev1.TaintNodeMemoryPressure, corev1.TaintEffectNoSchedule)), fit{true, true}},
		{"network unavailable without hostNetwork", makeDS(), node("n", taint(corev1.TaintNodeNetworkUnavailable, corev1.TaintEffectNoSchedule)), fit{false, true}},
		{"network unavailable with hostNetwork", makeDS(hostNetwork), node("n", taint(corev1.TaintNodeNetworkUnavailable, corev1.TaintEffectNoSchedule)), fit{true, true}},
		{"template nodeName elsewhere", makeDS(func(ds *appsv1.DaemonSet) { ds.Spec.Template.Spec.NodeName = "m" }), node("n"), fit{}},
		{"required affinity", makeDS(func(ds *appsv1.DaemonSet) {
			ds.Spec.Template.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}},
			}}}
		}), node("n", label("zone", "b")), fit{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := newFitter(tc.ds).fit(tc.node); got != tc.want {
				t.Errorf("fit = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestPodPlacement(t *testing.T) {
	p := &corev1.Pod{Spec: corev1.PodSpec{HostNetwork: true, Tolerations: []corev1.Toleration{
		{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
	}}}
	withDefaultTolerations(p)
	withDefaultTolerations(p)
	var keys []string
	for _, tol := range p.Spec.Tolerations {
		keys = append(keys, tol.Key+":"+string(tol.Effect))
	}
	want := []string{
		corev1.TaintNodeNotReady + ":NoExecute", corev1.TaintNodeUnreachable + ":NoExecute", corev1.TaintNodeDiskPressure + ":NoSchedule",
		corev1.TaintNodeMemoryPressure + ":NoSchedule", corev1.TaintNodePIDPressure + ":NoSchedule", corev1.TaintNodeUnschedulable + ":NoSchedule",
		corev1.TaintNodeNetworkUnavailable + ":NoSchedule",
	}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("tolerations (-want +got):\n%s", diff)
	}
	if targetNode(p) != "" {
		t.Errorf("unplaced pod has target %q", targetNode(p))
	}
	withNodeAffinity(p, "n7")
	if targetNode(p) != "n7" {
		t.Errorf("target after affinity: %q", targetNode(p))
	}
	terms := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) != 1 || !terms[0].Matches(node("n7")) || terms[0].Matches(node("n8")) {
		t.Errorf("affinity terms %+v", terms)
	}
	p.Spec.NodeName = "n9"
	if targetNode(p) != "n9" {
		t.Errorf("bound pod target %q", targetNode(p))
	}
}

func TestCompute(t *testing.T) {
	older := pod("n1", "new", ready, 2*time.Hour)
	newer := pod("n1", "new", ready, time.Hour)
	tests := []struct {
		name      string
		ds        *appsv1.DaemonSet
		nodes     []*corev1.Node
		pods      []*corev1.Pod
		backoff   func(string) (time.Duration, bool)
		want      []string
		wantFail  []string
		wantAfter time.Duration
	}{
		{name: "one pod per node", ds: makeDS(), nodes: nodes("n1", "n2", "n3"), pods: onNodes("new", ready, "n2"), want: []string{"create n1", "create n3"}},
		{name: "only matching nodes", ds: makeDS(nodeSelector("disk", "ssd")), nodes: []*corev1.Node{node("n1", label("disk", "ssd")), node("n2")}, want: []string{"create n1"}},
		{name: "tainted node skipped", ds: makeDS(), nodes: []*corev1.Node{node("n1"), node("n2", taint("dedicated", corev1.TaintEffectNoSchedule))}, want: []string{"create n1"}},
		{name: "pod on a node it no longer fits", ds: makeDS(nodeSelector("disk", "ssd")), nodes: nodes("n1"), pods: onNodes("new", ready, "n1"), want: []string{"delete n1@new"}},
		{name: "NoSchedule taint does not evict", ds: makeDS(), nodes: []*corev1.Node{node("n1", taint("dedicated", corev1.TaintEffectNoSchedule))}, pods: onNodes("new", ready, "n1")},
		{name: "NoExecute taint evicts", ds: makeDS(), nodes: []*corev1.Node{node("n1", taint("dedicated", corev1.TaintEffectNoExecute))}, pods: onNodes("new", ready, "n1"), want: []string{"delete n1@new"}},
		{name: "terminating pod holds the node", ds: makeDS(), nodes: nodes("n1"), pods: onNodes("new", terminating, "n1")},
		{name: "failed pod deleted", ds: makeDS(), nodes: nodes("n1"), pods: onNodes("new", failed, "n1"), want: []string{"delete n1@new"}, wantFail: []string{"n1"}},
		{name: "failed pod waits out its backoff", ds: makeDS(), nodes: nodes("n1"), pods: onNodes("new", failed, "n1"),
			backoff: func(string) (time.Duration, bool) { return 4 * time.Second, true }, wantAfter: 4 * time.Second},
		{name: "duplicate: oldest stays", ds: makeDS(), nodes: nodes("n1"), pods: []*corev1.Pod{newer, older}, want: []string{"delete n1@new"}},
		{name: "unbound pod for a deleted node", ds: makeDS(), nodes: nodes("n1"), pods: join(onNodes("new", ready, "n1"), func() []*corev1.Pod {
			p := pod("", "new", pending, time.Hour)
			withNodeAffinity(p, "gone")
			return []*corev1.Pod{p}
		}()), want: []string{"delete gone@new"}},
		{name: "bound pod on a deleted node is left to pod GC", ds: makeDS(), nodes: nodes("n1"), pods: onNodes("new", ready, "n1", "gone")},
		{name: "rolling: one at a time by default", ds: makeDS(), nodes: nodes("n1", "n2", "n3"), pods: onNodes("old", ready, "n1", "n2", "n3"), want: []string{"delete n1@old"}},
		{name: "rolling: waits for the replacement", ds: makeDS(), nodes: nodes("n1", "n2", "n3"), pods: join(onNodes("new", pending, "n1"), onNodes("old", ready, "n2", "n3"))},
		{name: "rolling: next once available", ds: makeDS(), nodes: nodes("n1", "n2", "n3"), pods: join(onNodes("new", ready, "n1"), onNodes("old", ready, "n2", "n3")), want: []string{"delete n2@old"}},
		{name: "rolling: maxUnavailable 2", ds: makeDS(rolling("2", "")), nodes: nodes("n1", "n2", "n3"), pods: onNodes("old", ready, "n1", "n2", "n3"), want: []string{"delete n1@old", "delete n2@old"}},
		{name: "rolling: 50% of 3 rounds up to 2", ds: makeDS(rolling("50%", "")), nodes: nodes("n1", "n2", "n3"), pods: onNodes("old", ready, "n1", "n2", "n3"), want: []string{"delete n1@old", "delete n2@old"}},
		{name: "rolling: unavailable old pods go at once", ds: makeDS(), nodes: nodes("n1", "n2", "n3"), pods: join(onNodes("old", pending, "n1", "n2"), onNodes("old", ready, "n3")), want: []string{"delete n1@old", "delete n2@old", "delete n3@old"}},
		{name: "rolling: budget used by a missing pod", ds: makeDS(), nodes: nodes("n1", "n2"), pods: join(onNodes("new", pending, "n1"), onNodes("old", ready, "n2"))},
		{name: "on delete: old pods stay", ds: makeDS(onDelete), nodes: nodes("n1", "n2"), pods: onNodes("old", ready, "n1", "n2")},
		{name: "surge: new pods beside old", ds: makeDS(rolling("0", "1")), nodes: nodes("n1", "n2"), pods: onNodes("old", ready, "n1", "n2"), want: []string{"create n1"}},
		{name: "surge: old goes once new is available", ds: makeDS(rolling("0", "1")), nodes: nodes("n1", "n2"), pods: join(onNodes("old", ready, "n1", "n2"), onNodes("new", ready, "n1")), want: []string{"delete n1@old"}},
		{name: "surge: waits while new is not ready", ds: makeDS(rolling("0", "1")), nodes: nodes("n1", "n2"), pods: join(onNodes("old", ready, "n1", "n2"), onNodes("new", pending, "n1"))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.backoff
			if b == nil {
				b = noBackoff
			}
			p := compute(view{ds: tc.ds, nodes: tc.nodes, pods: tc.pods, hash: "new", now: now, inBackoff: b})
			if diff := cmp.Diff(tc.want, describe(p)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantFail, p.failed); diff != "" {
				t.Errorf("failed nodes (-want +got):\n%s", diff)
			}
			if p.requeue != tc.wantAfter {
				t.Errorf("requeue %v, want %v", p.requeue, tc.wantAfter)
			}
		})
	}
}

func TestComputeStatus(t *testing.T) {
	ds := makeDS(nodeSelector("role", "worker"))
	ds.Generation = 3
	worker := func(name string) *corev1.Node { return node(name, label("role", "worker")) }
	ns := []*corev1.Node{worker("n1"), worker("n2"), worker("n3"), worker("n4"), node("other")}
	pods := join(onNodes("new", ready, "n1"), onNodes("old", ready, "n2"), onNodes("new", pending, "n3"), onNodes("new", ready, "other"), onNodes("new", terminating, "n4"))
	cc := int32(0)
	st, _ := computeStatus(view{ds: ds, nodes: ns, pods: pods, hash: "new", now: now, inBackoff: noBackoff}, &cc)
	want := appsv1.DaemonSetStatus{
		DesiredNumberScheduled: 4, CurrentNumberScheduled: 3, NumberMisscheduled: 1, NumberReady: 2,
		UpdatedNumberScheduled: 2, NumberAvailable: 2, NumberUnavailable: 2, ObservedGeneration: 3, CollisionCount: &cc,
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	ds.Spec.MinReadySeconds = 30
	fresh := pod("n1", "new", ready, time.Minute)
	fresh.Status.Conditions[0].LastTransitionTime = meta.NewTime(now.Add(-10 * time.Second))
	st, after := computeStatus(view{ds: ds, nodes: ns[:1], pods: []*corev1.Pod{fresh}, hash: "new", now: now, inBackoff: noBackoff}, &cc)
	if st.NumberReady != 1 || st.NumberAvailable != 0 || after != 20*time.Second {
		t.Errorf("min ready: %+v, requeue %v", st, after)
	}
}

func TestBackoff(t *testing.T) {
	clock := now
	b := newBackoff(func() time.Time { return clock })
	if _, wait := b.wait("k"); wait {
		t.Fatal("a new key waits")
	}
	var got []time.Duration
	for i := 0; i < 12; i++ {
		b.next("k")
		d, _ := b.wait("k")
		got = append(got, d)
	}
	if got[0] != time.Second || got[1] != 2*time.Second || got[11] != failedPodBackoffMax {
		t.Errorf("delays %v", got)
	}
	clock = clock.Add(failedPodBackoffMax + time.Second)
	if _, wait := b.wait("k"); wait {
		t.Error("still waiting after the delay passed")
	}
	clock = clock.Add(2 * failedPodBackoffMax)
	b.next("k")
	if d, _ := b.wait("k"); d != time.Second {
		t.Errorf("after a quiet spell the delay is %v, want 1s", d)
	}
}

func TestOptions(t *testing.T) {
	o := NewOptions()
	if o.Workers != 2 || len(o.Validate()) != 0 {
		t.Errorf("defaults %+v", o)
	}
	o.Workers = -1
	if errs := o.Validate(); len(errs) != 1 {
		t.Errorf("negative workers: %v", errs)
	}
}
