package limitranger

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/admission"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func strs(l corev1.ResourceList) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

type fixed []*corev1.LimitRange

func (f fixed) List(context.Context, string) ([]*corev1.LimitRange, error) { return f, nil }
func (f fixed) Forget(string)                                              {}

func container(name string, req, lim corev1.ResourceList) corev1.Container {
	return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Requests: req, Limits: lim}}
}

func podAttrs(cs ...corev1.Container) *admission.Attributes {
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: corev1.PodSpec{Containers: cs}}
	return &admission.Attributes{Operation: admission.Create, Resource: meta.GroupVersionResource{Version: "v1", Resource: "pods"},
		Namespace: "ns", Name: "p", Object: p}
}

func ranges(items ...corev1.LimitRangeItem) fixed {
	return fixed{{ObjectMeta: meta.ObjectMeta{Name: "lr", Namespace: "ns"}, Spec: corev1.LimitRangeSpec{Limits: items}}}
}

func TestAdmitDefaults(t *testing.T) {
	defaults := corev1.LimitRangeItem{Type: corev1.LimitTypeContainer,
		Default: rl("cpu", "500m", "memory", "256Mi"), DefaultRequest: rl("cpu", "100m", "memory", "128Mi")}
	cases := []struct {
		name       string
		c          corev1.Container
		req, lim   map[string]string
		annotation string
	}{
		{"nothing set", container("app", nil, nil),
			map[string]string{"cpu": "100m", "memory": "128Mi"}, map[string]string{"cpu": "500m", "memory": "256Mi"},
			"LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app"},
		{"request set", container("app", rl("cpu", "200m"), nil),
			map[string]string{"cpu": "200m", "memory": "128Mi"}, map[string]string{"cpu": "500m", "memory": "256Mi"},
			"LimitRanger plugin set: memory request for container app; cpu, memory limit for container app"},
		{"limit set: request follows it", container("app", nil, rl("cpu", "1")),
			map[string]string{"cpu": "1", "memory": "128Mi"}, map[string]string{"cpu": "1", "memory": "256Mi"},
			"LimitRanger plugin set: memory request for container app; memory limit for container app"},
		{"all set", container("app", rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi")),
			map[string]string{"cpu": "1", "memory": "1Gi"}, map[string]string{"cpu": "1", "memory": "1Gi"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := podAttrs(c.c)
			if err := New(ranges(defaults)).Admit(t.Context(), a); err != nil {
				t.Fatal(err)
			}
			pd := a.Object.(*corev1.Pod)
			got := pd.Spec.Containers[0].Resources
			if diff := cmp.Diff(c.req, strs(got.Requests)); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.lim, strs(got.Limits)); diff != "" {
				t.Errorf("limits (-want +got):\n%s", diff)
			}
			if got := pd.Annotations[Annotation]; got != c.annotation {
				t.Errorf("annotation %q, want %q", got, c.annotation)
			}
		})
	}
}

func TestAdmitLeavesOthers(t *testing.T) {
	lr := ranges(corev1.LimitRangeItem{Type: corev1.LimitTypeContainer, Default: rl("cpu", "1")})
	a := podAttrs(container("app", nil, nil))
	a.Subresource = "status"
	if err := New(lr).Admit(t.Context(), a); err != nil {
		t.Fatal(err)
	}
	if l := a.Object.(*corev1.Pod).Spec.Containers[0].Resources.Limits; len(l) != 0 {
		t.Errorf("a subresource write was defaulted: %v", l)
	}
	// A Pod item has no defaults.
	a = podAttrs(container("app", nil, nil))
	if err := New(ranges(corev1.LimitRangeItem{Type: corev1.LimitTypePod, Max: rl("cpu", "1")})).Admit(t.Context(), a); err != nil {
		t.Fatal(err)
	}
	if l := a.Object.(*corev1.Pod).Spec.Containers[0].Resources.Limits; len(l) != 0 {
		t.Errorf("defaulted from a Pod item: %v", l)
	}
}

func TestValidate(t *testing.T) {
	ctr := func(min, max, ratio corev1.ResourceList) corev1.LimitRangeItem {
		return corev1.LimitRangeItem{Type: corev1.LimitTypeContainer, Min: min, Max: max, MaxLimitRequestRatio: ratio}
	}
	podItem := corev1.LimitRangeItem{Type: corev1.LimitTypePod, Max: rl("cpu", "1")}
	cases := []struct {
		name  string
		item  corev1.LimitRangeItem
		conts []corev1.Container
		want  string
	}{
		{"within bounds", ctr(rl("cpu", "100m"), rl("cpu", "500m"), nil), []corev1.Container{container("a", rl("cpu", "200m"), rl("cpu", "500m"))}, ""},
		{"limit above max", ctr(nil, rl("cpu", "500m"), nil), []corev1.Container{container("a", rl("cpu", "200m"), rl("cpu", "1"))},
			"maximum cpu usage per Container is 500m, but limit is 1"},
		{"no limit under a max", ctr(nil, rl("memory", "1Gi"), nil), []corev1.Container{container("a", nil, nil)},
			"maximum memory usage per Container is 1Gi.  No limit is specified"},
		{"request below min", ctr(rl("cpu", "100m"), nil, nil), []corev1.Container{container("a", rl("cpu", "50m"), nil)},
			"minimum cpu usage per Container is 100m, but request is 50m"},
		{"no request under a min", ctr(rl("cpu", "100m"), nil, nil), []corev1.Container{container("a", nil, nil)},
			"minimum cpu usage per Container is 100m.  No request is specified"},
		{"ratio too high", ctr(nil, nil, rl("cpu", "2")), []corev1.Container{container("a", rl("cpu", "100m"), rl("cpu", "300m"))},
			"cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000"},
		{"ratio without request", ctr(nil, nil, rl("cpu", "2")), []corev1.Container{container("a", nil, rl("cpu", "300m"))},
			"cpu max limit to request ratio per Container is 2, but no request is specified or request is 0"},
		{"pod total above max", podItem, []corev1.Container{container("a", nil, rl("cpu", "600m")), container("b", nil, rl("cpu", "600m"))},
			"maximum cpu usage per Pod is 1, but limit is 1200m"},
		{"two failures", ctr(nil, rl("cpu", "500m"), nil), []corev1.Container{container("a", nil, rl("cpu", "1")), container("b", nil, rl("cpu", "2"))},
			"[maximum cpu usage per Container is 500m, but limit is 1, maximum cpu usage per Container is 500m, but limit is 2]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := New(ranges(c.item)).Validate(t.Context(), podAttrs(c.conts...))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
