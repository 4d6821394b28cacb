package resourcequota_test

import (
	"context"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/resourcequota"
	"platform.io/platform/pkg/quota"
	"platform.io/platform/test/integration/framework"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

// TestQuotaStatusFollowsNamespace: against a real API server, the loop
// fills a new quota's status.hard and status.used, releases the usage of
// a deleted pod and of a pod that finished, and follows a change of
// spec.hard.
func TestQuotaStatusFollowsNamespace(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	d := s.Deps(t, "controller-manager")
	opts := resourcequota.NewOptions()
	loop, err := resourcequota.New(controller.Context{Deps: d}, opts, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d.Informers.Start(ctx)
	if !d.Informers.WaitForCacheSync(ctx) {
		t.Fatal("informers did not sync")
	}
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()
	defer func() { cancel(); <-done }()

	set := d.Clients
	pods, quotas := set.Pods.Namespace("default"), set.ResourceQuotas.Namespace("default")
	for _, name := range []string{"a", "b"} {
		p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name}, Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "c", Image: "nginx", Resources: corev1.ResourceRequirements{Requests: rl("cpu", "250m", "memory", "64Mi")}}}}}
		if _, err := pods.Create(ctx, p, meta.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := set.ConfigMaps.Namespace("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: "cm"}}, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	q := &corev1.ResourceQuota{ObjectMeta: meta.ObjectMeta{Name: "q"}, Spec: corev1.ResourceQuotaSpec{
		Hard: rl("pods", "5", "requests.cpu", "2", "configmaps", "10", "count/deployments.apps", "1")}}
	if _, err := quotas.Create(ctx, q, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitUsed := func(want string) {
		t.Helper()
		var got *corev1.ResourceQuota
		framework.Eventually(t, 20*time.Second, "status.used "+want, func() bool {
			got, err = quotas.Get(ctx, "q", meta.GetOptions{})
			return err == nil && quota.Format(got.Status.Used) == want && quota.Equal(got.Status.Hard, got.Spec.Hard)
		})
	}
	// The root CA publisher does not run here, so the one config map is ours.
	waitUsed("configmaps=1,count/deployments.apps=0,pods=2,requests.cpu=500m")

	if err := pods.Delete(ctx, "a", &meta.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	waitUsed("configmaps=1,count/deployments.apps=0,pods=1,requests.cpu=250m")

	b, err := pods.Get(ctx, "b", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b.Status.Phase = corev1.PodSucceeded
	if _, err := pods.UpdateStatus(ctx, b, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitUsed("configmaps=1,count/deployments.apps=0,pods=0,requests.cpu=0")

	cur, err := quotas.Get(ctx, "q", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cur.Spec.Hard = rl("pods", "7", "secrets", "3")
	if _, err := quotas.Update(ctx, cur, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitUsed("pods=0,secrets=0")
}
