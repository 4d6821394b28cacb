package structural

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/platform/pkg/apiserver/validation/field"
)

const root = "spec.versions[0].schema.openAPIV3Schema"

func schemaPath() *field.Path {
	return field.NewPath("spec").Child("versions").Index(0).Child("schema").Child("openAPIV3Schema")
}

// TestCheck checks one rule per case; props is the root's properties.
func TestCheck(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want []string
	}{
		{"valid", `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"replicas":{"type":"integer","default":1,"minimum":0},
			"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port"],
				"items":{"type":"object","required":["port"],"properties":{"port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"}}}},
			"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
			"labels":{"type":"object","x-kubernetes-map-type":"granular","additionalProperties":{"type":"string"}},
			"port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
			"any":{"x-kubernetes-preserve-unknown-fields":true},
			"template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},
			"oneOf":[{"required":["replicas"]},{"required":["port"]}]},
			"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":20}}}}}`, nil},
		{"untyped field", `{"type":"object","properties":{"spec":{"properties":{}}}}`,
			[]string{root + ".properties[spec].type: Required value: must not be empty for specified object fields"}},
		{"untyped items", `{"type":"object","properties":{"l":{"type":"array","items":{}}}}`,
			[]string{root + ".properties[l].items.type: Required value: must not be empty for specified array items"}},
		{"untyped root", `{"properties":{}}`,
			[]string{root + ".type: Required value: must not be empty at the root"}},
		{"root not object", `{"type":"string"}`,
			[]string{root + ".type: Invalid value: \"string\": must be object at the root"}},
		{"array without items", `{"type":"object","properties":{"l":{"type":"array"}}}`,
			[]string{root + ".properties[l].items: Required value: must be specified"}},
		{"additionalProperties at root", `{"type":"object","additionalProperties":{"type":"string"}}`,
			[]string{root + ".additionalProperties: Forbidden: must not be used at the root"}},
		{"properties and additionalProperties", `{"type":"object","properties":{"m":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}}}`,
			[]string{root + ".properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"}},
		{"type null", `{"type":"object","properties":{"n":{"type":"null"}}}`,
			[]string{root + ".properties[n].type: Forbidden: type cannot be set to null"}},
		{"type unknown", `{"type":"object","properties":{"n":{"type":"int"}}}`,
			[]string{root + `.properties[n].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`}},
		{"uniqueItems", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},"uniqueItems":true}}}`,
			[]string{root + ".properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"}},
		{"preserve false", `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":false}}}`,
			[]string{root + ".properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"}},
		{"bad pattern", `{"type":"object","properties":{"a":{"type":"string","pattern":"(a"}}}`,
			[]string{root + ".properties[a].pattern: Invalid value: \"(a\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(a`"}},
		{"type inside allOf", `{"type":"object","properties":{"a":{"type":"string","allOf":[{"type":"string","description":"d","nullable":true,"default":"x"}]}}}`,
			[]string{
				root + ".properties[a].allOf[0].default: Forbidden: must be undefined to be structural",
				root + ".properties[a].allOf[0].description: Forbidden: must be empty to be structural",
				root + ".properties[a].allOf[0].nullable: Forbidden: must be false to be structural",
				root + ".properties[a].allOf[0].type: Forbidden: must be empty to be structural",
			}},
		{"structure inside not", `{"type":"object","properties":{"a":{"type":"object","not":{"additionalProperties":{"type":"string"},"x-kubernetes-list-type":"set","properties":{"metadata":{"maxLength":1}}}}}}`,
			[]string{
				root + ".properties[a].not.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
				root + ".properties[a].not.additionalProperties: Forbidden: must be undefined to be structural",
				root + ".properties[a].not.properties[metadata]: Forbidden: must not be specified in a nested context",
				root + ".properties[a].not.x-kubernetes-list-type: Forbidden: must be undefined to be structural",
			}},
		{"junctor names unspecified property", `{"type":"object","anyOf":[{"properties":{"spec":{"properties":{"x":{"minimum":1}}}}}],"properties":{"spec":{"type":"object"}}}`,
			[]string{root + ".properties[spec].properties[x]: Required value: because it is defined in " + root + ".anyOf[0].properties[spec].properties[x]"}},
		{"int-or-string shapes", `{"type":"object","properties":{
			"a":{"x-kubernetes-int-or-string":true},
			"b":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}],"allOf":[{"pattern":"x"}]},
			"c":{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]},{"pattern":"x"}]},
			"d":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string","pattern":"x"}]},
			"e":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"string"},{"type":"integer"}]},
			"f":{"x-kubernetes-int-or-string":true,"allOf":[{"pattern":"x"},{"anyOf":[{"type":"integer"},{"type":"string"}]}]}}}`,
			[]string{
				root + ".properties[d].anyOf[0].type: Forbidden: must be empty to be structural",
				root + ".properties[d].anyOf[1].type: Forbidden: must be empty to be structural",
				root + ".properties[e].anyOf[0].type: Forbidden: must be empty to be structural",
				root + ".properties[e].anyOf[1].type: Forbidden: must be empty to be structural",
				root + ".properties[f].allOf[1].anyOf[0].type: Forbidden: must be empty to be structural",
				root + ".properties[f].allOf[1].anyOf[1].type: Forbidden: must be empty to be structural",
			}},
		{"junctors incomplete, nested", `{"type":"object","properties":{"b":{"type":"object","properties":{"b":{"type":"array","items":{"type":"string"}}}},"c":{"type":"array","items":{"type":"object"}}},
			"not":{"properties":{"b":{"not":{"properties":{"a":{},"b":{"items":{}}}}},"c":{"items":{"not":{"items":{}}}}}}}`,
			[]string{
				root + ".properties[b].properties[a]: Required value: because it is defined in " + root + ".not.properties[b].not.properties[a]",
				root + ".properties[c].items.items: Required value: because it is defined in " + root + ".not.properties[c].items.not.items",
			}},
		{"root metadata value validation", `{"type":"object","properties":{"metadata":{"minimum":42}}}`,
			[]string{
				root + `.properties[metadata].type: Invalid value: "": must be object`,
				root + ".properties[metadata].type: Required value: must not be empty for specified object fields",
				root + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
			}},
		{"root metadata name and generateName", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","pattern":"^[a-z]+$"},"generateName":{"type":"string"}}}}}`, nil},
		{"int-or-string with preserve", `{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
			[]string{root + ".properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"}},
		{"int-or-string allOf pattern", `{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]},{"pattern":"^[0-9]+%?$"}]}}}`, nil},
		{"embedded not object", `{"type":"object","properties":{"e":{"type":"string","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
			[]string{root + `.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`}},
		{"embedded without properties", `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true}}}`,
			[]string{root + ".properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"}},
		{"root metadata beyond name", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}`,
			[]string{root + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}},
		{"root metadata not object", `{"type":"object","properties":{"metadata":{"type":"string"}}}`,
			[]string{root + `.properties[metadata].type: Invalid value: "string": must be object`}},
		{"root kind not string", `{"type":"object","properties":{"kind":{"type":"integer"}}}`,
			[]string{root + `.properties[kind].type: Invalid value: "integer": must be string`}},
		{"list type unknown", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"bag"}}}`,
			[]string{root + `.properties[l].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`}},
		{"list type on object", `{"type":"object","properties":{"l":{"type":"object","x-kubernetes-list-type":"atomic"}}}`,
			[]string{root + `.properties[l].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`}},
		{"map keys without map", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},"x-kubernetes-list-map-keys":["a"]}}}`,
			[]string{root + ".properties[l].x-kubernetes-list-map-keys: Forbidden: must not be specified if x-kubernetes-list-type is not map"}},
		{"map without keys", `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","items":{"type":"object","properties":{"a":{"type":"string"}}}}}}`,
			[]string{root + ".properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map"}},
		{"map key not required", `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a"],"items":{"type":"object","properties":{"a":{"type":"string","nullable":true}}}}}}`,
			[]string{
				root + ".properties[l].items.properties[a].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
				root + ".properties[l].items.properties[a].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
			}},
		{"map key not a property", `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["b"],"items":{"type":"object","properties":{"a":{"type":"string"}}}}}}`,
			[]string{root + `.properties[l].x-kubernetes-list-map-keys: Invalid value: ["b"]: entries must all be names of item properties`}},
		{"map key not scalar", `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a"],"items":{"type":"object","required":["a"],"properties":{"a":{"type":"object"}}}}}}`,
			[]string{root + `.properties[l].items.properties[a].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`}},
		{"set of granular maps", `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object","properties":{"a":{"type":"string"}}}}}}`,
			[]string{root + `.properties[l].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`}},
		{"map type unknown", `{"type":"object","properties":{"m":{"type":"object","x-kubernetes-map-type":"loose","additionalProperties":{"type":"string"}}}}`,
			[]string{root + `.properties[m].x-kubernetes-map-type: Unsupported value: "loose": supported values: "atomic", "granular"`}},
		{"default of wrong type", `{"type":"object","properties":{"r":{"type":"integer","default":"one"}}}`,
			[]string{root + `.properties[r].default: Invalid value: "string": . in body must be of type integer: "string"`}},
		{"default with unknown field", `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}},"default":{"a":"x","b":"y"}}}}`,
			[]string{root + `.properties[o].default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields`}},
		{"default breaking nested rule", `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string","maxLength":1}},"default":{"a":"xy"}}}}`,
			[]string{root + `.properties[o].default.a: Too long: may not be more than 1 byte`}},
		{"defaults wait for a sound schema", `{"type":"object","properties":{"r":{"type":"integer","default":"one"},"u":{"type":"array"}}}`,
			[]string{root + ".properties[u].items: Required value: must be specified"}},
		{"required not a property", `{"type":"object","properties":{"o":{"type":"object","required":["b"],"properties":{"a":{"type":"string"}}}}}`,
			[]string{root + `.properties[o].required[0]: Invalid value: "b": must be the name of a property, or the schema must preserve unknown fields`}},
		{"required metadata at the root", `{"type":"object","required":["metadata","spec"],"properties":{"spec":{"type":"object"}}}`, nil},
		{"required under preserve", `{"type":"object","properties":{"o":{"type":"object","required":["b"],"x-kubernetes-preserve-unknown-fields":true}}}`, nil},
		{"negative bound", `{"type":"object","properties":{"s":{"type":"string","maxLength":-1}}}`,
			[]string{root + `.properties[s].maxLength: Invalid value: -1: must be greater than or equal to 0`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustParse(t, c.doc)
			got := messages(s.Check(schemaPath()))
			if diff := cmp.Diff(c.want, got, cmpEmpty); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"a":{"type":"string","format":"color"},"b":{"type":"string","format":"date-time"},
		"c":{"type":"integer","format":"int32"},"d":{"type":"integer","format":"byte"}}}`)
	want := []string{
		root + `.properties[a].format: unrecognized format "color"`,
		root + `.properties[d].format: unrecognized format "byte"`,
	}
	if diff := cmp.Diff(want, s.Warnings(schemaPath())); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
