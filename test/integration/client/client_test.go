// Package client_test drives the staging typed and dynamic clients against
// a real API server, in protobuf (the default) and in JSON.
package client_test

import (
	"context"
	"testing"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	batchv1 "platform.io/client/api/batch/v1"
	batchv1beta1 "platform.io/client/api/batch/v1beta1"
	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/rest"
	"platform.io/client/watch"

	"platform.io/platform/test/integration/framework"
)

// formats are the content types the clients are run with.
func formats() []struct{ name, contentType string } {
	return []struct{ name, contentType string }{{"protobuf", ""}, {"json", rest.ContentTypeJSON}}
}

func restClient(t *testing.T, s *framework.Server, contentType string) *rest.Client {
	t.Helper()
	rc, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1, ContentType: contentType})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.CloseIdleConnections)
	return rc
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestTypedClients runs every verb of the typed clients of pods,
// deployments, namespaces, both versions of cronjobs, leases and config
// maps, and the scale and binding subresources.
func TestTypedClients(t *testing.T) {
	s := framework.Start(t)
	for _, f := range formats() {
		t.Run(f.name, func(t *testing.T) {
			set := client.NewSet(restClient(t, s, f.contentType))
			ns := "client-" + f.name
			if _, err := set.Namespaces.Create(testContext(t), &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: ns}}, meta.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			suites := []struct {
				name string
				run  func(t *testing.T)
			}{
				{"pods", suite[corev1.Pod, *corev1.Pod]{c: set.Pods.Namespace(ns), object: newPod,
					setStatus: func(p *corev1.Pod) { p.Status.Message = "checked" },
					hasStatus: func(p *corev1.Pod) bool { return p.Status.Message == "checked" }}.run},
				{"deployments", suite[appsv1.Deployment, *appsv1.Deployment]{c: set.Deployments.Namespace(ns), object: newDeployment,
					setStatus: func(d *appsv1.Deployment) { d.Status.ObservedGeneration = 1 },
					hasStatus: func(d *appsv1.Deployment) bool { return d.Status.ObservedGeneration == 1 }}.run},
				{"namespaces", suite[corev1.Namespace, *corev1.Namespace]{c: set.Namespaces, object: newNamespace(f.name), lingers: true,
					setStatus: func(n *corev1.Namespace) {
						n.Status.Conditions = append(n.Status.Conditions, corev1.NamespaceCondition{Type: corev1.NamespaceContentRemaining, Status: corev1.ConditionFalse})
					},
					hasStatus: func(n *corev1.Namespace) bool { return len(n.Status.Conditions) == 1 }}.run},
				{"cronjobs v1", suite[batchv1.CronJob, *batchv1.CronJob]{c: set.CronJobs.Namespace(ns), object: newCronJob,
					setStatus: func(c *batchv1.CronJob) { c.Status.LastScheduleTime = &meta.Time{Time: time.Unix(1_700_000_000, 0)} },
					hasStatus: func(c *batchv1.CronJob) bool { return c.Status.LastScheduleTime != nil }}.run},
				{"cronjobs v1beta1", suite[batchv1beta1.CronJob, *batchv1beta1.CronJob]{c: set.CronJobsV1beta1.Namespace(ns), object: newCronJobV1beta1,
					setStatus: func(c *batchv1beta1.CronJob) {
						c.Status.LastScheduleTime = &meta.Time{Time: time.Unix(1_700_000_000, 0)}
					},
					hasStatus: func(c *batchv1beta1.CronJob) bool { return c.Status.LastScheduleTime != nil }}.run},
				{"leases", suite[coordinationv1.Lease, *coordinationv1.Lease]{c: set.Leases.Namespace(ns), object: newLease}.run},
				{"configmaps", suite[corev1.ConfigMap, *corev1.ConfigMap]{c: set.ConfigMaps.Namespace(ns), object: newConfigMap}.run},
				{"scale", func(t *testing.T) { testScale(t, set, ns) }},
				{"binding", func(t *testing.T) { testBinding(t, set, ns) }},
				{"cronjob versions", func(t *testing.T) { testCronJobVersions(t, set, ns) }},
			}
			for _, st := range suites {
				t.Run(st.name, func(t *testing.T) {
					t.Parallel()
					st.run(t)
				})
			}
		})
	}
}

func testScale(t *testing.T, set *client.Set, ns string) {
	ctx := testContext(t)
	deployments := set.Deployments.Namespace(ns)
	if _, err := deployments.Create(ctx, newDeployment("scaled", nil), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	sc, err := deployments.GetScale(ctx, "scaled", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Kind != "Scale" || sc.APIVersion != "autoscaling/v1" || sc.Name != "scaled" || sc.Spec.Replicas != 2 || sc.Status.Selector != "app=x" {
		t.Fatalf("scale %+v %+v %+v %+v", sc.TypeMeta, sc.ObjectMeta, sc.Spec, sc.Status)
	}
	sc.Spec.Replicas = 5
	sc.TypeMeta = meta.TypeMeta{}
	if sc, err = deployments.UpdateScale(ctx, "scaled", sc, meta.WriteOptions{}); err != nil || sc.Spec.Replicas != 5 {
		t.Fatalf("update scale: %+v, %v", sc, err)
	}
	d, err := deployments.Get(ctx, "scaled", meta.GetOptions{})
	if err != nil || d.Spec.Replicas == nil || *d.Spec.Replicas != 5 {
		t.Fatalf("deployment after scaling: %+v, %v", d, err)
	}
	sc.ResourceVersion = "1"
	if _, err := deployments.UpdateScale(ctx, "scaled", sc, meta.WriteOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update of a stale scale: %v, want a conflict", err)
	}
}

func testBinding(t *testing.T, set *client.Set, ns string) {
	ctx := testContext(t)
	pods := set.Pods.Namespace(ns)
	if _, err := pods.Create(ctx, newPod("unbound", nil), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	b := &corev1.Binding{ObjectMeta: meta.ObjectMeta{Name: "unbound"}, Target: corev1.ObjectReference{Kind: "Node", Name: "node-a"}}
	if err := pods.Bind(ctx, b, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := pods.Get(ctx, "unbound", meta.GetOptions{})
	if err != nil || p.Spec.NodeName != "node-a" {
		t.Fatalf("bound pod: %+v, %v", p, err)
	}
	if err := pods.Bind(ctx, b, meta.WriteOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("second binding: %v, want a conflict", err)
	}
	zero := int64(0)
	if err := pods.Delete(ctx, "unbound", &meta.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
}

// testCronJobVersions: a CronJob written in one version reads in the other.
func testCronJobVersions(t *testing.T, set *client.Set, ns string) {
	ctx := testContext(t)
	if _, err := set.CronJobs.Namespace(ns).Create(ctx, newCronJob("both", nil), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	old, err := set.CronJobsV1beta1.Namespace(ns).Get(ctx, "both", meta.GetOptions{})
	if err != nil || old.APIVersion != "batch/v1beta1" || old.Spec.Schedule != "*/5 * * * *" {
		t.Fatalf("v1 cronjob read as v1beta1: %+v, %v", old, err)
	}
}

// next returns the next event of w.
func next[O any](t *testing.T, w watch.Interface[O]) watch.Event[O] {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("the watch ended early")
		}
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no watch event within 20s")
	}
	panic("unreachable")
}

func newPod(name string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Labels: labels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
}

func newDeployment(name string, labels map[string]string) *appsv1.Deployment {
	replicas := int32(2)
	return &appsv1.Deployment{ObjectMeta: meta.ObjectMeta{Name: name, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "x"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "x"}},
				Spec:       newPod("", nil).Spec,
			},
		}}
}

func newNamespace(format string) func(name string, labels map[string]string) *corev1.Namespace {
	return func(name string, labels map[string]string) *corev1.Namespace {
		return &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: format + "-" + name, Labels: labels}}
	}
}

func jobSpec() batchv1.JobSpec {
	spec := newPod("", nil).Spec
	spec.RestartPolicy = corev1.RestartPolicyOnFailure
	return batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: spec}}
}

func newCronJob(name string, labels map[string]string) *batchv1.CronJob {
	return &batchv1.CronJob{ObjectMeta: meta.ObjectMeta{Name: name, Labels: labels},
		Spec: batchv1.CronJobSpec{Schedule: "*/5 * * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: jobSpec()}}}
}

func newCronJobV1beta1(name string, labels map[string]string) *batchv1beta1.CronJob {
	return &batchv1beta1.CronJob{ObjectMeta: meta.ObjectMeta{Name: name, Labels: labels},
		Spec: batchv1beta1.CronJobSpec{Schedule: "@hourly", JobTemplate: batchv1beta1.JobTemplateSpec{Spec: jobSpec()}}}
}

func newLease(name string, labels map[string]string) *coordinationv1.Lease {
	holder, secs := "a", int32(15)
	return &coordinationv1.Lease{ObjectMeta: meta.ObjectMeta{Name: name, Labels: labels},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &secs}}
}

func newConfigMap(name string, labels map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: name, Labels: labels}, Data: map[string]string{"k": "v"}}
}
