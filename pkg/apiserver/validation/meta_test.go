package validation

import (
	"strings"
	"testing"
	"time"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func fields(errs field.ErrorList) string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Field+":"+string(e.Type))
	}
	return strings.Join(out, ",")
}

func TestObjectMeta(t *testing.T) {
	yes := true
	cases := []struct {
		name       string
		m          meta.ObjectMeta
		namespaced bool
		want       string
	}{
		{"valid", meta.ObjectMeta{Name: "a", Namespace: "ns"}, true, ""},
		{"no name", meta.ObjectMeta{Namespace: "ns"}, true, "metadata.name:FieldValueRequired"},
		{"generateName only", meta.ObjectMeta{GenerateName: "web-", Namespace: "ns"}, true, ""},
		{"bad generateName", meta.ObjectMeta{GenerateName: "Web-", Namespace: "ns"}, true, "metadata.generateName:FieldValueInvalid"},
		{"no namespace", meta.ObjectMeta{Name: "a"}, true, "metadata.namespace:FieldValueRequired"},
		{"namespace on cluster type", meta.ObjectMeta{Name: "a", Namespace: "x"}, false, "metadata.namespace:FieldValueForbidden"},
		{"bad label key", meta.ObjectMeta{Name: "a", Labels: map[string]string{"a b": "c"}}, false, "metadata.labels:FieldValueInvalid"},
		{"bad label value", meta.ObjectMeta{Name: "a", Labels: map[string]string{"a": "b c"}}, false, "metadata.labels[a]:FieldValueInvalid"},
		{"big annotations", meta.ObjectMeta{Name: "a", Annotations: map[string]string{"a": strings.Repeat("x", TotalAnnotationSizeLimit)}}, false, "metadata.annotations:FieldValueTooLong"},
		{"two controllers", meta.ObjectMeta{Name: "a", OwnerReferences: []meta.OwnerReference{
			{APIVersion: "v1", Kind: "K", Name: "x", UID: "1", Controller: &yes},
			{APIVersion: "v1", Kind: "K", Name: "y", UID: "2", Controller: &yes}}}, false, "metadata.ownerReferences:FieldValueInvalid"},
		{"owner without uid", meta.ObjectMeta{Name: "a", OwnerReferences: []meta.OwnerReference{{APIVersion: "v1", Kind: "K", Name: "x"}}}, false, "metadata.ownerReferences[0].uid:FieldValueInvalid"},
		{"bad finalizer", meta.ObjectMeta{Name: "a", Finalizers: []string{"a b"}}, false, "metadata.finalizers[0]:FieldValueInvalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := fields(ObjectMeta(&c.m, c.namespaced, IsDNS1123Subdomain, field.NewPath("metadata")))
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestObjectMetaUpdate(t *testing.T) {
	now := meta.NewTime(time.Now())
	old := meta.ObjectMeta{Name: "a", Namespace: "ns", UID: "u", CreationTimestamp: now, Finalizers: []string{"x.io/f"}}
	deleting := old
	deleting.DeletionTimestamp = &now
	cases := []struct {
		name string
		m    meta.ObjectMeta
		old  meta.ObjectMeta
		want string
	}{
		{"same", old, old, ""},
		{"rename", meta.ObjectMeta{Name: "b", Namespace: "ns", UID: "u", CreationTimestamp: now}, old, "metadata.name:FieldValueInvalid"},
		{"new uid", meta.ObjectMeta{Name: "a", Namespace: "ns", UID: "v", CreationTimestamp: now}, old, "metadata.uid:FieldValueInvalid"},
		{"new finalizer while deleting", func() meta.ObjectMeta { m := deleting; m.Finalizers = []string{"x.io/f", "x.io/g"}; return m }(), deleting, "metadata.finalizers:FieldValueForbidden"},
		{"remove finalizer while deleting", func() meta.ObjectMeta { m := deleting; m.Finalizers = nil; return m }(), deleting, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := fields(ObjectMetaUpdate(&c.m, &c.old, field.NewPath("metadata")))
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
