package limitrange

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func TestResource(t *testing.T) {
	r := Resource()
	if r.Name != "limitranges" || r.Kind != "LimitRange" || !r.Namespaced || r.HasStatus || len(r.ShortNames) != 1 || r.ShortNames[0] != "limits" {
		t.Fatalf("bad row: %+v", r)
	}
}

func TestValidate(t *testing.T) {
	item := func(typ corev1.LimitType, f func(*corev1.LimitRangeItem)) corev1.LimitRangeItem {
		it := corev1.LimitRangeItem{Type: typ}
		if f != nil {
			f(&it)
		}
		return it
	}
	cases := []struct {
		name   string
		limits []corev1.LimitRangeItem
		typ    field.Type
		field  string
		detail string
	}{
		{name: "valid container", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.Min, i.DefaultRequest, i.Default, i.Max = rl("cpu", "100m"), rl("cpu", "200m"), rl("cpu", "500m"), rl("cpu", "1")
			i.MaxLimitRequestRatio = rl("cpu", "5")
		})}},
		{name: "valid pod and claim", limits: []corev1.LimitRangeItem{
			item(corev1.LimitTypePod, func(i *corev1.LimitRangeItem) { i.Max = rl("memory", "1Gi") }),
			item(corev1.LimitTypePersistentVolumeClaim, func(i *corev1.LimitRangeItem) { i.Max = rl("storage", "10Gi") }),
		}},
		{name: "duplicate type", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, nil), item(corev1.LimitTypeContainer, nil)},
			typ: field.TypeDuplicate, field: "spec.limits[1].type"},
		{name: "min above max", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.Min, i.Max = rl("cpu", "2"), rl("cpu", "1")
		})}, typ: field.TypeInvalid, field: "spec.limits[0].min[cpu]", detail: "min value 2 is greater than max value 1"},
		{name: "default request above default", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.DefaultRequest, i.Default = rl("memory", "1Gi"), rl("memory", "512Mi")
		})}, typ: field.TypeInvalid, field: "spec.limits[0].defaultRequest[memory]", detail: "default request value 1Gi is greater than default limit value 512Mi"},
		{name: "default request below min", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.DefaultRequest, i.Min = rl("cpu", "50m"), rl("cpu", "100m")
		})}, typ: field.TypeInvalid, field: "spec.limits[0].defaultRequest[cpu]", detail: "min value 100m is greater than default request value 50m"},
		{name: "default above max", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.Default, i.Max = rl("cpu", "2"), rl("cpu", "1")
		})}, typ: field.TypeInvalid, field: "spec.limits[0].default[cpu]", detail: "default value 2 is greater than max value 1"},
		{name: "ratio below one", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.MaxLimitRequestRatio = rl("cpu", "500m")
		})}, typ: field.TypeInvalid, field: "spec.limits[0].maxLimitRequestRatio[cpu]", detail: "ratio 500m is less than 1"},
		{name: "ratio above max/min", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.Min, i.Max, i.MaxLimitRequestRatio = rl("cpu", "1"), rl("cpu", "2"), rl("cpu", "3")
		})}, typ: field.TypeInvalid, field: "spec.limits[0].maxLimitRequestRatio[cpu]"},
		{name: "negative", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.Max = rl("cpu", "-1")
		})}, typ: field.TypeInvalid, field: "spec.limits[0].max[cpu]", detail: corevalidation.NonNegativeMsg},
		{name: "not a container resource", limits: []corev1.LimitRangeItem{item(corev1.LimitTypeContainer, func(i *corev1.LimitRangeItem) {
			i.Max = rl("pods", "1")
		})}, typ: field.TypeInvalid, field: "spec.limits[0].max[pods]", detail: "must be a standard resource for containers"},
		{name: "pod with default", limits: []corev1.LimitRangeItem{item(corev1.LimitTypePod, func(i *corev1.LimitRangeItem) {
			i.Default = rl("cpu", "1")
		})}, typ: field.TypeForbidden, field: "spec.limits[0].default"},
		{name: "pod with default request", limits: []corev1.LimitRangeItem{item(corev1.LimitTypePod, func(i *corev1.LimitRangeItem) {
			i.DefaultRequest = rl("cpu", "1")
		})}, typ: field.TypeForbidden, field: "spec.limits[0].defaultRequest"},
		{name: "claim without storage bound", limits: []corev1.LimitRangeItem{item(corev1.LimitTypePersistentVolumeClaim, nil)},
			typ: field.TypeRequired, field: "spec.limits[0].limits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := Validate(&corev1.LimitRange{Spec: corev1.LimitRangeSpec{Limits: c.limits}})
			if msg := corevalidation.Expect(errs, c.typ, c.field); msg != "" {
				t.Fatal(msg)
			}
			if c.detail != "" {
				if e := corevalidation.Find(errs, c.typ, c.field); e.Detail != c.detail {
					t.Errorf("detail %q, want %q", e.Detail, c.detail)
				}
			}
		})
	}
}
