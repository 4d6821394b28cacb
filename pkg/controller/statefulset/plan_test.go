package statefulset

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/history"
)

var now = time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)

type setOpt func(*appsv1.StatefulSet)

func parallel(s *appsv1.StatefulSet) { s.Spec.PodManagementPolicy = appsv1.ParallelPodManagement }
func onDelete(s *appsv1.StatefulSet) {
	s.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
}
func partition(n int32) setOpt {
	return func(s *appsv1.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = &n }
}
func minReady(n int32) setOpt { return func(s *appsv1.StatefulSet) { s.Spec.MinReadySeconds = n } }
func deleting(s *appsv1.StatefulSet) {
	t := meta.NewTime(now)
	s.DeletionTimestamp = &t
}

func makeSet(replicas int32, opts ...setOpt) *appsv1.StatefulSet {
	zero := int32(0)
	s := &appsv1.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "ns", UID: "set-uid"},
		Spec: appsv1.StatefulSetSpec{
			Replicas:            &replicas,
			PodManagementPolicy: appsv1.OrderedReadyPodManagement,
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{
				Type:          appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &zero},
			},
		},
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// state is a pod's condition in a fixture.
type state int

const (
	ready state = iota
	pending
	terminating
	failed
	justReady // ready for 5 seconds
)

// pod is set web's pod with ordinal at revision rev in state st.
func pod(ordinal int, rev string, st state) *corev1.Pod {
	name := fmt.Sprintf("web-%d", ordinal)
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{
		Name: name, Namespace: "ns", UID: meta.UID(name + "-uid"),
		Labels: map[string]string{PodNameLabel: name, history.HashLabel: rev},
	}}
	since := now.Add(-time.Hour)
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
	case justReady:
		since = now.Add(-5 * time.Second)
	}
	p.Status.Phase = corev1.PodRunning
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: meta.NewTime(since)}}
	return p
}

func pods(rev string, st state, ordinals ...int) []*corev1.Pod {
	var out []*corev1.Pod
	for _, o := range ordinals {
		out = append(out, pod(o, rev, st))
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

// want is a step as the tests spell it: "create 0 @new", "delete 4".
func describe(p plan) []string {
	var out []string
	for _, s := range p.steps {
		d := fmt.Sprintf("%s %d", s.op, s.ordinal)
		if s.op == opCreate {
			d += " @" + s.revision
		}
		out = append(out, d)
	}
	return out
}

func TestCompute(t *testing.T) {
	tests := []struct {
		name        string
		set         *appsv1.StatefulSet
		pods        []*corev1.Pod
		want        []string
		wantRequeue time.Duration
	}{
		{name: "ordered: first pod only", set: makeSet(3), want: []string{"create 0 @new"}},
		{name: "ordered: waits for a pending predecessor", set: makeSet(3), pods: pods("new", pending, 0)},
		{name: "ordered: next after a ready predecessor", set: makeSet(3), pods: pods("new", ready, 0), want: []string{"create 1 @new"}},
		{name: "ordered: fills a gap before going on", set: makeSet(3), pods: pods("new", ready, 0, 2), want: []string{"create 1 @new"}},
		{name: "ordered: waits for a terminating pod", set: makeSet(3), pods: join(pods("new", ready, 0), pods("new", terminating, 1))},
		{name: "parallel: all at once", set: makeSet(3, parallel), want: []string{"create 0 @new", "create 1 @new", "create 2 @new"}},
		{name: "parallel: does not wait for pending pods", set: makeSet(3, parallel), pods: pods("new", pending, 0), want: []string{"create 1 @new", "create 2 @new"}},
		{name: "ordered: scale down from the highest", set: makeSet(3), pods: pods("new", ready, 0, 1, 2, 3, 4), want: []string{"delete 4"}},
		{name: "ordered: scale down waits for termination", set: makeSet(3), pods: join(pods("new", ready, 0, 1, 2, 3), pods("new", terminating, 4))},
		{name: "ordered: scale down waits for an unhealthy lower pod", set: makeSet(3), pods: join(pods("new", ready, 0, 1, 2, 4), pods("new", pending, 3))},
		{name: "ordered: an unhealthy highest pod may go", set: makeSet(3), pods: join(pods("new", ready, 0, 1, 2, 3), pods("new", pending, 4)), want: []string{"delete 4"}},
		{name: "ordered: no scale down while a replica is unhealthy", set: makeSet(3), pods: join(pods("new", ready, 0, 2, 3), pods("new", pending, 1))},
		{name: "parallel: scale down at once", set: makeSet(3, parallel), pods: join(pods("new", ready, 0, 1, 2, 4), pods("new", pending, 3)), want: []string{"delete 4", "delete 3"}},
		{name: "rolling: highest ordinal first", set: makeSet(3), pods: pods("old", ready, 0, 1, 2), want: []string{"delete 2"}},
		{name: "rolling: next once the updated one is ready", set: makeSet(3), pods: join(pods("old", ready, 0, 1), pods("new", ready, 2)), want: []string{"delete 1"}},
		{name: "rolling: waits for the replacement", set: makeSet(3), pods: join(pods("old", ready, 0, 1), pods("new", pending, 2))},
		{name: "rolling: recreates the deleted one at update", set: makeSet(3), pods: join(pods("old", ready, 0), pods("new", ready, 2)), want: []string{"create 1 @new"}},
		{name: "rolling: partition stops the update", set: makeSet(3, partition(2)), pods: join(pods("old", ready, 0, 1), pods("new", ready, 2))},
		{name: "rolling: below the partition pods are made at current", set: makeSet(3, partition(2)), pods: pods("new", ready, 2), want: []string{"create 0 @old"}},
		{name: "rolling: partition above replicas updates nothing", set: makeSet(3, partition(5)), pods: pods("old", ready, 0, 1, 2)},
		{name: "on delete: old pods stay", set: makeSet(3, onDelete), pods: pods("old", ready, 0, 1, 2)},
		{name: "on delete: deleted pods come back at update", set: makeSet(3, onDelete), pods: pods("old", ready, 0, 2), want: []string{"create 1 @new"}},
		{name: "failed pod is recreated", set: makeSet(3), pods: join(pods("new", ready, 0), pods("new", failed, 1)), want: []string{"recreate 1"}},
		{name: "min ready seconds hold the next pod", set: makeSet(3, minReady(10)), pods: pods("new", justReady, 0), wantRequeue: 5 * time.Second},
		{name: "min ready seconds hold the rollout", set: makeSet(2, minReady(10)), pods: join(pods("old", ready, 0), pods("new", justReady, 1)), wantRequeue: 5 * time.Second},
		{name: "set being deleted", set: makeSet(3, deleting)},
		{name: "scale to zero", set: makeSet(0), pods: pods("new", ready, 0, 1), want: []string{"delete 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := compute(view{set: tc.set, pods: tc.pods, current: "old", updated: "new", now: now})
			if diff := cmp.Diff(tc.want, describe(p)); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
			if p.requeue != tc.wantRequeue {
				t.Errorf("requeue %v, want %v", p.requeue, tc.wantRequeue)
			}
		})
	}
}

func TestOrdinalOf(t *testing.T) {
	set := makeSet(1)
	tests := []struct {
		name string
		want int
		ok   bool
	}{
		{"web-0", 0, true}, {"web-12", 12, true}, {"web-", 0, false}, {"web-01", 0, false},
		{"web-x", 0, false}, {"webapp-1", 0, false}, {"web-1-2", 0, false}, {"web--1", 0, false},
	}
	for _, tc := range tests {
		got, ok := ordinalOf(set, &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: tc.name}})
		if got != tc.want || ok != tc.ok {
			t.Errorf("ordinalOf(%q) = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNewPod(t *testing.T) {
	set := makeSet(3)
	set.Spec.ServiceName = "nginx"
	tmpl := &corev1.PodTemplateSpec{
		ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
	}
	p, err := newPod(set, tmpl, "web-abc", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"app": "web", PodNameLabel: "web-2", history.HashLabel: "web-abc"}
	if diff := cmp.Diff(want, p.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	ref := p.OwnerReferences[0]
	if p.Name != "web-2" || p.GenerateName != "" || p.Spec.Hostname != "web-2" || p.Spec.Subdomain != "nginx" ||
		ref.Kind != "StatefulSet" || ref.APIVersion != "apps/v1" || ref.UID != "set-uid" || !*ref.Controller || !*ref.BlockOwnerDeletion {
		t.Errorf("pod %+v", p.ObjectMeta)
	}
	if len(tmpl.Labels) != 1 {
		t.Errorf("template changed: %v", tmpl.Labels)
	}
}

func TestComputeStatus(t *testing.T) {
	rs := &revisions{current: &appsv1.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: "old"}}, update: &appsv1.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: "new"}}}
	set := makeSet(3)
	set.Generation = 4
	st := computeStatus(set, join(pods("old", ready, 0), pods("old", pending, 1), pods("new", ready, 2), pods("new", terminating, 3)), rs, 1, now)
	if st.Replicas != 4 || st.ReadyReplicas != 2 || st.AvailableReplicas != 2 || st.CurrentReplicas != 2 || st.UpdatedReplicas != 1 ||
		st.CurrentRevision != "old" || st.UpdateRevision != "new" || st.ObservedGeneration != 4 || *st.CollisionCount != 1 {
		t.Errorf("mid-rollout status %+v", st)
	}
	done := computeStatus(set, pods("new", ready, 0, 1, 2), rs, 0, now)
	if done.CurrentRevision != "new" || done.CurrentReplicas != 3 || done.UpdatedReplicas != 3 {
		t.Errorf("completed rollout status %+v", done)
	}
	od := computeStatus(makeSet(3, onDelete), pods("new", ready, 0, 1, 2), rs, 0, now)
	if od.CurrentRevision != "old" {
		t.Errorf("OnDelete moved the current revision: %+v", od)
	}
}

func TestOptions(t *testing.T) {
	o := NewOptions()
	if o.Workers != 5 || len(o.Validate()) != 0 {
		t.Errorf("defaults %+v: %v", o, o.Validate())
	}
	o.Workers = 0
	if errs := o.Validate(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "--concurrent-statefulset-syncs") {
		t.Errorf("zero workers: %v", errs)
	}
}
