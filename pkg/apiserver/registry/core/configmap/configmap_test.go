package configmap

import (
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResource(t *testing.T) {
	r := Resource()
	if r.Name != "configmaps" || r.Singular != "configmap" || r.Kind != "ConfigMap" || r.Group != "" || r.Version != "v1" {
		t.Fatalf("bad names: %+v", r)
	}
	if !r.Namespaced || r.HasStatus || r.Strategy == nil || r.AllowCreateOnUpdate {
		t.Fatalf("bad flags: %+v", r)
	}
	if len(r.ShortNames) != 1 || r.ShortNames[0] != "cm" {
		t.Fatalf("short names = %v", r.ShortNames)
	}
	if _, ok := r.New().(*corev1.ConfigMap); !ok {
		t.Fatalf("New returned %T", r.New())
	}
}

func TestDefaults(t *testing.T) {
	cm := &corev1.ConfigMap{}
	Resource().Strategy.Default(cm)
	if cm.Data == nil {
		t.Error("data not defaulted to an empty map")
	}
	cm = &corev1.ConfigMap{Data: map[string]string{"a": "b"}}
	setDefaults(cm)
	if cm.Data["a"] != "b" {
		t.Error("explicit data lost")
	}
}

func TestValidate(t *testing.T) {
	big := strings.Repeat("x", corevalidation.MaxDataSize/2+1)
	cases := []struct {
		name  string
		cm    corev1.ConfigMap
		typ   field.Type
		field string
	}{
		{"valid", corev1.ConfigMap{Data: map[string]string{"a.conf": "x", "B_2-c": ""}, BinaryData: map[string][]byte{"bin": {1}}}, "", ""},
		{"bad data key", corev1.ConfigMap{Data: map[string]string{"a/b": "x"}}, field.TypeInvalid, "data[a/b]"},
		{"dot-dot key", corev1.ConfigMap{Data: map[string]string{"..a": "x"}}, field.TypeInvalid, "data[..a]"},
		{"long key", corev1.ConfigMap{Data: map[string]string{strings.Repeat("k", 254): "x"}}, field.TypeInvalid, "data[" + strings.Repeat("k", 254) + "]"},
		{"bad binary key", corev1.ConfigMap{BinaryData: map[string][]byte{"a b": nil}}, field.TypeInvalid, "binaryData[a b]"},
		{"key in both", corev1.ConfigMap{Data: map[string]string{"a": "x"}, BinaryData: map[string][]byte{"a": {1}}}, field.TypeInvalid, "data[a]"},
		{"at limit", corev1.ConfigMap{Data: map[string]string{"a": strings.Repeat("x", corevalidation.MaxDataSize)}}, "", ""},
		{"too big", corev1.ConfigMap{Data: map[string]string{"a": big}, BinaryData: map[string][]byte{"b": []byte(big)}}, field.TypeTooLong, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if msg := corevalidation.Expect(validate(&c.cm), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestValidateUpdate(t *testing.T) {
	yes, no := true, false
	frozen := func() *corev1.ConfigMap {
		return &corev1.ConfigMap{Immutable: &yes, Data: map[string]string{"a": "1"}, BinaryData: map[string][]byte{"b": {1}}}
	}
	cases := []struct {
		name   string
		old    *corev1.ConfigMap
		mutate func(*corev1.ConfigMap)
		typ    field.Type
		field  string
	}{
		{"mutable change", &corev1.ConfigMap{Data: map[string]string{"a": "1"}}, func(c *corev1.ConfigMap) { c.Data["a"] = "2" }, "", ""},
		{"make immutable", &corev1.ConfigMap{}, func(c *corev1.ConfigMap) { c.Immutable = &yes }, "", ""},
		{"frozen unchanged", frozen(), func(*corev1.ConfigMap) {}, "", ""},
		{"frozen nil data read back empty", &corev1.ConfigMap{Immutable: &yes}, func(*corev1.ConfigMap) {}, "", ""},
		{"frozen labels change", frozen(), func(c *corev1.ConfigMap) { c.Labels = map[string]string{"x": "y"} }, "", ""},
		{"frozen data change", frozen(), func(c *corev1.ConfigMap) { c.Data["a"] = "2" }, field.TypeForbidden, "data"},
		{"frozen binary change", frozen(), func(c *corev1.ConfigMap) { c.BinaryData = nil }, field.TypeForbidden, "binaryData"},
		{"frozen flag cleared", frozen(), func(c *corev1.ConfigMap) { c.Immutable = &no }, field.TypeForbidden, "immutable"},
		{"frozen flag removed", frozen(), func(c *corev1.ConfigMap) { c.Immutable = nil }, field.TypeForbidden, "immutable"},
		{"bad key on update", &corev1.ConfigMap{}, func(c *corev1.ConfigMap) { c.Data = map[string]string{"a b": ""} }, field.TypeInvalid, "data[a b]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := &corev1.ConfigMap{Immutable: c.old.Immutable, Data: map[string]string{}, BinaryData: map[string][]byte{}}
			for k, v := range c.old.Data {
				n.Data[k] = v
			}
			for k, v := range c.old.BinaryData {
				n.BinaryData[k] = v
			}
			c.mutate(n)
			if msg := corevalidation.Expect(validateUpdate(n, c.old), c.typ, c.field); msg != "" {
				t.Error(msg)
			}
		})
	}
}
