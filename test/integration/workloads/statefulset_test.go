package workloads_test

import (
	"fmt"
	"testing"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/watch"

	"platform.io/platform/pkg/controller/statefulset"
)

func newSet(name string, replicas int32, policy appsv1.PodManagementPolicyType) *appsv1.StatefulSet {
	l := map[string]string{"app": name}
	return &appsv1.StatefulSet{
		ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.StatefulSetSpec{
			Replicas:            &replicas,
			Selector:            &meta.LabelSelector{MatchLabels: l},
			ServiceName:         name,
			PodManagementPolicy: policy,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: l},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:1"}}},
			},
		},
	}
}

func (e *env) createSet(s *appsv1.StatefulSet) *appsv1.StatefulSet {
	e.t.Helper()
	out, err := e.clients.StatefulSets.Namespace(ns).Create(e.ctx, s, meta.WriteOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// updateSet applies change to the set, retrying on conflicts.
func (e *env) updateSet(name string, change func(*appsv1.StatefulSet)) {
	e.t.Helper()
	for {
		s, err := e.clients.StatefulSets.Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		change(s)
		_, err = e.clients.StatefulSets.Namespace(ns).Update(e.ctx, s, meta.WriteOptions{})
		if err == nil {
			return
		}
		if !apierrors.IsConflict(err) {
			e.t.Fatal(err)
		}
	}
}

// setStatus waits until the set's status satisfies ok and returns it.
func (e *env) setStatus(name, what string, ok func(s *appsv1.StatefulSet) bool) *appsv1.StatefulSet {
	e.t.Helper()
	var got *appsv1.StatefulSet
	e.waitFor(what, func() (bool, error) {
		s, err := e.clients.StatefulSets.Namespace(ns).Get(e.ctx, name, meta.GetOptions{})
		if err != nil {
			return false, err
		}
		got = s
		return s.Status.ObservedGeneration == s.Generation && ok(s), fmt.Errorf("status %+v", s.Status)
	})
	return got
}

func terminating(e *env, name string) func() (bool, error) {
	return func() (bool, error) {
		p, err := e.pod(name)
		return err == nil && p.DeletionTimestamp != nil, err
	}
}

// TestStatefulSetOrderedReady: pods are created one by one in ordinal
// order, each after its predecessor is Running and Ready, with their
// identity; scale down removes the highest ordinal first and waits for it
// to be gone before the next.
func TestStatefulSetOrderedReady(t *testing.T) {
	e := start(t)
	e.createNode(&corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "n1"}})
	e.createSet(newSet("web", 3, appsv1.OrderedReadyPodManagement))
	for i := 0; i < 3; i++ {
		name := fmt.Sprintf("web-%d", i)
		e.waitFor(name+" created", func() (bool, error) { _, err := e.pod(name); return err == nil, err })
		e.setStatus("web", fmt.Sprintf("status counting %d pods", i+1), func(s *appsv1.StatefulSet) bool { return s.Status.Replicas == int32(i+1) })
		e.mustNotExist(fmt.Sprintf("web-%d", i+1))
		p, err := e.pod(name)
		if err != nil {
			t.Fatal(err)
		}
		ref := p.OwnerReferences
		if p.Labels[statefulset.PodNameLabel] != name || p.Labels["controller-revision-hash"] == "" || p.Spec.Hostname != name ||
			p.Spec.Subdomain != "web" || len(ref) != 1 || ref[0].Kind != "StatefulSet" || !*ref[0].Controller || !*ref[0].BlockOwnerDeletion {
			t.Fatalf("pod %s identity: labels %v hostname %q subdomain %q owners %+v", name, p.Labels, p.Spec.Hostname, p.Spec.Subdomain, ref)
		}
		e.bind(name, "n1")
		e.markReady(name)
	}
	s := e.setStatus("web", "three ready", func(s *appsv1.StatefulSet) bool {
		return s.Status.ReadyReplicas == 3 && s.Status.AvailableReplicas == 3 && s.Status.CurrentReplicas == 3 && s.Status.UpdatedReplicas == 3
	})
	if s.Status.CurrentRevision == "" || s.Status.CurrentRevision != s.Status.UpdateRevision {
		t.Fatalf("revisions after creation: %+v", s.Status)
	}

	e.updateSet("web", func(s *appsv1.StatefulSet) { one := int32(1); s.Spec.Replicas = &one })
	e.waitFor("web-2 terminating", terminating(e, "web-2"))
	// Updated pods exclude terminating ones: 2 means the loop has seen web-2 go.
	e.setStatus("web", "web-2 seen terminating", func(s *appsv1.StatefulSet) bool { return s.Status.UpdatedReplicas == 2 })
	if p, err := e.pod("web-1"); err != nil || p.DeletionTimestamp != nil {
		t.Fatalf("web-1 deleted while web-2 is still terminating (%v)", err)
	}
	e.confirmDelete("web-2")
	e.waitFor("web-1 terminating", terminating(e, "web-1"))
	e.confirmDelete("web-1")
	e.setStatus("web", "one replica", func(s *appsv1.StatefulSet) bool { return s.Status.Replicas == 1 && s.Status.ReadyReplicas == 1 })
	if p, err := e.pod("web-0"); err != nil || p.DeletionTimestamp != nil {
		t.Fatalf("web-0 after scale down: %v", err)
	}
}

// TestStatefulSetParallel: Parallel creates every pod without waiting for
// readiness and deletes them all at once.
func TestStatefulSetParallel(t *testing.T) {
	e := start(t)
	e.createNode(&corev1.Node{ObjectMeta: meta.ObjectMeta{Name: "n1"}})
	e.createSet(newSet("par", 3, appsv1.ParallelPodManagement))
	e.waitFor("three pods, none ready", func() (bool, error) { return len(e.listPods("app=par")) == 3, nil })
	for i := 0; i < 3; i++ {
		e.bind(fmt.Sprintf("par-%d", i), "n1")
	}
	e.updateSet("par", func(s *appsv1.StatefulSet) { zero := int32(0); s.Spec.Replicas = &zero })
	for i := 0; i < 3; i++ {
		e.waitFor(fmt.Sprintf("par-%d terminating", i), terminating(e, fmt.Sprintf("par-%d", i)))
	}
}

// TestStatefulSetRollingUpdate: a new template replaces pods from the
// highest ordinal down to the partition, one at a time; lowering the
// partition finishes the rollout and makes the update revision current.
func TestStatefulSetRollingUpdate(t *testing.T) {
	e := start(t)
	e.simulate(e.ctx)
	e.createSet(newSet("db", 3, appsv1.OrderedReadyPodManagement))
	first := e.setStatus("db", "three ready", func(s *appsv1.StatefulSet) bool { return s.Status.ReadyReplicas == 3 })
	rev1 := first.Status.CurrentRevision

	l, err := e.clients.Pods.Namespace(ns).List(e.ctx, meta.ListOptions{LabelSelector: "app=db"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := e.clients.Pods.Namespace(ns).Watch(e.ctx, meta.ListOptions{LabelSelector: "app=db", ResourceVersion: l.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	e.updateSet("db", func(s *appsv1.StatefulSet) {
		one := int32(1)
		s.Spec.Template.Spec.Containers[0].Image = "app:2"
		s.Spec.UpdateStrategy.RollingUpdate.Partition = &one
	})
	s := e.setStatus("db", "two updated", func(s *appsv1.StatefulSet) bool {
		return s.Status.UpdatedReplicas == 2 && s.Status.ReadyReplicas == 3 && s.Status.CurrentReplicas == 1
	})
	rev2 := s.Status.UpdateRevision
	if rev2 == rev1 || s.Status.CurrentRevision != rev1 {
		t.Fatalf("revisions mid-rollout: %+v (first %s)", s.Status, rev1)
	}
	var created []string
	for len(created) < 2 {
		ev := <-w.ResultChan()
		if ev.Type == watch.Added {
			created = append(created, ev.Object.Name)
		}
	}
	if created[0] != "db-2" || created[1] != "db-1" {
		t.Errorf("pods recreated in order %v, want db-2 then db-1", created)
	}
	for name, want := range map[string]string{"db-0": rev1, "db-1": rev2, "db-2": rev2} {
		p, err := e.pod(name)
		if err != nil || p.Labels["controller-revision-hash"] != want {
			t.Errorf("%s at revision %v (%v), want %s", name, p.Labels, err, want)
		}
	}

	e.updateSet("db", func(s *appsv1.StatefulSet) { zero := int32(0); s.Spec.UpdateStrategy.RollingUpdate.Partition = &zero })
	s = e.setStatus("db", "rollout complete", func(s *appsv1.StatefulSet) bool {
		return s.Status.CurrentRevision == rev2 && s.Status.CurrentReplicas == 3 && s.Status.ReadyReplicas == 3
	})
	revs, err := e.clients.ControllerRevisions.Namespace(ns).List(e.ctx, meta.ListOptions{LabelSelector: "app=db"})
	if err != nil || len(revs.Items) != 2 {
		t.Fatalf("revisions: %v, %d", err, len(revs.Items))
	}
	for _, r := range revs.Items {
		if r.OwnerReferences[0].UID != s.UID || (r.Name == rev2) != (r.Revision == 2) {
			t.Errorf("revision %s number %d owners %+v", r.Name, r.Revision, r.OwnerReferences)
		}
	}

	// A rollback to the first template reuses its revision, renumbered.
	e.updateSet("db", func(s *appsv1.StatefulSet) { s.Spec.Template.Spec.Containers[0].Image = "app:1" })
	defer func() {
		if t.Failed() {
			all, _ := e.clients.ControllerRevisions.Namespace(ns).List(e.ctx, meta.ListOptions{})
			for _, r := range all.Items {
				t.Logf("revision %s number %d data %s", r.Name, r.Revision, r.Data.Raw)
			}
		}
	}()
	e.setStatus("db", "rolled back", func(s *appsv1.StatefulSet) bool {
		return s.Status.CurrentRevision == rev1 && s.Status.UpdateRevision == rev1 && s.Status.ReadyReplicas == 3
	})
	back, err := e.clients.ControllerRevisions.Namespace(ns).Get(e.ctx, rev1, meta.GetOptions{})
	if err != nil || back.Revision != 3 {
		t.Fatalf("rolled-back revision: %v, number %d", err, back.Revision)
	}
	// A history limit of 0 keeps only the revisions in use.
	e.updateSet("db", func(s *appsv1.StatefulSet) { zero := int32(0); s.Spec.RevisionHistoryLimit = &zero })
	e.waitFor("old revision deleted", func() (bool, error) {
		_, err := e.clients.ControllerRevisions.Namespace(ns).Get(e.ctx, rev2, meta.GetOptions{})
		return apierrors.IsNotFound(err), err
	})
}

// TestStatefulSetOnDelete: a new template is applied only to pods the user
// deletes.
func TestStatefulSetOnDelete(t *testing.T) {
	e := start(t)
	e.simulate(e.ctx)
	set := newSet("od", 2, appsv1.OrderedReadyPodManagement)
	set.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
	e.createSet(set)
	first := e.setStatus("od", "two ready", func(s *appsv1.StatefulSet) bool { return s.Status.ReadyReplicas == 2 })
	e.updateSet("od", func(s *appsv1.StatefulSet) { s.Spec.Template.Spec.Containers[0].Image = "app:2" })
	s := e.setStatus("od", "update revision", func(s *appsv1.StatefulSet) bool { return s.Status.UpdateRevision != first.Status.CurrentRevision })
	if s.Status.UpdatedReplicas != 0 || s.Status.CurrentReplicas != 2 {
		t.Fatalf("OnDelete touched pods: %+v", s.Status)
	}
	old, err := e.pod("od-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.clients.Pods.Namespace(ns).Delete(e.ctx, "od-1", nil); err != nil {
		t.Fatal(err)
	}
	e.waitFor("od-1 recreated at the update revision", func() (bool, error) {
		p, err := e.pod("od-1")
		return err == nil && p.UID != old.UID && p.Labels["controller-revision-hash"] == s.Status.UpdateRevision && isReady(p), err
	})
	p, err := e.pod("od-0")
	if err != nil || p.Labels["controller-revision-hash"] != first.Status.CurrentRevision {
		t.Errorf("od-0 changed: %v %v", p.Labels, err)
	}
}
