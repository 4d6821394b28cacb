package quota

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/client"

	pquota "platform.io/platform/pkg/quota"
	"platform.io/platform/test/integration/framework"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func pod(name string, req, lim corev1.ResourceList) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name}, Spec: corev1.PodSpec{Containers: []corev1.Container{{
		Name: "app", Image: "nginx", Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}}}}
}

// setup starts a server and a namespace, returning the server's clients.
func setup(t *testing.T, ns string) (*framework.Server, *client.Set) {
	t.Helper()
	s := framework.Start(t)
	set := client.NewSet(s.RESTClient(t))
	if _, err := set.Namespaces.Create(t.Context(), &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: ns}}, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return s, set
}

// quotaWithStatus creates a quota and fills its status as the quota
// controller would (it does not run here): used starts at zero.
func quotaWithStatus(t *testing.T, set *client.Set, ns, name string, hard corev1.ResourceList) {
	t.Helper()
	ctx := t.Context()
	q, err := set.ResourceQuotas.Namespace(ns).Create(ctx, &corev1.ResourceQuota{ObjectMeta: meta.ObjectMeta{Name: name},
		Spec: corev1.ResourceQuotaSpec{Hard: hard}}, meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	used := corev1.ResourceList{}
	for k := range hard {
		used[k] = resource.Quantity{}
	}
	q.Status = corev1.ResourceQuotaStatus{Hard: hard, Used: used}
	if _, err := set.ResourceQuotas.Namespace(ns).UpdateStatus(ctx, q, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func usedOf(t *testing.T, set *client.Set, ns, name string) string {
	t.Helper()
	q, err := set.ResourceQuotas.Namespace(ns).Get(t.Context(), name, meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return pquota.Format(q.Status.Used)
}

// TestQuotaRefusesPodOverIt: a pod that fits is charged to status.used
// before it is stored; the next one is refused with 403 and upstream's
// message and is not stored; a dry run is checked but not charged; a pod
// without the requests a compute quota needs is refused.
func TestQuotaRefusesPodOverIt(t *testing.T) {
	t.Parallel()
	_, set := setup(t, "q1")
	ctx := t.Context()
	pods := set.Pods.Namespace("q1")
	quotaWithStatus(t, set, "q1", "small", rl("pods", "1", "requests.cpu", "1"))

	if _, err := pods.Create(ctx, pod("dry", rl("cpu", "500m"), nil), meta.WriteOptions{DryRun: []string{"All"}}); err != nil {
		t.Fatalf("dry run: %v", err)
	}
	if got := usedOf(t, set, "q1", "small"); got != "pods=0,requests.cpu=0" {
		t.Errorf("after a dry run used is %s, want nothing charged", got)
	}
	if _, err := pods.Create(ctx, pod("first", rl("cpu", "500m"), nil), meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := usedOf(t, set, "q1", "small"); got != "pods=1,requests.cpu=500m" {
		t.Errorf("used %s after the first pod", got)
	}
	_, err := pods.Create(ctx, pod("second", rl("cpu", "250m"), nil), meta.WriteOptions{})
	want := `pods "second" is forbidden: exceeded quota: small, requested: pods=1, used: pods=1, limited: pods=1`
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), want) {
		t.Fatalf("second pod: %v, want 403 %q", err, want)
	}
	if _, err := pods.Get(ctx, "second", meta.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("refused pod: get gave %v, want NotFound", err)
	}
	if _, err := pods.Create(ctx, pod("dry2", rl("cpu", "250m"), nil), meta.WriteOptions{DryRun: []string{"All"}}); !apierrors.IsForbidden(err) {
		t.Errorf("dry run over the quota: %v, want 403", err)
	}
	if got := usedOf(t, set, "q1", "small"); got != "pods=1,requests.cpu=500m" {
		t.Errorf("used %s after refusals, want unchanged", got)
	}

	quotaWithStatus(t, set, "q1", "mem", rl("limits.memory", "1Gi"))
	_, err = pods.Create(ctx, pod("nolimit", nil, nil), meta.WriteOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "failed quota: mem: must specify limits.memory for: app") {
		t.Errorf("pod without a memory limit: %v", err)
	}

	// Other resources: config maps count against count/configmaps.
	quotaWithStatus(t, set, "q1", "objects", rl("count/configmaps", "1"))
	cms := set.ConfigMaps.Namespace("q1")
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: "a"}}, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: "b"}}, meta.WriteOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("second config map: %v, want 403", err)
	}
}

// TestConcurrentCreatesNeverExceedQuota: twenty pods created at once
// through two API servers sharing one etcd, against a quota of five pods:
// exactly five are stored, the rest are refused with 403, and status.used
// says five.
func TestConcurrentCreatesNeverExceedQuota(t *testing.T) {
	t.Parallel()
	s1, set1 := setup(t, "race")
	s2 := framework.Start(t, framework.SamePrefix(s1))
	set2 := client.NewSet(s2.RESTClient(t))
	quotaWithStatus(t, set1, "race", "five", rl("pods", "5"))
	// The second server's watch cache must have the quota's status.
	framework.Eventually(t, 10*time.Second, "second server sees the quota", func() bool {
		q, err := set2.ResourceQuotas.Namespace("race").Get(t.Context(), "five", meta.GetOptions{ResourceVersion: "0"})
		return err == nil && len(q.Status.Used) > 0
	})

	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		set := set1
		if i%2 == 1 {
			set = set2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = set.Pods.Namespace("race").Create(context.Background(), pod(fmt.Sprintf("p%d", i), nil, nil), meta.WriteOptions{})
		}()
	}
	wg.Wait()
	created := 0
	for i, err := range errs {
		switch {
		case err == nil:
			created++
		case !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "exceeded quota: five"):
			t.Errorf("pod %d: %v, want created or 403 exceeded quota", i, err)
		}
	}
	list, err := set1.Pods.Namespace("race").List(t.Context(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if created != 5 || len(list.Items) != 5 {
		t.Errorf("%d creates succeeded and %d pods stored, want 5 and 5", created, len(list.Items))
	}
	if got := usedOf(t, set1, "race", "five"); got != "pods=5" {
		t.Errorf("used %s, want pods=5", got)
	}
}

// TestLimitRangeDefaultsAndBounds: a pod created in a namespace with a
// LimitRange gets the range's defaults and the annotation saying so; one
// above its max is refused with upstream's message and not stored.
func TestLimitRangeDefaultsAndBounds(t *testing.T) {
	t.Parallel()
	_, set := setup(t, "lr")
	ctx := t.Context()
	lr := &corev1.LimitRange{ObjectMeta: meta.ObjectMeta{Name: "bounds"}, Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{
		Type: corev1.LimitTypeContainer, Max: rl("cpu", "500m"),
		Default: rl("cpu", "300m", "memory", "256Mi"), DefaultRequest: rl("cpu", "100m", "memory", "128Mi"),
	}}}}
	if _, err := set.LimitRanges.Namespace("lr").Create(ctx, lr, meta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	pods := set.Pods.Namespace("lr")
	p, err := pods.Create(ctx, pod("plain", nil, nil), meta.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := p.Spec.Containers[0].Resources
	if got := pquota.Format(r.Requests) + " / " + pquota.Format(r.Limits); got != "cpu=100m,memory=128Mi / cpu=300m,memory=256Mi" {
		t.Errorf("resources %s, want the range's defaults", got)
	}
	if got := p.Annotations["platform.io/limit-ranger"]; !strings.HasPrefix(got, "LimitRanger plugin set: cpu, memory request for container app") {
		t.Errorf("annotation %q", got)
	}
	_, err = pods.Create(ctx, pod("greedy", nil, rl("cpu", "1")), meta.WriteOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), `pods "greedy" is forbidden: maximum cpu usage per Container is 500m, but limit is 1`) {
		t.Fatalf("pod over the max: %v", err)
	}
	if _, err := pods.Get(ctx, "greedy", meta.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("refused pod: get gave %v, want NotFound", err)
	}
	// A deleted range stops applying at the very next pod create.
	if err := set.LimitRanges.Namespace("lr").Delete(ctx, "bounds", &meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err = pods.Create(ctx, pod("after", nil, rl("cpu", "1")), meta.WriteOptions{})
	if err != nil {
		t.Fatalf("pod after the range was deleted: %v", err)
	}
	if _, ok := p.Annotations["platform.io/limit-ranger"]; ok || len(p.Spec.Containers[0].Resources.Requests) != 1 {
		t.Errorf("pod after the range was deleted got defaults: %v", p.Spec.Containers[0].Resources)
	}
	// An invalid range is refused by validation.
	bad := &corev1.LimitRange{ObjectMeta: meta.ObjectMeta{Name: "bad"}, Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{
		Type: corev1.LimitTypeContainer, Min: rl("cpu", "2"), Max: rl("cpu", "1")}}}}
	if _, err := set.LimitRanges.Namespace("lr").Create(ctx, bad, meta.WriteOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("min above max: %v, want 422", err)
	}
}
