package resourcequota

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
	"platform.io/client/informer"

	"platform.io/platform/pkg/quota"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

type fakeWriter struct{ written []*corev1.ResourceQuota }

func (f *fakeWriter) updateStatus(_ context.Context, q *corev1.ResourceQuota) error {
	f.written = append(f.written, q)
	return nil
}

// staticSource serves fixed objects of one resource.
func staticSource(gr meta.GroupResource, objs ...meta.Object) source {
	return source{gr: gr, list: func(ns string) ([]meta.Object, error) {
		var out []meta.Object
		for _, o := range objs {
			if o.GetObjectMeta().Namespace == ns {
				out = append(out, o)
			}
		}
		return out, nil
	}}
}

func TestReconcile(t *testing.T) {
	now := time.Unix(1000, 0)
	pod := func(name string, phase corev1.PodPhase, cpu string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns"}, Status: corev1.PodStatus{Phase: phase}}
		c := corev1.Container{Name: "c"}
		if cpu != "" {
			c.Resources.Requests = rl("cpu", cpu)
		}
		p.Spec.Containers = []corev1.Container{c}
		return p
	}
	srcs := []source{
		staticSource(meta.GroupResource{Resource: "pods"},
			pod("a", corev1.PodRunning, "250m"), pod("b", corev1.PodPending, "500m"), pod("done", corev1.PodSucceeded, "1"),
			pod("be", corev1.PodRunning, ""),
			&corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "elsewhere", Namespace: "other"}}),
		staticSource(meta.GroupResource{Resource: "configmaps"}, &corev1.ConfigMap{ObjectMeta: meta.ObjectMeta{Name: "c", Namespace: "ns"}}),
	}
	cases := []struct {
		name      string
		spec      corev1.ResourceQuotaSpec
		status    corev1.ResourceQuotaStatus
		wantWrite bool
		wantUsed  string
	}{
		{name: "new quota gets hard and used",
			spec:      corev1.ResourceQuotaSpec{Hard: rl("pods", "10", "requests.cpu", "2", "count/pods", "10", "configmaps", "5", "secrets", "3")},
			wantWrite: true, wantUsed: "configmaps=1,count/pods=4,pods=3,requests.cpu=750m,secrets=0"},
		{name: "overcharge is released",
			spec:      corev1.ResourceQuotaSpec{Hard: rl("pods", "10")},
			status:    corev1.ResourceQuotaStatus{Hard: rl("pods", "10"), Used: rl("pods", "7")},
			wantWrite: true, wantUsed: "pods=3"},
		{name: "up to date: no write",
			spec:   corev1.ResourceQuotaSpec{Hard: rl("pods", "10")},
			status: corev1.ResourceQuotaStatus{Hard: rl("pods", "10"), Used: rl("pods", "3")}},
		{name: "scoped quota counts matching pods",
			spec:      corev1.ResourceQuotaSpec{Hard: rl("pods", "10"), Scopes: []corev1.ResourceQuotaScope{corev1.ResourceQuotaScopeBestEffort}},
			wantWrite: true, wantUsed: "pods=1"},
		{name: "untracked resource keeps its recorded usage",
			spec:      corev1.ResourceQuotaSpec{Hard: rl("count/widgets.example.com", "5", "pods", "9")},
			status:    corev1.ResourceQuotaStatus{Used: rl("count/widgets.example.com", "2", "pods", "1", "secrets", "4")},
			wantWrite: true, wantUsed: "count/widgets.example.com=2,pods=3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := informer.NewStore[*corev1.ResourceQuota]()
			q := &corev1.ResourceQuota{ObjectMeta: meta.ObjectMeta{Name: "q", Namespace: "ns", ResourceVersion: "5"}, Spec: c.spec, Status: c.status}
			store.Add(q)
			w := &fakeWriter{}
			r := &reconciler{quotas: informer.NewLister(store, meta.GroupResource{Resource: "resourcequotas"}), sources: srcs, write: w,
				now: func() time.Time { return now }}
			if _, err := r.Reconcile(t.Context(), "ns/q"); err != nil {
				t.Fatal(err)
			}
			if !c.wantWrite {
				if len(w.written) != 0 {
					t.Fatalf("wrote %+v", w.written[0].Status)
				}
				return
			}
			if len(w.written) != 1 {
				t.Fatalf("%d writes, want 1", len(w.written))
			}
			got := w.written[0]
			if diff := cmp.Diff(c.wantUsed, quota.Format(got.Status.Used)); diff != "" {
				t.Errorf("used (-want +got):\n%s", diff)
			}
			if !quota.Equal(got.Status.Hard, c.spec.Hard) || got.ResourceVersion != "5" {
				t.Errorf("hard %v rv %s, want the spec's at the read version", got.Status.Hard, got.ResourceVersion)
			}
			if !quota.Equal(q.Status.Used, c.status.Used) {
				t.Errorf("the cached quota was modified")
			}
		})
	}
	// A quota that is gone is nothing to do.
	r := &reconciler{quotas: informer.NewLister(informer.NewStore[*corev1.ResourceQuota](), meta.GroupResource{Resource: "resourcequotas"}), write: &fakeWriter{}, now: time.Now}
	if _, err := r.Reconcile(context.Background(), "ns/gone"); err != nil {
		t.Errorf("missing quota: %v", err)
	}
}

func TestShrank(t *testing.T) {
	running := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c"}}}}
	done := &corev1.Pod{Spec: running.Spec, Status: corev1.PodStatus{Phase: corev1.PodFailed}}
	gr := meta.GroupResource{Resource: "pods"}
	if !shrank(gr, running, done, time.Now()) || shrank(gr, running, running, time.Now()) || shrank(gr, done, running, time.Now()) {
		t.Error("shrank misjudged a pod finishing")
	}
}
