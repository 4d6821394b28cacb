package structural

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// TestValidateKeywords validates spec.x of a resource whose schema for x
// is the case's, so every message carries upstream's spec.x path.
func TestValidateKeywords(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		value  string
		want   []string
	}{
		{"integer ok", `{"type":"integer"}`, `3`, nil},
		{"integer written as 3.0", `{"type":"integer"}`, `3.0`, nil},
		{"integer given string", `{"type":"integer"}`, `"string"`,
			[]string{`spec.x: Invalid value: "string": spec.x in body must be of type integer: "string"`}},
		{"integer given fraction", `{"type":"integer"}`, `3.5`,
			[]string{`spec.x: Invalid value: "number": spec.x in body must be of type integer: "number"`}},
		{"number given integer", `{"type":"number"}`, `3`, nil},
		{"boolean given string", `{"type":"boolean"}`, `"true"`,
			[]string{`spec.x: Invalid value: "string": spec.x in body must be of type boolean: "string"`}},
		{"object given array", `{"type":"object"}`, `[]`,
			[]string{`spec.x: Invalid value: "array": spec.x in body must be of type object: "array"`}},
		{"array given object", `{"type":"array","items":{"type":"string"}}`, `{}`,
			[]string{`spec.x: Invalid value: "object": spec.x in body must be of type array: "object"`}},
		{"null not nullable", `{"type":"string"}`, `null`,
			[]string{`spec.x: Invalid value: "null": spec.x in body must be of type string: "null"`}},
		{"null nullable", `{"type":"string","nullable":true}`, `null`, nil},
		{"type error hides the rest", `{"type":"string","maxLength":1,"enum":["a"]}`, `12`,
			[]string{`spec.x: Invalid value: "integer": spec.x in body must be of type string: "integer"`}},
		{"enum strings", `{"type":"string","enum":["a","b"]}`, `"c"`,
			[]string{`spec.x: Unsupported value: "c": supported values: "a", "b"`}},
		{"enum numbers", `{"type":"integer","enum":[1,2]}`, `3`,
			[]string{`spec.x: Unsupported value: 3: supported values: "1", "2"`}},
		{"enum number by value", `{"type":"integer","enum":[1,2]}`, `1.0`, nil},
		{"enum objects", `{"type":"object","x-kubernetes-preserve-unknown-fields":true,"enum":[{"a":1}]}`, `{"a":1}`, nil},
		{"format date-time", `{"type":"string","format":"date-time"}`, `"nope"`,
			[]string{`spec.x: Invalid value: "nope": spec.x in body must be of type date-time: "nope"`}},
		{"format date-time ok", `{"type":"string","format":"date-time"}`, `"2026-11-27T10:00:00Z"`, nil},
		{"unknown format ignored", `{"type":"string","format":"color"}`, `"anything"`, nil},
		{"pattern", `{"type":"string","pattern":"^a+$"}`, `"b"`,
			[]string{`spec.x: Invalid value: "b": spec.x in body should match '^a+$'`}},
		{"minimum", `{"type":"integer","minimum":1}`, `0`,
			[]string{`spec.x: Invalid value: 0: spec.x in body should be greater than or equal to 1`}},
		{"exclusive minimum", `{"type":"integer","minimum":1,"exclusiveMinimum":true}`, `1`,
			[]string{`spec.x: Invalid value: 1: spec.x in body should be greater than 1`}},
		{"maximum", `{"type":"number","maximum":10}`, `10.5`,
			[]string{`spec.x: Invalid value: 10.5: spec.x in body should be less than or equal to 10`}},
		{"exclusive maximum", `{"type":"integer","maximum":10,"exclusiveMaximum":true}`, `10`,
			[]string{`spec.x: Invalid value: 10: spec.x in body should be less than 10`}},
		{"multipleOf", `{"type":"integer","multipleOf":5}`, `12`,
			[]string{`spec.x: Invalid value: 12: spec.x in body should be a multiple of 5`}},
		{"multipleOf fraction ok", `{"type":"number","multipleOf":0.5}`, `1.5`, nil},
		{"multipleOf inexact fraction ok", `{"type":"number","multipleOf":0.1}`, `0.3`, nil},
		{"multipleOf fraction", `{"type":"number","multipleOf":0.1}`, `0.35`,
			[]string{`spec.x: Invalid value: 0.35: spec.x in body should be a multiple of 0.1`}},
		{"maxLength", `{"type":"string","maxLength":3}`, `"abcd"`,
			[]string{`spec.x: Too long: may not be more than 3 bytes`}},
		{"maxLength counts characters", `{"type":"string","maxLength":3}`, `"äöü"`, nil},
		{"minLength", `{"type":"string","minLength":2}`, `"a"`,
			[]string{`spec.x: Invalid value: "a": spec.x in body should be at least 2 chars long`}},
		{"minItems", `{"type":"array","items":{"type":"integer"},"minItems":2}`, `[1]`,
			[]string{`spec.x: Invalid value: 1: spec.x in body should have at least 2 items`}},
		{"maxItems", `{"type":"array","items":{"type":"integer"},"maxItems":1}`, `[1,2]`,
			[]string{`spec.x: Too many: 2: must have at most 1 item`}},
		{"uniqueItems", `{"type":"array","items":{"type":"integer"},"uniqueItems":true}`, `[1,2,1.0]`,
			[]string{`spec.x: Invalid value: "": spec.x in body shouldn't contain duplicates`}},
		{"minProperties", `{"type":"object","additionalProperties":{"type":"integer"},"minProperties":2}`, `{"a":1}`,
			[]string{`spec.x: Invalid value: 1: spec.x in body should have at least 2 properties`}},
		{"maxProperties", `{"type":"object","additionalProperties":{"type":"integer"},"maxProperties":1}`, `{"a":1,"b":2}`,
			[]string{`spec.x: Too many: 2: must have at most 1 item`}},
		{"required", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `{}`,
			[]string{`spec.x.a: Required value`}},
		{"additionalProperties false", `{"type":"object","additionalProperties":false}`, `{"b":1}`,
			[]string{`spec.x: Invalid value: "b": spec.x.b in body is a forbidden property`}},
		{"additionalProperties schema", `{"type":"object","additionalProperties":{"type":"integer"}}`, `{"k":"v"}`,
			[]string{`spec.x.k: Invalid value: "string": spec.x.k in body must be of type integer: "string"`}},
		{"items", `{"type":"array","items":{"type":"string"}}`, `["a",1]`,
			[]string{`spec.x[1]: Invalid value: "integer": spec.x[1] in body must be of type string: "integer"`}},
		{"int-or-string int", `{"x-kubernetes-int-or-string":true}`, `1`, nil},
		{"int-or-string string", `{"x-kubernetes-int-or-string":true}`, `"50%"`, nil},
		{"int-or-string bool", `{"x-kubernetes-int-or-string":true}`, `true`,
			[]string{`spec.x: Invalid value: "boolean": spec.x in body must be of type integer,string: "boolean"`}},
		{"int-or-string fraction", `{"x-kubernetes-int-or-string":true}`, `1.5`,
			[]string{`spec.x: Invalid value: "number": spec.x in body must be of type integer,string: "number"`}},
		{"preserve unknown untyped", `{"x-kubernetes-preserve-unknown-fields":true}`, `{"any":[1,"two"]}`, nil},
		{"set duplicates", `{"type":"array","items":{"type":"integer"},"x-kubernetes-list-type":"set"}`, `[1,2,1,2]`,
			[]string{`spec.x[2]: Duplicate value: 1`, `spec.x[3]: Duplicate value: 2`}},
		{"map duplicates", `{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name","proto"],
			"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"proto":{"type":"string","default":"TCP"},"v":{"type":"integer"}}}}`,
			`[{"name":"a","proto":"TCP"},{"name":"a","proto":"UDP"},{"name":"a","proto":"TCP","v":1}]`,
			[]string{`spec.x[2]: Duplicate value: {"name":"a","proto":"TCP"}`}},
		{"map absent key differs", `{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name","proto"],
			"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"proto":{"type":"string","default":"TCP"}}}}`,
			`[{"name":"a","proto":"TCP"},{"name":"a"},{"name":"a"}]`,
			[]string{`spec.x[2]: Duplicate value: {"name":"a"}`}},
		{"long set", `{"type":"array","items":{"type":"number"},"x-kubernetes-list-type":"set"}`, `[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,3.0,{"a":1}]`,
			[]string{`spec.x[18]: Duplicate value: 3`, `spec.x[19]: Invalid value: "object": spec.x[19] in body must be of type number: "object"`}},
		{"long map", `{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}}`, `[{"name":"n0"},{"name":"n1"},{"name":"n2"},{"name":"n3"},{"name":"n4"},{"name":"n5"},{"name":"n6"},{"name":"n7"},{"name":"n8"},{"name":"n9"},{"name":"n10"},{"name":"n11"},{"name":"n12"},{"name":"n13"},{"name":"n14"},{"name":"n15"},{"name":"n16"},{"name":"n17"},{"name":"n4"},{}, {}]`,
			[]string{`spec.x[18]: Duplicate value: {"name":"n4"}`, `spec.x[19].name: Required value`, `spec.x[20]: Duplicate value: {}`, `spec.x[20].name: Required value`}},
		{"allOf", `{"type":"integer","allOf":[{"minimum":5},{"maximum":10}]}`, `4`,
			[]string{`spec.x: Invalid value: 4: spec.x in body should be greater than or equal to 5`,
				`spec.x: Invalid value: "": "spec.x" must validate all the schemas (allOf)`}},
		{"anyOf", `{"type":"integer","anyOf":[{"minimum":5},{"maximum":3}]}`, `4`,
			[]string{`spec.x: Invalid value: 4: spec.x in body should be greater than or equal to 5`,
				`spec.x: Invalid value: "": "spec.x" must validate at least one schema (anyOf)`}},
		{"anyOf one valid", `{"type":"integer","anyOf":[{"minimum":5},{"maximum":4}]}`, `4`, nil},
		{"oneOf two valid", `{"type":"integer","oneOf":[{"minimum":1},{"maximum":10}]}`, `5`,
			[]string{`spec.x: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{"oneOf none valid", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}`, `{}`,
			[]string{`spec.x: Invalid value: "": "spec.x" must validate one and only one schema (oneOf). Found none valid`,
				`spec.x.a: Required value`}},
		{"oneOf one valid", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}`, `{"b":"x"}`, nil},
		{"not", `{"type":"integer","not":{"maximum":3}}`, `2`,
			[]string{`spec.x: Invalid value: "": "spec.x" must not validate the schema (not)`}},
		{"embedded resource", `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}`,
			`{"kind":"Pod","metadata":{"name":"a/b"}}`,
			[]string{`spec.x.apiVersion: Required value: must not be empty`, `spec.x.metadata.name: Invalid value: "a/b": may not contain "/"`}},
		{"embedded resource bad apiVersion", `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}`,
			`{"apiVersion":"a/b/c","kind":3}`,
			[]string{`spec.x.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`, `spec.x.kind: Invalid value: 3: must be a string`}},
		{"embedded resource metadata type", `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}`,
			`{"apiVersion":"v1","kind":"Pod","metadata":"x"}`,
			[]string{`spec.x.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type meta.ObjectMeta`}},
		{"embedded resource ok", `{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}`,
			`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"a":"b"}}}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustParse(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{"x":`+c.schema+`}}}}`)
			obj := object(t, `{"spec":{"x":`+c.value+`}}`)
			got := messages(s.Validate(nil, obj))
			if diff := cmp.Diff(c.want, got, cmpEmpty); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})

// TestValidateReasons checks the StatusCause reasons kubectl and clients
// see, which the messages alone do not show.
func TestValidateReasons(t *testing.T) {
	s := mustParse(t, `{"type":"object","required":["r"],"properties":{
		"r":{"type":"string"},
		"t":{"type":"integer"},
		"e":{"type":"string","enum":["a"]},
		"l":{"type":"string","maxLength":1},
		"m":{"type":"array","items":{"type":"integer"},"maxItems":0},
		"f":{"type":"string","format":"ipv4"},
		"d":{"type":"array","items":{"type":"integer"},"x-kubernetes-list-type":"set"},
		"p":{"type":"string","pattern":"^a$"}}}`)
	obj := object(t, `{"t":"x","e":"b","l":"ab","m":[1],"f":"1.2.3","d":[1,1],"p":"b"}`)
	got := reasons(s.Validate(field.NewPath("body"), obj))
	want := []string{"FieldValueDuplicate", "FieldValueNotSupported", "FieldValueTypeInvalid", "FieldValueTooLong",
		"FieldValueTooMany", "FieldValueInvalid", "FieldValueRequired", "FieldValueTypeInvalid"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

// TestValidatePaths checks the path prefix and map-value paths.
func TestValidatePaths(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"labels":{"type":"object","additionalProperties":{"type":"string","maxLength":2}},
		"list":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"}}}}}}}}`)
	obj := object(t, `{"spec":{"labels":{"a.b/c":"long"},"list":[{"n":1},{"n":"two"}]}}`)
	got := messages(s.Validate(field.NewPath("obj"), obj))
	want := []string{
		`obj.spec.labels.a.b/c: Too long: may not be more than 2 bytes`,
		`obj.spec.list[1].n: Invalid value: "string": spec.list[1].n in body must be of type integer: "string"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
