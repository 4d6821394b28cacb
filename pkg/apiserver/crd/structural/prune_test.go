package structural

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/meta"
)

const pruneSchema = `{"type":"object","properties":{"spec":{"type":"object","properties":{
	"name":{"type":"string"},
	"list":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}},
	"labels":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"string"}}}},
	"free":{"type":"object","additionalProperties":true},
	"closed":{"type":"object","additionalProperties":false},
	"raw":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"known":{"type":"object","properties":{"k":{"type":"string"}}}}},
	"template":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{"s":{"type":"string"}}}}},
	"rawlist":{"type":"array","x-kubernetes-preserve-unknown-fields":true,"items":{"type":"object","properties":{"p":{"type":"object","properties":{"q":{"type":"string"}}}}}}}}}}`

func TestPrune(t *testing.T) {
	cases := []struct {
		name    string
		root    bool
		in, out string
		removed []string
	}{
		{"root keeps meta fields", true,
			`{"apiVersion":"v1","kind":"K","metadata":{"name":"a","labels":{"x":"y"},"anything":1},"status":{},"spec":{"name":"n","extra":1}}`,
			`{"apiVersion":"v1","kind":"K","metadata":{"name":"a","labels":{"x":"y"}},"spec":{"name":"n"}}`,
			[]string{"metadata.anything", "spec.extra", "status"}},
		{"not root drops them", false, `{"apiVersion":"v1","kind":"K","metadata":{},"spec":{}}`, `{"spec":{}}`, nil},
		{"list items", true, `{"spec":{"list":[{"a":"x","b":"y"},{"c":1}]}}`, `{"spec":{"list":[{"a":"x"},{}]}}`,
			[]string{"spec.list[0].b", "spec.list[1].c"}},
		{"additionalProperties schema", true, `{"spec":{"labels":{"x":{"v":"1","w":"2"}}}}`, `{"spec":{"labels":{"x":{"v":"1"}}}}`,
			[]string{"spec.labels.x.w"}},
		{"additionalProperties true keeps values whole", true, `{"spec":{"free":{"x":{"deep":{"er":1}}}}}`, `{"spec":{"free":{"x":{"deep":{"er":1}}}}}`, nil},
		{"additionalProperties false", true, `{"spec":{"closed":{"x":1}}}`, `{"spec":{"closed":{}}}`, []string{"spec.closed.x"}},
		{"preserve keeps unknown, prunes known", true, `{"spec":{"raw":{"u":{"v":1},"known":{"k":"1","j":"2"}}}}`,
			`{"spec":{"raw":{"u":{"v":1},"known":{"k":"1"}}}}`, []string{"spec.raw.known.j"}},
		{"preserving list", true, `{"spec":{"rawlist":[{"u":1,"p":{"q":"a","r":"b"}}]}}`,
			`{"spec":{"rawlist":[{"u":1,"p":{"q":"a"}}]}}`, []string{"spec.rawlist[0].p.r"}},
		{"embedded resource", true,
			`{"spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","bogus":{}},"spec":{"s":"1","t":"2"},"status":{}}}}`,
			`{"spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"s":"1"}}}}`,
			[]string{"spec.template.metadata.bogus", "spec.template.spec.t", "spec.template.status"}},
		{"scalar where object expected", true, `{"spec":{"list":"x","labels":3}}`, `{"spec":{"list":"x","labels":3}}`, nil},
		{"object under a scalar schema", true, `{"spec":{"name":{"a":{"b":1}}}}`, `{"spec":{"name":{}}}`, []string{"spec.name.a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustParse(t, pruneSchema)
			obj := object(t, c.in)
			removed := s.Prune(obj, c.root)
			if diff := cmp.Diff(tree(t, c.out), any(obj)); diff != "" {
				t.Errorf("pruned (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.removed, removed, cmpEmpty); diff != "" {
				t.Errorf("removed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestObjectMetaFields keeps the pruned metadata fields in step with
// ObjectMeta's JSON names.
func TestObjectMetaFields(t *testing.T) {
	typ := reflect.TypeOf(meta.ObjectMeta{})
	want := map[string]bool{}
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			want[name] = true
		}
	}
	if diff := cmp.Diff(want, objectMetaFields); diff != "" {
		t.Errorf("objectMetaFields (-ObjectMeta +listed):\n%s", diff)
	}
}
