package applyschema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/openapi"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func shared(t *testing.T) *Shared {
	t.Helper()
	name, types, err := openapi.ObjectMetaTypes()
	if err != nil {
		t.Fatal(err)
	}
	return &Shared{ObjectMeta: name, Deduced: openapi.DeducedType, Untyped: openapi.UntypedType, Types: types}
}

func build(t *testing.T, schema string) typed.ParseableType {
	t.Helper()
	s, errs := structural.Load([]byte(schema), field.NewPath("schema"))
	if len(errs) > 0 {
		t.Fatalf("schema: %v", errs)
	}
	pt, err := Build("com.example.v1.Widget", s, shared(t))
	if err != nil {
		t.Fatal(err)
	}
	return pt
}

// describe resolves the type at path (field names, "[]" for list items,
// "*" for map values) and names its shape: "string", "numeric",
// "untyped", "list atomic", "list associative [name]", "map granular
// [a b]", "map atomic", or a named type's name.
func describe(t *testing.T, pt typed.ParseableType, path ...string) string {
	t.Helper()
	s, ref := pt.Schema, pt.TypeRef
	for _, p := range path {
		atom, ok := s.Resolve(ref)
		if !ok {
			t.Fatalf("%v: %s does not resolve", path, p)
		}
		switch {
		case p == "[]" && atom.List != nil:
			ref = atom.List.ElementType
		case p == "*" && atom.Map != nil:
			ref = atom.Map.ElementType
		case atom.Map != nil:
			f, ok := atom.Map.FindField(p)
			if !ok {
				return "no field " + p
			}
			ref = f.Type
		default:
			t.Fatalf("%v: no %s in %+v", path, p, atom)
		}
	}
	if ref.NamedType != nil && !strings.HasPrefix(*ref.NamedType, "com.example") {
		return *ref.NamedType
	}
	atom, ok := s.Resolve(ref)
	if !ok {
		t.Fatalf("%v does not resolve", path)
	}
	var parts []string
	if atom.Scalar != nil {
		parts = append(parts, string(*atom.Scalar))
	}
	if l := atom.List; l != nil {
		d := "list " + string(l.ElementRelationship)
		if len(l.Keys) > 0 {
			d += fmt.Sprint(" ", l.Keys)
		}
		parts = append(parts, d)
	}
	if m := atom.Map; m != nil {
		rel := string(m.ElementRelationship)
		if rel == "" {
			rel = "granular"
		}
		var names []string
		for _, f := range m.Fields {
			names = append(names, f.Name)
		}
		d := "map " + rel
		if len(names) > 0 {
			d += fmt.Sprint(" ", names)
		}
		if m.ElementType.NamedType != nil {
			d += " of " + *m.ElementType.NamedType
		} else if m.ElementType != (smdschema.TypeRef{}) {
			d += " of inline"
		}
		parts = append(parts, d)
	}
	return strings.Join(parts, ", ")
}

const widget = `{"type":"object","properties":{
	"apiVersion":{"type":"string"},
	"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":10}}},
	"spec":{"type":"object","properties":{
		"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port","protocol"],
			"items":{"type":"object","required":["port"],"properties":{
				"port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"},"name":{"type":"string"}}}},
		"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"args":{"type":"array","x-kubernetes-list-type":"atomic","items":{"type":"string"}},
		"plain":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}},
		"labels":{"type":"object","additionalProperties":{"type":"string"}},
		"selector":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"app":{"type":"string"}}},
		"granular":{"type":"object","x-kubernetes-map-type":"granular","properties":{"app":{"type":"string"}}},
		"anything":{"type":"object","additionalProperties":true},
		"open":{"x-kubernetes-preserve-unknown-fields":true},
		"kept":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{
			"inner":{"type":"object","properties":{"x":{"type":"string"}}}}},
		"port":{"x-kubernetes-int-or-string":true},
		"ratio":{"type":"number"},"count":{"type":"integer"},"on":{"type":"boolean"},
		"template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"empty":{"type":"object"}
	}}}}`

// TestBuild: each schema construct converts to the merge type upstream's
// converter gives it.
func TestBuild(t *testing.T) {
	pt := build(t, widget)
	meta := shared(t).ObjectMeta
	cases := []struct {
		path []string
		want string
	}{
		{nil, "map granular [apiVersion kind metadata spec]"},
		{[]string{"apiVersion"}, "string"},
		{[]string{"kind"}, "string"},
		{[]string{"metadata"}, meta},
		{[]string{"spec", "ports"}, "list associative [port protocol]"},
		{[]string{"spec", "ports", "[]"}, "map granular [name port protocol]"},
		{[]string{"spec", "ports", "[]", "port"}, "numeric"},
		{[]string{"spec", "tags"}, "list associative"},
		{[]string{"spec", "args"}, "list atomic"},
		{[]string{"spec", "plain"}, "list atomic"},
		{[]string{"spec", "labels"}, "map granular of inline"},
		{[]string{"spec", "labels", "*"}, "string"},
		{[]string{"spec", "selector"}, "map atomic [app]"},
		{[]string{"spec", "granular"}, "map granular [app]"},
		{[]string{"spec", "anything"}, "map granular of " + openapi.DeducedType},
		{[]string{"spec", "open"}, openapi.DeducedType},
		{[]string{"spec", "kept"}, "map granular [inner] of " + openapi.DeducedType},
		// Upstream carries preserve-unknown-fields down to objects below.
		{[]string{"spec", "kept", "inner"}, "map granular [x] of " + openapi.DeducedType},
		{[]string{"spec", "port"}, "untyped"},
		{[]string{"spec", "ratio"}, "numeric"},
		{[]string{"spec", "count"}, "numeric"},
		{[]string{"spec", "on"}, "boolean"},
		{[]string{"spec", "template"}, "map granular [apiVersion kind metadata] of " + openapi.DeducedType},
		{[]string{"spec", "template", "metadata"}, meta},
		{[]string{"spec", "empty"}, "map granular of " + openapi.DeducedType},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.path, "."), func(t *testing.T) {
			if got := describe(t, pt, c.path...); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestMerge: what merging one manager's object over another's keeps,
// list by list, as apply merges configurations.
func TestMerge(t *testing.T) {
	pt := build(t, widget)
	cases := []struct {
		name       string
		a, b, want string
	}{
		{"map list entries merge by key",
			`{"spec":{"ports":[{"port":80,"protocol":"TCP","name":"http"}]}}`,
			`{"spec":{"ports":[{"port":443,"protocol":"TCP","name":"https"}]}}`,
			`{"spec":{"ports":[{"name":"http","port":80,"protocol":"TCP"},{"name":"https","port":443,"protocol":"TCP"}]}}`},
		{"a map list entry merges field by field",
			`{"spec":{"ports":[{"port":80,"protocol":"TCP","name":"http"}]}}`,
			`{"spec":{"ports":[{"port":80,"protocol":"TCP","name":"web"}]}}`,
			`{"spec":{"ports":[{"name":"web","port":80,"protocol":"TCP"}]}}`},
		{"set lists merge",
			`{"spec":{"tags":["a","b"]}}`, `{"spec":{"tags":["c"]}}`, `{"spec":{"tags":["a","b","c"]}}`},
		{"atomic lists are replaced",
			`{"spec":{"args":["a","b"]}}`, `{"spec":{"args":["c"]}}`, `{"spec":{"args":["c"]}}`},
		{"lists without a list type are replaced",
			`{"spec":{"plain":[{"a":"x"}]}}`, `{"spec":{"plain":[{"a":"y"}]}}`, `{"spec":{"plain":[{"a":"y"}]}}`},
		{"atomic maps are replaced",
			`{"spec":{"selector":{"app":"x"}}}`, `{"spec":{"selector":{}}}`, `{"spec":{"selector":{}}}`},
		{"granular maps merge",
			`{"spec":{"labels":{"a":"1"}}}`, `{"spec":{"labels":{"b":"2"}}}`, `{"spec":{"labels":{"a":"1","b":"2"}}}`},
		{"open objects merge key by key",
			`{"spec":{"open":{"x":1}}}`, `{"spec":{"open":{"y":2}}}`, `{"spec":{"open":{"x":1,"y":2}}}`},
		{"metadata merges as ObjectMeta",
			`{"metadata":{"finalizers":["a"],"labels":{"x":"1"}}}`, `{"metadata":{"finalizers":["b"],"labels":{"y":"2"}}}`,
			`{"metadata":{"finalizers":["a","b"],"labels":{"x":"1","y":"2"}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := parse(t, pt, c.a), parse(t, pt, c.b)
			merged, err := a.Merge(b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(merged.AsValue().Unstructured())
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func parse(t *testing.T, pt typed.ParseableType, obj string) *typed.TypedValue {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(obj), &v); err != nil {
		t.Fatal(err)
	}
	tv, err := pt.FromUnstructured(v)
	if err != nil {
		t.Fatalf("%s: %v", obj, err)
	}
	return tv
}

// TestBuildRefuses: values of the wrong type and fields the schema does
// not name are refused where the schema is closed, and kept where it
// preserves unknown fields.
func TestBuildRefuses(t *testing.T) {
	pt := build(t, widget)
	cases := []struct {
		obj, err string
	}{
		{`{"spec":{"count":"x"}}`, ".spec.count: expected numeric"},
		{`{"spec":{"nope":1}}`, ".spec.nope: field not declared in schema"},
		{`{"spec":{"ports":[{"port":80,"protocol":"TCP"},{"port":80,"protocol":"TCP"}]}}`, "duplicate entries"},
		{`{"spec":{"open":{"any":[1,"x"]},"kept":{"extra":true},"port":"http","template":{"apiVersion":"v1","kind":"Pod","spec":{}}}}`, ""},
		{`{"metadata":{"name":"a","nope":1}}`, ".metadata.nope: field not declared in schema"},
	}
	for _, c := range cases {
		t.Run(c.obj, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(c.obj), &v); err != nil {
				t.Fatal(err)
			}
			_, err := pt.FromUnstructured(v)
			switch {
			case c.err == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("got error %v, want one with %q", err, c.err)
			}
		})
	}
}

// BenchmarkBuild measures converting a schema, which happens once per
// version each time a definition's rows are built.
func BenchmarkBuild(b *testing.B) {
	s, errs := structural.Load([]byte(widget), field.NewPath("schema"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	name, types, err := openapi.ObjectMetaTypes()
	if err != nil {
		b.Fatal(err)
	}
	sh := &Shared{ObjectMeta: name, Deduced: openapi.DeducedType, Untyped: openapi.UntypedType, Types: types}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build("com.example.v1.Widget", s, sh); err != nil {
			b.Fatal(err)
		}
	}
}
