package fieldmanager_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/applyschema"
	"platform.io/platform/pkg/apiserver/crd/instance"
	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/fieldmanager"
	"platform.io/platform/pkg/apiserver/openapi"
	"platform.io/platform/pkg/apiserver/registry/builtin"
	"platform.io/platform/pkg/apiserver/registry/core/pod"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// samples holds an object of every kind the staging codec knows, by
// group's first label (core for the core group), version and kind.
const samples = "../../../staging/codec/protobuf/testdata/objects"

// widgetSchema is a custom kind's schema with every shape a custom
// object's fields take: scalars, nested objects, list maps with a
// defaulted key, sets, atomic lists, string maps, open (preserved)
// subtrees and embedded objects.
const widgetSchema = `{"type":"object","properties":{
 "spec":{"type":"object","properties":{
  "replicas":{"type":"integer"},
  "image":{"type":"string"},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port","protocol"],
   "items":{"type":"object","required":["port"],"properties":{"port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"},"name":{"type":"string"}}}},
  "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
  "args":{"type":"array","items":{"type":"string"}},
  "env":{"type":"object","additionalProperties":{"type":"string"}},
  "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
  "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
  "selector":{"type":"object","x-kubernetes-map-type":"atomic","additionalProperties":{"type":"string"}}}},
 "status":{"type":"object","properties":{"ready":{"type":"integer"},"phase":{"type":"string"}}}}}`

// widgets are custom objects of widgetSchema.
var widgets = []string{
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns","labels":{"a":"b"}},"spec":{"replicas":2,"image":"x"}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","finalizers":["f"],"annotations":{"<&>":"\u2028"}},
	  "spec":{"ports":[{"port":80},{"port":9,"protocol":"UDP","name":"d"},{"port":10}],"tags":["b","a",""],"args":["x","x"],"env":{"Z":"1","A":""},
	  "extra":{"n":{"m":[1,{"k":null}],"e":{}},"s":""},"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"t","labels":{"x":"y"}},"spec":{"c":[1]}},
	  "selector":{"a":"b"}},"status":{"ready":1,"phase":"Up"}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"ports":[],"tags":[],"env":{},"extra":{},"selector":{}},"status":{}}`,
	`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":null,"status":null,"other":{"x":1}}`,
}

// TestCreatedFieldsSameAsComparison: a create's managedFields, made
// directly (the fast path), are the same as structured-merge-diff's
// comparison of the empty object with the new one gives (the slow path),
// for a sample of every built-in kind and for custom objects, through
// the main resource and the status subresource.
func TestCreatedFieldsSameAsComparison(t *testing.T) {
	rows := builtin.Resources(builtin.Config{})
	ts, err := openapi.BuildTypedSchema(rows)
	if err != nil {
		t.Fatal(err)
	}
	kinds := 0
	for _, r := range rows {
		group, _, _ := strings.Cut(r.Group, ".")
		if group == "" {
			group = "core"
		}
		raw, err := os.ReadFile(filepath.Join(samples, group, r.Version, r.Kind+".json"))
		if err != nil || r.New == nil {
			continue
		}
		pt, ok := ts.Type(r.GroupVersionKind())
		if !ok {
			continue
		}
		fm := fieldmanager.New(zap.NewNop(), fieldmanager.Config{Type: pt, APIVersion: r.GroupVersion().String(),
			Kind: r.Kind, New: r.New, HasStatus: r.HasStatus})
		kinds++
		t.Run(r.GroupVersion().String()+"/"+r.Kind, func(t *testing.T) { sameCreate(t, fm, r.New, string(raw)) })
	}
	if kinds < 40 {
		t.Fatalf("only %d built-in kinds have a sample and a schema", kinds)
	}
	fm := widgetManager(t)
	for i, w := range widgets {
		t.Run("widget/"+string(rune('a'+i)), func(t *testing.T) { sameCreate(t, fm, newWidget, w) })
	}
}

// FuzzCreatedFields checks the fast path against the comparison on any
// object that decodes as a Pod or as a custom Widget.
func FuzzCreatedFields(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join(samples, "core/v1/Pod.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(raw))
	f.Add(podWith(`,"tier":"a"`, "app:1", `{"name":"A","value":"1"},{"name":"A","value":"2"}`))
	for _, w := range widgets {
		f.Add(w)
	}
	podFM := newManager(&testing.T{}, pod.Resource())
	widgetFM := widgetManager(f)
	f.Fuzz(func(t *testing.T, obj string) {
		sameCreate(t, podFM, pod.Resource().New, obj)
		sameCreate(t, widgetFM, newWidget, obj)
	})
}

func newWidget() meta.Object { return &instance.Object{} }

func widgetManager(t testing.TB) *fieldmanager.FieldManager {
	t.Helper()
	s, errs := structural.Load([]byte(widgetSchema), field.NewPath("schema"))
	if len(errs) > 0 {
		t.Fatalf("schema: %v", errs)
	}
	name, types, err := openapi.ObjectMetaTypes()
	if err != nil {
		t.Fatal(err)
	}
	pt, err := applyschema.Build("com.example.v1.Widget", s, &applyschema.Shared{ObjectMeta: name,
		Deduced: openapi.DeducedType, Untyped: openapi.UntypedType, Types: types})
	if err != nil {
		t.Fatal(err)
	}
	return fieldmanager.New(zap.NewNop(), fieldmanager.Config{Type: pt, APIVersion: "example.com/v1",
		Kind: "Widget", New: newWidget, HasStatus: true})
}

// sameCreate creates raw (skipped when it does not decode) through fm
// and through fm's slow path, as the main resource and as status, and
// fails unless both record the same managedFields.
func sameCreate(t *testing.T, fm *fieldmanager.FieldManager, newObj func() meta.Object, raw string) {
	t.Helper()
	slow := fieldmanager.SlowPath(fm)
	for _, sub := range []string{"", "status"} {
		a, b := newObj(), newObj()
		if json.Unmarshal([]byte(raw), a) != nil || json.Unmarshal([]byte(raw), b) != nil {
			return
		}
		a.GetObjectMeta().ManagedFields, b.GetObjectMeta().ManagedFields = nil, nil
		fm.Update(nil, a, "m", sub)
		slow.Update(nil, b, "m", sub)
		got, want := entriesJSON(t, a), entriesJSON(t, b)
		if got != want {
			t.Fatalf("create of %s through %q:\nfast path %s\nslow path %s", raw, sub, got, want)
		}
	}
}

// entriesJSON is obj's managedFields without their times (each path
// reads the clock on its own).
func entriesJSON(t *testing.T, obj meta.Object) string {
	t.Helper()
	var b strings.Builder
	for _, e := range obj.GetObjectMeta().ManagedFields {
		e.Time = nil
		j, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}
