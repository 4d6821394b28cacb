package openapi

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/structural"
)

// absent is the want of a path that must not be in the rendered schema.
const absent = "ABSENT"

// at walks keys through a rendered schema; ok is false when one is missing.
func at(v any, keys ...string) (any, bool) {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

func parseSchema(t testing.TB, doc string) *structural.Schema {
	t.Helper()
	s, err := structural.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Schemas of the conversion tests, one feature each.
const (
	schemaNullable = `{"type":"object","properties":{"spec":{"type":"object","required":["a","b"],"properties":{
		"a":{"type":"object","nullable":true,"properties":{"x":{"type":"string"}}},
		"b":{"type":"string"}}}}}`
	schemaPreserveNested = `{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
		"properties":{"known":{"type":"string"}}},
		"list":{"type":"array","x-kubernetes-preserve-unknown-fields":true,"items":{"type":"string"}}}}`
	schemaPreserveRoot = `{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"spec":{"type":"string"}}}`
	schemaIntOrString  = `{"type":"object","properties":{"port":{"x-kubernetes-int-or-string":true},
		"other":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`
	schemaJunctors = `{"type":"object","properties":{"n":{"type":"integer","oneOf":[{"minimum":1},{"maximum":-1}],"not":{"enum":[0]}}}}`
	schemaKeywords = `{"type":"object","description":"A cron tab.","properties":{"spec":{"type":"object","properties":{
		"replicas":{"type":"integer","minimum":1,"maximum":10,"default":1},
		"mode":{"type":"string","enum":["a","b"],"pattern":"^[ab]$","maxLength":1},
		"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}},
		"labels":{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-map-type":"granular"}},
		"x-kubernetes-validations":[{"rule":"self.replicas < 5","message":"too many"}]}}}`
	schemaEmbedded = `{"type":"object","properties":{"template":{"type":"object","x-kubernetes-embedded-resource":true,
		"properties":{"spec":{"type":"string"}}}}}`
)

// TestCustomSchema converts structural schemas and checks parts of the
// rendered v2 and v3 definitions against upstream's.
func TestCustomSchema(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		v2     bool
		path   []string
		want   string // JSON, or absent
	}{
		{"v3 keeps nullable", schemaNullable, false, []string{"properties", "spec", "properties", "a"},
			`{"type":"object","nullable":true,"properties":{"x":{"type":"string"}}}`},
		{"v3 keeps a nullable field required", schemaNullable, false, []string{"properties", "spec", "required"}, `["a","b"]`},
		{"v2 drops a nullable field's type and properties", schemaNullable, true, []string{"properties", "spec", "properties", "a"}, `{}`},
		{"v2 no longer requires a nullable field", schemaNullable, true, []string{"properties", "spec", "required"}, `["b"]`},
		{"v3 keeps the properties of a node preserving unknown fields", schemaPreserveNested, false, []string{"properties", "spec"},
			`{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"known":{"type":"string"}}}`},
		{"v2 drops them", schemaPreserveNested, true, []string{"properties", "spec"},
			`{"type":"object","x-kubernetes-preserve-unknown-fields":true}`},
		{"v2 drops an array's type with its items", schemaPreserveNested, true, []string{"properties", "list"},
			`{"x-kubernetes-preserve-unknown-fields":true}`},
		{"v3 root preserving unknown fields keeps its properties", schemaPreserveRoot, false, []string{"properties", "spec"}, `{"type":"string"}`},
		{"v3 root gets metadata", schemaPreserveRoot, false, []string{"properties", "metadata", "allOf"},
			`[{"$ref":"#/components/schemas/io.platform.api.meta.v1.ObjectMeta"}]`},
		{"v2 root preserving unknown fields is an open object", schemaPreserveRoot, true, nil, `{"type":"object"}`},
		{"v3 int-or-string unfolds to anyOf", schemaIntOrString, false, []string{"properties", "port"},
			`{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`},
		{"v3 int-or-string with its anyOf is kept as it is", schemaIntOrString, false, []string{"properties", "other"},
			`{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}`},
		{"v2 int-or-string has no anyOf", schemaIntOrString, true, []string{"properties", "other"}, `{"x-kubernetes-int-or-string":true}`},
		{"v3 keeps junctors", schemaJunctors, false, []string{"properties", "n"},
			`{"type":"integer","oneOf":[{"minimum":1},{"maximum":-1}],"not":{"enum":[0]}}`},
		{"v2 drops them", schemaJunctors, true, []string{"properties", "n"}, `{"type":"integer"}`},
		{"value validations and default", schemaKeywords, true, []string{"properties", "spec", "properties", "replicas"},
			`{"type":"integer","minimum":1,"maximum":10,"default":1}`},
		{"enum, pattern, maxLength", schemaKeywords, false, []string{"properties", "spec", "properties", "mode"},
			`{"type":"string","enum":["a","b"],"pattern":"^[ab]$","maxLength":1}`},
		{"list markers", schemaKeywords, false, []string{"properties", "spec", "properties", "ports", "x-kubernetes-list-map-keys"}, `["name"]`},
		{"map values and type", schemaKeywords, true, []string{"properties", "spec", "properties", "labels"},
			`{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-map-type":"granular"}`},
		{"validation rules", schemaKeywords, false, []string{"properties", "spec", "x-kubernetes-validations"},
			`[{"rule":"self.replicas < 5","message":"too many"}]`},
		{"root description", schemaKeywords, true, []string{"description"}, `"A cron tab."`},
		{"v2 metadata", schemaKeywords, true, []string{"properties", "metadata", "$ref"}, `"#/definitions/io.platform.api.meta.v1.ObjectMeta"`},
		{"apiVersion", schemaKeywords, true, []string{"properties", "apiVersion", "type"}, `"string"`},
		{"kind", schemaKeywords, false, []string{"properties", "kind", "type"}, `"string"`},
		{"embedded resource gets type and object metadata", schemaEmbedded, false, []string{"properties", "template", "required"}, `["apiVersion","kind"]`},
		{"embedded resource metadata", schemaEmbedded, true, []string{"properties", "template", "properties", "metadata", "$ref"},
			`"#/definitions/io.platform.api.meta.v1.ObjectMeta"`},
		{"embedded resource keeps its properties", schemaEmbedded, true, []string{"properties", "template", "properties", "spec"}, `{"type":"string"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := customSchema(parseSchema(t, tc.schema), tc.v2)
			rendered := s.v3()
			if tc.v2 {
				rendered = s.v2()
			}
			// Through JSON, as served.
			data, err := json.Marshal(rendered)
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			got, ok := at(doc, tc.path...)
			if tc.want == absent {
				if ok {
					t.Errorf("%v = %v, want none", tc.path, got)
				}
				return
			}
			if !ok {
				t.Fatalf("no %v in %s", tc.path, data)
			}
			var want any
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%v (-want +got):\n%s", tc.path, d)
			}
		})
	}
}

func TestCustomDefName(t *testing.T) {
	tests := []struct {
		group, version, kind, want, word string
	}{
		{"stable.example.com", "v1", "CronTab", "com.example.stable.v1.CronTab", "stableExampleCom"},
		{"example", "v1beta1", "Widget", "example.v1beta1.Widget", "example"},
		{"my-group.example.io", "v2", "Thing", "io.example.my-group.v2.Thing", "my-groupExampleIo"},
	}
	for _, tc := range tests {
		if got := customDefName(meta.GroupVersion{Group: tc.group, Version: tc.version}, tc.kind); got != tc.want {
			t.Errorf("customDefName(%s/%s %s) = %q, want %q", tc.group, tc.version, tc.kind, got, tc.want)
		}
		if got := groupWord(tc.group); got != tc.word {
			t.Errorf("groupWord(%s) = %q, want %q", tc.group, got, tc.word)
		}
	}
	for group, want := range map[string]string{"": "core", "apps": "apps", "rbac.authorization.platform.io": "rbac", "apiextensions.k8s.io": "apiextensions"} {
		if got := groupWord(group); got != want {
			t.Errorf("groupWord(%q) = %q, want %q", group, got, want)
		}
	}
}
