package resourcequota

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/admission"
	"platform.io/platform/pkg/quota"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

// memQuotas holds quotas in memory; UpdateStatus is atomic under mu.
type memQuotas struct {
	mu     sync.Mutex
	quotas map[string]*corev1.ResourceQuota
	writes int
	// stale, when set, is what List returns: a cache behind the store.
	stale []*corev1.ResourceQuota
}

func (m *memQuotas) List(context.Context, string) ([]*corev1.ResourceQuota, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stale != nil {
		return m.stale, nil
	}
	var out []*corev1.ResourceQuota
	for _, q := range m.quotas {
		c := *q
		c.Status.Used = quota.Add(q.Status.Used, nil)
		out = append(out, &c)
	}
	return out, nil
}

func (m *memQuotas) Forget(string) {}

func (m *memQuotas) UpdateStatus(_ context.Context, _, name string, change func(*corev1.ResourceQuota) error, dryRun bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	q, ok := m.quotas[name]
	if !ok {
		return apierrors.NewNotFound(quotasGR, name)
	}
	c := *q
	c.Status.Used = quota.Add(q.Status.Used, nil)
	if err := change(&c); err != nil {
		return err
	}
	if !dryRun {
		m.quotas[name] = &c
		m.writes++
	}
	return nil
}

func newQuota(name string, hard, used corev1.ResourceList, scopes ...corev1.ResourceQuotaScope) *corev1.ResourceQuota {
	return &corev1.ResourceQuota{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns"},
		Spec:   corev1.ResourceQuotaSpec{Hard: hard, Scopes: scopes},
		Status: corev1.ResourceQuotaStatus{Hard: hard, Used: used}}
}

func podAttrs(req, lim corev1.ResourceList) *admission.Attributes {
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: "ns"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}}}}
	return &admission.Attributes{Operation: admission.Create, Resource: meta.GroupVersionResource{Version: "v1", Resource: "pods"},
		Namespace: "ns", Name: "p", Object: p}
}

func usedOf(m *memQuotas) map[string]string {
	out := map[string]string{}
	for n, q := range m.quotas {
		out[n] = quota.Format(q.Status.Used)
	}
	return out
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name     string
		quotas   []*corev1.ResourceQuota
		attrs    *admission.Attributes
		wantErr  string
		wantUsed map[string]string
	}{
		{name: "no quota", attrs: podAttrs(nil, nil), wantUsed: map[string]string{}},
		{name: "charged", quotas: []*corev1.ResourceQuota{newQuota("q", rl("pods", "2", "requests.cpu", "1"), rl("pods", "1", "requests.cpu", "500m"))},
			attrs:    podAttrs(rl("cpu", "250m"), nil),
			wantUsed: map[string]string{"q": "pods=2,requests.cpu=750m"}},
		{name: "exceeded", quotas: []*corev1.ResourceQuota{newQuota("q", rl("pods", "2", "secrets", "1"), rl("pods", "2", "secrets", "0"))},
			attrs:    podAttrs(nil, nil),
			wantErr:  `pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`,
			wantUsed: map[string]string{"q": "pods=2,secrets=0"}},
		{name: "compute exceeded", quotas: []*corev1.ResourceQuota{newQuota("compute", rl("limits.memory", "1Gi"), rl("limits.memory", "768Mi"))},
			attrs:    podAttrs(nil, rl("memory", "512Mi")),
			wantErr:  `pods "p" is forbidden: exceeded quota: compute, requested: limits.memory=512Mi, used: limits.memory=768Mi, limited: limits.memory=1Gi`,
			wantUsed: map[string]string{"compute": "limits.memory=768Mi"}},
		{name: "must specify", quotas: []*corev1.ResourceQuota{newQuota("compute", rl("requests.cpu", "1", "limits.memory", "1Gi"), rl("requests.cpu", "0", "limits.memory", "0"))},
			attrs:    podAttrs(nil, nil),
			wantErr:  `pods "p" is forbidden: failed quota: compute: must specify limits.memory for: app; requests.cpu for: app`,
			wantUsed: map[string]string{"compute": "limits.memory=0,requests.cpu=0"}},
		{name: "status unknown", quotas: []*corev1.ResourceQuota{newQuota("q", rl("pods", "2"), nil)},
			attrs:    podAttrs(nil, nil),
			wantErr:  `pods "p" is forbidden: status unknown for quota: q, resources: pods`,
			wantUsed: map[string]string{"q": ""}},
		{name: "quota not yet synced limits nothing", quotas: []*corev1.ResourceQuota{{ObjectMeta: meta.ObjectMeta{Name: "q"}, Spec: corev1.ResourceQuotaSpec{Hard: rl("pods", "0")}}},
			attrs: podAttrs(nil, nil), wantUsed: map[string]string{"q": ""}},
		{name: "scope does not match", quotas: []*corev1.ResourceQuota{newQuota("be", rl("pods", "0"), rl("pods", "0"), corev1.ResourceQuotaScopeBestEffort)},
			attrs: podAttrs(rl("cpu", "1"), nil), wantUsed: map[string]string{"be": "pods=0"}},
		{name: "second quota refuses: first refunded", quotas: []*corev1.ResourceQuota{
			newQuota("a", rl("pods", "5"), rl("pods", "1")), newQuota("b", rl("count/pods", "1"), rl("count/pods", "1"))},
			attrs:    podAttrs(nil, nil),
			wantErr:  `pods "p" is forbidden: exceeded quota: b, requested: count/pods=1, used: count/pods=1, limited: count/pods=1`,
			wantUsed: map[string]string{"a": "pods=1", "b": "count/pods=1"}},
		{name: "other resource", quotas: []*corev1.ResourceQuota{newQuota("q", rl("pods", "0", "configmaps", "3"), rl("pods", "0", "configmaps", "1"))},
			attrs: &admission.Attributes{Operation: admission.Create, Resource: meta.GroupVersionResource{Version: "v1", Resource: "configmaps"},
				Namespace: "ns", Name: "c", Object: &corev1.ConfigMap{}},
			wantUsed: map[string]string{"q": "configmaps=2,pods=0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &memQuotas{quotas: map[string]*corev1.ResourceQuota{}}
			for _, q := range c.quotas {
				m.quotas[q.Name] = q
			}
			err := New(m, nil).Validate(t.Context(), c.attrs)
			got := ""
			if err != nil {
				got = err.Error()
				if !apierrors.IsForbidden(err) {
					t.Errorf("error is not a 403: %#v", err)
				}
			}
			if got != c.wantErr {
				t.Errorf("error %q, want %q", got, c.wantErr)
			}
			if diff := cmp.Diff(c.wantUsed, usedOf(m)); diff != "" {
				t.Errorf("used (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	m := &memQuotas{quotas: map[string]*corev1.ResourceQuota{"q": newQuota("q", rl("pods", "1"), rl("pods", "0"))}}
	a := podAttrs(nil, nil)
	a.DryRun = true
	if err := New(m, nil).Validate(t.Context(), a); err != nil {
		t.Fatal(err)
	}
	if m.writes != 0 || quota.Format(m.quotas["q"].Status.Used) != "pods=0" {
		t.Errorf("dry run wrote: %d writes, used %v", m.writes, usedOf(m))
	}
	m.quotas["q"].Status.Used = rl("pods", "1")
	if err := New(m, nil).Validate(t.Context(), a); !apierrors.IsForbidden(err) {
		t.Errorf("dry run over quota: %v, want 403", err)
	}
}

func TestUpdateChargesGrowthOnly(t *testing.T) {
	m := &memQuotas{quotas: map[string]*corev1.ResourceQuota{"q": newQuota("q", rl("services", "5", "services.loadbalancers", "1"), rl("services", "1", "services.loadbalancers", "0"))}}
	old := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "s", ResourceVersion: "3"}}
	lb := &corev1.Service{ObjectMeta: meta.ObjectMeta{Name: "s", ResourceVersion: "3"}, Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer}}
	a := &admission.Attributes{Operation: admission.Update, Resource: meta.GroupVersionResource{Version: "v1", Resource: "services"},
		Namespace: "ns", Name: "s", Object: lb, OldObject: old}
	p := New(m, nil)
	if err := p.Validate(t.Context(), a); err != nil {
		t.Fatal(err)
	}
	if got := quota.Format(m.quotas["q"].Status.Used); got != "services=1,services.loadbalancers=1" {
		t.Errorf("used %s", got)
	}
	if err := p.Validate(t.Context(), a); !apierrors.IsForbidden(err) {
		t.Errorf("second load balancer: %v, want 403", err)
	}
	a.Subresource = "status"
	if err := p.Validate(t.Context(), a); err != nil {
		t.Errorf("status update: %v", err)
	}
}

// TestLostRaceRefunds: the cache says both quotas have room, but by the
// time of the compare-and-swap the second is full: the write is refused
// and the first quota gets its charge back.
func TestLostRaceRefunds(t *testing.T) {
	m := &memQuotas{quotas: map[string]*corev1.ResourceQuota{
		"a": newQuota("a", rl("pods", "5"), rl("pods", "1")),
		"b": newQuota("b", rl("count/pods", "1"), rl("count/pods", "1")),
	}, stale: []*corev1.ResourceQuota{
		newQuota("a", rl("pods", "5"), rl("pods", "1")),
		newQuota("b", rl("count/pods", "1"), rl("count/pods", "0")),
	}}
	err := New(m, nil).Validate(t.Context(), podAttrs(nil, nil))
	if !apierrors.IsForbidden(err) {
		t.Fatalf("got %v, want 403", err)
	}
	if diff := cmp.Diff(map[string]string{"a": "pods=1", "b": "count/pods=1"}, usedOf(m)); diff != "" {
		t.Errorf("used (-want +got):\n%s", diff)
	}
	if m.writes != 2 {
		t.Errorf("%d writes, want the charge and the refund of a", m.writes)
	}
}

// TestListedQuotasUnchanged: the listed quotas are shared with other
// requests (decoded once per version by the watch cache), so checking a
// write against them must not change them.
func TestListedQuotasUnchanged(t *testing.T) {
	listed := newQuota("q", rl("pods", "5"), rl("pods", "1"))
	m := &memQuotas{quotas: map[string]*corev1.ResourceQuota{"q": newQuota("q", rl("pods", "5"), rl("pods", "1"))},
		stale: []*corev1.ResourceQuota{listed}}
	if err := New(m, nil).Validate(t.Context(), podAttrs(nil, nil)); err != nil {
		t.Fatal(err)
	}
	if got := quota.Format(listed.Status.Used); got != "pods=1" {
		t.Errorf("the listed quota's used became %s, want pods=1 (unchanged)", got)
	}
	if got := quota.Format(m.quotas["q"].Status.Used); got != "pods=2" {
		t.Errorf("stored used %s, want pods=2", got)
	}
}
