package client

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnstructuredJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    map[string]any
		wantErr bool
	}{
		{"numbers", `{"i":1,"big":9007199254740993,"f":1.5,"e":2.5e-1,"l":[2,"x",null,true]}`,
			map[string]any{"i": int64(1), "big": int64(9007199254740993), "f": 1.5, "e": 0.25, "l": []any{int64(2), "x", nil, true}}, false},
		{"nested", `{"a":{"b":{"c":-3}}}`, map[string]any{"a": map[string]any{"b": map[string]any{"c": int64(-3)}}}, false},
		{"null", `null`, nil, false},
		{"array", `[1]`, nil, true},
		{"string", `"x"`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u Unstructured
			err := json.Unmarshal([]byte(tt.in), &u)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, u.Object); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if tt.want == nil {
				return
			}
			out, err := json.Marshal(&u)
			if err != nil {
				t.Fatal(err)
			}
			var again Unstructured
			if err := json.Unmarshal(out, &again); err != nil || !cmp.Equal(again.Object, u.Object) {
				t.Errorf("round trip through %s: %v, %v", out, again.Object, err)
			}
		})
	}
	if out, _ := json.Marshal(Unstructured{}); string(out) != "{}" {
		t.Errorf("empty object marshals as %s", out)
	}
}

func TestUnstructuredAccessors(t *testing.T) {
	var u Unstructured
	u.SetAPIVersion("apps/v1")
	u.SetKind("Deployment")
	u.SetName("d")
	u.SetNamespace("ns")
	u.SetResourceVersion("4")
	u.SetGenerateName("d-")
	u.SetLabels(map[string]string{"a": "b"})
	u.SetAnnotations(map[string]string{"c": "d"})
	u.SetNestedField(int64(3), "spec", "replicas")
	u.SetNestedField([]any{"f", 1}, "metadata", "finalizers")
	u.SetNestedField(int64(2), "metadata", "generation")
	u.SetNestedField("u1", "metadata", "uid")
	tests := []struct {
		name      string
		got, want any
	}{
		{"apiVersion", u.GetAPIVersion(), "apps/v1"},
		{"kind", u.GetKind(), "Deployment"},
		{"name", u.GetName(), "d"},
		{"namespace", u.GetNamespace(), "ns"},
		{"resourceVersion", u.GetResourceVersion(), "4"},
		{"generateName", u.GetGenerateName(), "d-"},
		{"uid", u.GetUID(), "u1"},
		{"generation", u.GetGeneration(), int64(2)},
		{"labels", u.GetLabels(), map[string]string{"a": "b"}},
		{"annotations", u.GetAnnotations(), map[string]string{"c": "d"}},
		{"finalizers", u.GetFinalizers(), []string{"f"}},
		{"deletionTimestamp", u.GetDeletionTimestamp(), ""},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	if n, ok := u.NestedInt64("spec", "replicas"); !ok || n != 3 {
		t.Errorf("spec.replicas = %d, %v", n, ok)
	}
	if _, ok := u.NestedString("spec", "replicas"); ok {
		t.Errorf("an integer read as a string")
	}
	if _, ok := u.NestedField("spec", "replicas", "deeper"); ok {
		t.Errorf("a path through an integer was found")
	}

	cp := u.DeepCopy()
	cp.SetLabels(nil)
	cp.SetResourceVersion("")
	cp.SetNestedField("x", "spec", "replicas", "deeper")
	if _, ok := cp.NestedField("metadata", "labels"); ok {
		t.Errorf("SetLabels(nil) left labels")
	}
	if _, ok := cp.NestedField("metadata", "resourceVersion"); ok {
		t.Errorf("SetResourceVersion(\"\") left the field")
	}
	if s, _ := cp.NestedString("spec", "replicas", "deeper"); s != "x" {
		t.Errorf("SetNestedField through an integer: %v", cp.Object["spec"])
	}
	if u.GetLabels()["a"] != "b" || u.GetResourceVersion() != "4" {
		t.Errorf("changing the copy changed the original: %v", u.Object)
	}
	cp.RemoveNestedField("spec")
	cp.RemoveNestedField("no", "such", "path")
	if _, ok := cp.Object["spec"]; ok {
		t.Errorf("RemoveNestedField left spec")
	}
}
