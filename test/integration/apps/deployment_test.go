package apps

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
)

// TestDeploymentRollingUpdate: a Deployment gets a ReplicaSet named after
// its template hash and its pods; a template change rolls out without
// ever running more than replicas+maxSurge pods or fewer than
// replicas-maxUnavailable ready ones.
func TestDeploymentRollingUpdate(t *testing.T) {
	e := startDeployments(t)
	const n, surge, unavailable = 4, 1, 1
	d := newDeployment("web", n, "nginx:1", intstr.FromInt(surge), intstr.FromInt(unavailable))
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rollOut(t, "web", nil)
	rss := e.replicaSets(t, "app=web")
	if len(rss) != 1 {
		t.Fatalf("%d replicasets", len(rss))
	}
	first := rss[0]
	hash := first.Labels["pod-template-hash"]
	if hash == "" || first.Name != "web-"+hash || first.Spec.Selector.MatchLabels["pod-template-hash"] != hash || first.Annotations["deployment.platform.io/revision"] != "1" {
		t.Errorf("replicaset %s labels %v annotations %v", first.Name, first.Labels, first.Annotations)
	}
	e.waitCondition(t, "web", appsv1.DeploymentProgressing, corev1.ConditionTrue, "NewReplicaSetAvailable")
	e.waitCondition(t, "web", appsv1.DeploymentAvailable, corev1.ConditionTrue, "MinimumReplicasAvailable")

	e.setImage(t, "web", "nginx:2")
	// The surge bounds the ReplicaSets' wanted replicas, as upstream's
	// controller does: a scaled-down ReplicaSet's pods may outlive its
	// scale-down by a moment, before its controller deletes them.
	e.rollOut(t, "web", func() string {
		pods := e.pods(t, "app=web")
		ready := 0
		for _, p := range pods {
			if p.DeletionTimestamp == nil && isReady(&p) {
				ready++
			}
		}
		var wanted int32
		for _, rs := range e.replicaSets(t, "app=web") {
			wanted += *rs.Spec.Replicas
		}
		if wanted > n+surge || ready < n-unavailable {
			return fmt.Sprintf("replicasets want %d pods, %d ready: %s", wanted, ready, describe(pods))
		}
		return ""
	})
	got := e.getDeployment(t, "web")
	if got.Annotations["deployment.platform.io/revision"] != "2" {
		t.Errorf("revision %q, want 2", got.Annotations["deployment.platform.io/revision"])
	}
	for _, p := range e.activePods(t, "app=web") {
		if p.Spec.Containers[0].Image != "nginx:2" {
			t.Errorf("pod %s runs %s after the rollout", p.Name, p.Spec.Containers[0].Image)
		}
	}
	ev := e.events(t, "web", "ScalingReplicaSet")
	want := fmt.Sprintf("Scaled up replica set %s to %d", first.Name, n)
	if !slices.Contains(ev, want) || !slices.ContainsFunc(ev, func(m string) bool { return strings.HasPrefix(m, "Scaled down replica set "+first.Name) }) {
		t.Errorf("ScalingReplicaSet events %q, want %q and a scale down", ev, want)
	}
}

// TestDeploymentRecreate: old pods are all gone before any new pod is
// created.
func TestDeploymentRecreate(t *testing.T) {
	e := startDeployments(t)
	d := newDeployment("batch", 3, "app:1", intstr.FromInt(0), intstr.FromInt(1))
	d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rollOut(t, "batch", nil)
	e.setImage(t, "batch", "app:2")
	e.rollOut(t, "batch", func() string {
		images := map[string]int{}
		for _, p := range e.pods(t, "app=batch") {
			images[p.Spec.Containers[0].Image]++
		}
		if images["app:1"] > 0 && images["app:2"] > 0 {
			return fmt.Sprintf("old and new pods together: %v", images)
		}
		return ""
	})
}

// TestDeploymentPauseResume: a paused Deployment reports
// DeploymentPaused and does not roll a template change out until resumed.
func TestDeploymentPauseResume(t *testing.T) {
	e := startDeployments(t)
	d := newDeployment("paused", 2, "img:1", intstr.FromString("25%"), intstr.FromString("25%"))
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rollOut(t, "paused", nil)
	e.patchDeployment(t, "paused", `{"spec":{"paused":true}}`)
	e.waitCondition(t, "paused", appsv1.DeploymentProgressing, corev1.ConditionUnknown, "DeploymentPaused")
	e.setImage(t, "paused", "img:2")
	e.waitObserved(t, "paused")
	if rss := e.replicaSets(t, "app=paused"); len(rss) != 1 {
		t.Fatalf("a paused deployment has %d replicasets", len(rss))
	}
	e.patchDeployment(t, "paused", `{"spec":{"paused":false}}`)
	e.rollOut(t, "paused", nil)
	if rss := e.replicaSets(t, "app=paused"); len(rss) != 2 {
		t.Errorf("after resuming: %d replicasets, want 2", len(rss))
	}
	e.waitCondition(t, "paused", appsv1.DeploymentProgressing, corev1.ConditionTrue, "NewReplicaSetAvailable")
}

// TestDeploymentRollback: the rollback annotation puts the previous
// revision's template back, which rolls out as revision 3 on the old
// ReplicaSet; a client-side undo (a template patch) works the same way.
func TestDeploymentRollback(t *testing.T) {
	e := startDeployments(t)
	d := newDeployment("rb", 2, "img:1", intstr.FromInt(1), intstr.FromInt(0))
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rollOut(t, "rb", nil)
	e.setImage(t, "rb", "img:2")
	e.rollOut(t, "rb", nil)
	e.patchDeployment(t, "rb", `{"metadata":{"annotations":{"deprecated.deployment.rollback.to":"0"}}}`)
	e.eventually(t, 20*time.Second, func() string {
		got := e.getDeployment(t, "rb")
		if _, ok := got.Annotations["deprecated.deployment.rollback.to"]; ok || got.Spec.Template.Spec.Containers[0].Image != "img:1" {
			return fmt.Sprintf("annotations %v image %s", got.Annotations, got.Spec.Template.Spec.Containers[0].Image)
		}
		if _, ok := got.Spec.Template.Labels["pod-template-hash"]; ok {
			return "the template carries the hash label"
		}
		return ""
	})
	e.rollOut(t, "rb", nil)
	if rss := e.replicaSets(t, "app=rb"); len(rss) != 2 {
		t.Errorf("%d replicasets after the rollback, want the two revisions", len(rss))
	}
	if got := e.getDeployment(t, "rb"); got.Annotations["deployment.platform.io/revision"] != "3" {
		t.Errorf("revision after rollback %q, want 3", got.Annotations["deployment.platform.io/revision"])
	}
	if ev := e.events(t, "rb", "DeploymentRollback"); !slices.Contains(ev, `Rolled back deployment "rb" to revision 1`) {
		t.Errorf("rollback events %q", ev)
	}
	e.patchDeployment(t, "rb", `{"metadata":{"annotations":{"deprecated.deployment.rollback.to":"99"}}}`)
	e.eventually(t, 20*time.Second, func() string {
		if ev := e.events(t, "rb", "RollbackRevisionNotFound"); len(ev) == 0 {
			return "no RollbackRevisionNotFound event"
		}
		return ""
	})
	// kubectl rollout undo patches the template client-side.
	e.setImage(t, "rb", "img:2")
	e.rollOut(t, "rb", nil)
	if got := e.getDeployment(t, "rb"); got.Annotations["deployment.platform.io/revision"] != "4" || len(e.replicaSets(t, "app=rb")) != 2 {
		t.Errorf("after the undo: revision %q", got.Annotations["deployment.platform.io/revision"])
	}
}

// TestDeploymentScaleDuringRollout: scaling a Deployment whose rollout is
// stuck spreads the new pods over the old and new ReplicaSets in
// proportion.
func TestDeploymentScaleDuringRollout(t *testing.T) {
	e := startDeployments(t)
	d := newDeployment("prop", 10, "img:1", intstr.FromInt(3), intstr.FromInt(2))
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rollOut(t, "prop", nil)
	e.setImage(t, "prop", "img:2")
	// New pods never become ready: the rollout stops at 8 old + 5 new.
	e.eventually(t, 20*time.Second, func() string {
		if got := sizesByImage(e.replicaSets(t, "app=prop")); got["img:1"] != 8 || got["img:2"] != 5 {
			return fmt.Sprintf("replicasets %v, want 8 old and 5 new", got)
		}
		return ""
	})
	e.patchDeployment(t, "prop", `{"spec":{"replicas":20}}`)
	e.eventually(t, 20*time.Second, func() string {
		rss := e.replicaSets(t, "app=prop")
		total := int32(0)
		for _, rs := range rss {
			total += *rs.Spec.Replicas
			if rs.Annotations["deployment.platform.io/desired-replicas"] != "20" || rs.Annotations["deployment.platform.io/max-replicas"] != "23" {
				return fmt.Sprintf("annotations of %s: %v", rs.Name, rs.Annotations)
			}
		}
		// 8 and 5 of 13 become round(8*23/13)=14 and round(5*23/13)=9.
		if got := sizesByImage(rss); total != 23 || got["img:1"] != 14 || got["img:2"] != 9 {
			return fmt.Sprintf("replicasets %v, want 14 old and 9 new", got)
		}
		return ""
	})
	e.rollOut(t, "prop", nil)
}

// TestDeploymentProgressDeadline: a rollout whose pods never become ready
// is reported as ProgressDeadlineExceeded after the deadline.
func TestDeploymentProgressDeadline(t *testing.T) {
	e := startDeployments(t)
	d := newDeployment("stuck", 2, "img:1", intstr.FromString("25%"), intstr.FromString("25%"))
	d.Spec.ProgressDeadlineSeconds = ptr(int32(2))
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.waitCondition(t, "stuck", appsv1.DeploymentProgressing, corev1.ConditionFalse, "ProgressDeadlineExceeded")
	e.waitCondition(t, "stuck", appsv1.DeploymentAvailable, corev1.ConditionFalse, "MinimumReplicasUnavailable")
	got := e.getDeployment(t, "stuck")
	if got.Status.UnavailableReplicas != 2 {
		t.Errorf("unavailableReplicas %d, want 2", got.Status.UnavailableReplicas)
	}
	// Timestamps are kept to the second: the deadline of 2s may look 1s
	// shorter, never less.
	c := condition(got, appsv1.DeploymentProgressing)
	if took := c.LastTransitionTime.Sub(got.CreationTimestamp.Time); took < time.Second {
		t.Errorf("deadline exceeded %v after creation, deadline 2s", took)
	}
	// Marking the pods ready makes progress again.
	e.rollOut(t, "stuck", nil)
	e.waitCondition(t, "stuck", appsv1.DeploymentProgressing, corev1.ConditionTrue, "NewReplicaSetAvailable")
}

// TestDeploymentRevisionHistoryLimit: old ReplicaSets without pods beyond
// the limit are deleted, oldest revision first.
func TestDeploymentRevisionHistoryLimit(t *testing.T) {
	e := startDeployments(t)
	d := newDeployment("hist", 1, "img:1", intstr.FromInt(1), intstr.FromInt(0))
	d.Spec.RevisionHistoryLimit = ptr(int32(1))
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rollOut(t, "hist", nil)
	for i := 2; i <= 4; i++ {
		e.setImage(t, "hist", fmt.Sprintf("img:%d", i))
		e.rollOut(t, "hist", nil)
	}
	e.eventually(t, 20*time.Second, func() string {
		rss := e.replicaSets(t, "app=hist")
		var revs []string
		for _, rs := range rss {
			revs = append(revs, rs.Annotations["deployment.platform.io/revision"])
		}
		slices.Sort(revs)
		if !slices.Equal(revs, []string{"3", "4"}) {
			return fmt.Sprintf("revisions kept %v, want [3 4]", revs)
		}
		return ""
	})
}

// sizesByImage maps each ReplicaSet's image to its wanted replicas.
func sizesByImage(rss []appsv1.ReplicaSet) map[string]int32 {
	out := map[string]int32{}
	for _, rs := range rss {
		out[rs.Spec.Template.Spec.Containers[0].Image] = *rs.Spec.Replicas
	}
	return out
}

// TestDeploymentHistoryAfterRollback: after v1, v2, a rollback to v1 (its
// ReplicaSet is reused with the newest revision) and v3, a history limit
// of 1 keeps v1's ReplicaSet, the highest old revision, and deletes v2's,
// though v1's was created first.
func TestDeploymentHistoryAfterRollback(t *testing.T) {
	e := startDeployments(t)
	d := newDeployment("hrb", 1, "img:1", intstr.FromInt(1), intstr.FromInt(0))
	d.Spec.RevisionHistoryLimit = ptr(int32(1))
	if _, err := e.set.Deployments.Namespace(e.ns).Create(e.ctx, d, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.rollOut(t, "hrb", nil)
	e.setImage(t, "hrb", "img:2")
	e.rollOut(t, "hrb", nil)
	e.patchDeployment(t, "hrb", `{"metadata":{"annotations":{"deprecated.deployment.rollback.to":"0"}}}`)
	e.eventually(t, 20*time.Second, func() string {
		if got := e.getDeployment(t, "hrb"); got.Spec.Template.Spec.Containers[0].Image != "img:1" {
			return "image " + got.Spec.Template.Spec.Containers[0].Image + ", want img:1 after the rollback"
		}
		return ""
	})
	e.rollOut(t, "hrb", nil)
	e.setImage(t, "hrb", "img:3")
	e.rollOut(t, "hrb", nil)
	e.eventually(t, 20*time.Second, func() string {
		kept := map[string]string{}
		for _, rs := range e.replicaSets(t, "app=hrb") {
			kept[rs.Spec.Template.Spec.Containers[0].Image] = rs.Annotations["deployment.platform.io/revision"]
		}
		if want := map[string]string{"img:1": "3", "img:3": "4"}; !maps.Equal(kept, want) {
			return fmt.Sprintf("replicasets kept (image: revision) %v, want %v", kept, want)
		}
		return ""
	})
}
