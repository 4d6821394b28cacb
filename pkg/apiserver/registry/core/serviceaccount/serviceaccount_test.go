package serviceaccount

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource()
	if r.Name != "serviceaccounts" || r.Singular != "serviceaccount" || r.Kind != "ServiceAccount" || r.Group != "" || r.Version != "v1" {
		t.Fatalf("bad names: %+v", r)
	}
	if !r.Namespaced || r.HasStatus || r.Strategy == nil {
		t.Fatalf("bad flags: %+v", r)
	}
	if len(r.ShortNames) != 1 || r.ShortNames[0] != "sa" {
		t.Fatalf("short names = %v", r.ShortNames)
	}
	if _, ok := r.New().(*corev1.ServiceAccount); !ok {
		t.Fatalf("New returned %T", r.New())
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name  string
		sa    corev1.ServiceAccount
		typ   field.Type
		field string
	}{
		{"empty", corev1.ServiceAccount{}, "", ""},
		{"named refs", corev1.ServiceAccount{Secrets: []corev1.ObjectReference{{Name: "tok"}}, ImagePullSecrets: []corev1.LocalObjectReference{{Name: "reg"}}}, "", ""},
		{"unnamed secret", corev1.ServiceAccount{Secrets: []corev1.ObjectReference{{Name: "a"}, {Kind: "Secret"}}}, field.TypeRequired, "secrets[1].name"},
		{"unnamed pull secret", corev1.ServiceAccount{ImagePullSecrets: []corev1.LocalObjectReference{{}}}, field.TypeRequired, "imagePullSecrets[0].name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if msg := corevalidation.Expect(validate(&c.sa), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
			if msg := corevalidation.Expect(Resource().Strategy.ValidateUpdate(t.Context(), &c.sa, &corev1.ServiceAccount{}), c.typ, c.field); msg != "" {
				t.Error("update:", msg)
			}
		})
	}
}
