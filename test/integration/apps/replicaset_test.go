package apps

import (
	"fmt"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/rest"

	"platform.io/platform/pkg/controller/replicaset"
)

// TestReplicaSetScaleDeletesLeastValuable: a ReplicaSet creates its pods
// with a controller reference, counts ready pods, and when scaled down
// deletes the not-ready pod first, then the one ready for less time.
func TestReplicaSetScaleDeletesLeastValuable(t *testing.T) {
	e := start(t, nil, replicaset.Descriptor())
	rs, err := e.set.ReplicaSets.Namespace(e.ns).Create(e.ctx, replicaSet("web", 3), meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sel := "app=web"
	e.eventually(t, 20*time.Second, func() string {
		pods := e.activePods(t, sel)
		if len(pods) != 3 {
			return fmt.Sprintf("%d pods, want 3", len(pods))
		}
		for _, p := range pods {
			if !controlledBy(&p.ObjectMeta, rs.UID) {
				return fmt.Sprintf("pod %s owners %+v", p.Name, p.OwnerReferences)
			}
		}
		return ""
	})
	pods := e.activePods(t, sel)
	now := time.Now()
	e.markReady(t, &pods[0], now.Add(-time.Hour))
	e.markReady(t, &pods[1], now.Add(-time.Minute))
	keep, second := pods[0].Name, pods[1].Name
	e.eventually(t, 20*time.Second, func() string {
		got, err := e.set.ReplicaSets.Namespace(e.ns).Get(e.ctx, "web", meta.GetOptions{})
		if err != nil {
			return err.Error()
		}
		st := got.Status
		if st.Replicas != 3 || st.ReadyReplicas != 2 || st.AvailableReplicas != 2 || st.FullyLabeledReplicas != 3 || st.ObservedGeneration != got.Generation {
			return fmt.Sprintf("status %+v", st)
		}
		return ""
	})
	if ev := e.events(t, "web", "SuccessfulCreate"); len(ev) == 0 {
		t.Errorf("no SuccessfulCreate event")
	}
	scale(t, e, "web", 2)
	e.eventually(t, 20*time.Second, func() string {
		if got := e.activePods(t, sel); len(got) != 2 || !has(got, keep) || !has(got, second) {
			return "after scaling to 2: " + describe(got)
		}
		return ""
	})
	scale(t, e, "web", 1)
	e.eventually(t, 20*time.Second, func() string {
		if got := e.activePods(t, sel); len(got) != 1 || got[0].Name != keep {
			return "after scaling to 1: " + describe(got) + ", want " + keep
		}
		return ""
	})
	// Events are written in the background: wait for both, then check that
	// no third one follows.
	e.eventually(t, 20*time.Second, func() string {
		if ev := e.events(t, "web", "SuccessfulDelete"); len(ev) < 2 {
			return fmt.Sprintf("SuccessfulDelete events %q, want 2", ev)
		}
		return ""
	})
	if ev := e.events(t, "web", "SuccessfulDelete"); len(ev) != 2 {
		t.Errorf("SuccessfulDelete events %q, want 2", ev)
	}
}

// TestReplicaSetAdoptAndRelease: an orphan pod the selector matches is
// adopted instead of a new pod being created; a pod relabelled out of the
// selector is released and replaced.
func TestReplicaSetAdoptAndRelease(t *testing.T) {
	e := start(t, nil, replicaset.Descriptor())
	orphan := &corev1.Pod{Spec: podTemplate(nil, "nginx:1").Spec}
	orphan.Name = "orphan"
	orphan.Labels = map[string]string{"app": "api"}
	if _, err := e.set.Pods.Namespace(e.ns).Create(e.ctx, orphan, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	rs, err := e.set.ReplicaSets.Namespace(e.ns).Create(e.ctx, replicaSet("api", 2), meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e.eventually(t, 20*time.Second, func() string {
		pods := e.activePods(t, "app=api")
		if len(pods) != 2 || !has(pods, "orphan") {
			return "pods " + describe(pods)
		}
		for _, p := range pods {
			if !controlledBy(&p.ObjectMeta, rs.UID) {
				return fmt.Sprintf("pod %s not owned: %+v", p.Name, p.OwnerReferences)
			}
		}
		return ""
	})
	patch := []byte(`{"metadata":{"labels":{"app":"elsewhere"}}}`)
	if _, err := e.set.Pods.Namespace(e.ns).Patch(e.ctx, "orphan", rest.MergePatchType, patch, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.eventually(t, 20*time.Second, func() string {
		p, err := e.set.Pods.Namespace(e.ns).Get(e.ctx, "orphan", meta.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if len(p.OwnerReferences) != 0 {
			return fmt.Sprintf("released pod still has owners %+v", p.OwnerReferences)
		}
		if pods := e.activePods(t, "app=api"); len(pods) != 2 || has(pods, "orphan") {
			return "pods after the release " + describe(pods)
		}
		return ""
	})
}

// TestReplicaSetReplacesDeletedPods: pods deleted by someone else are
// replaced, and the status follows.
func TestReplicaSetReplacesDeletedPods(t *testing.T) {
	e := start(t, nil, replicaset.Descriptor())
	if _, err := e.set.ReplicaSets.Namespace(e.ns).Create(e.ctx, replicaSet("db", 4), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.eventually(t, 20*time.Second, func() string {
		if n := len(e.activePods(t, "app=db")); n != 4 {
			return fmt.Sprintf("%d pods", n)
		}
		return ""
	})
	if err := e.set.Pods.Namespace(e.ns).DeleteCollection(e.ctx, nil, meta.ListOptions{LabelSelector: "app=db"}); err != nil {
		t.Fatal(err)
	}
	e.eventually(t, 20*time.Second, func() string {
		rs, err := e.set.ReplicaSets.Namespace(e.ns).Get(e.ctx, "db", meta.GetOptions{})
		if err != nil {
			return err.Error()
		}
		if n := len(e.activePods(t, "app=db")); n != 4 || rs.Status.Replicas != 4 {
			return fmt.Sprintf("%d pods, status %+v", n, rs.Status)
		}
		return ""
	})
}

// scale sets the replicas of the ReplicaSet name through the scale
// subresource.
func scale(t *testing.T, e *env, name string, n int32) {
	t.Helper()
	retryConflict(t, func() error {
		sc, err := e.set.ReplicaSets.Namespace(e.ns).GetScale(e.ctx, name, meta.GetOptions{})
		if err != nil {
			return err
		}
		sc.Spec.Replicas = n
		_, err = e.set.ReplicaSets.Namespace(e.ns).UpdateScale(e.ctx, name, sc, meta.WriteOptions{})
		return err
	})
}

func has(pods []corev1.Pod, name string) bool {
	for _, p := range pods {
		if p.Name == name {
			return true
		}
	}
	return false
}
