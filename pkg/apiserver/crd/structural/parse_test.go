package structural

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRefuses(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want []string // ParseError messages under the schema path
	}{
		{"$ref", `{"type":"object","properties":{"a":{"$ref":"#/definitions/x"}}}`,
			[]string{root + ".properties[a].$ref: Forbidden: $ref is not supported"}},
		{"definitions", `{"type":"object","definitions":{"x":{"type":"string"}}}`,
			[]string{root + ".definitions: Forbidden: definitions is not supported"}},
		{"dependencies", `{"type":"object","dependencies":{"a":["b"]}}`,
			[]string{root + ".dependencies: Forbidden: dependencies is not supported"}},
		{"patternProperties", `{"type":"object","patternProperties":{"^a":{"type":"string"}}}`,
			[]string{root + ".patternProperties: Forbidden: patternProperties is not supported"}},
		{"additionalItems", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},"additionalItems":false}}}`,
			[]string{root + ".properties[l].additionalItems: Forbidden: additionalItems is not supported"}},
		{"id", `{"id":"x","type":"object"}`, []string{root + ".id: Forbidden: id is not supported"}},
		{"items array", `{"type":"object","properties":{"l":{"type":"array","items":[{"type":"string"}]}}}`,
			[]string{root + ".properties[l].items: Forbidden: items must be a schema object and not an array"}},
		{"items array in a junctor", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},"not":{"items":[{"type":"string"}]}}}}`,
			[]string{root + ".properties[l].not.items: Forbidden: items must be a schema object and not an array"}},
		{"unknown keyword deep", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","formt":"date"}}}}`,
			[]string{root + ".properties[a].items.formt: Forbidden: unknown field"}},
		{"unknown in junctor", `{"type":"object","allOf":[{"minimum":1,"bogus":true}]}`,
			[]string{root + ".allOf[0].bogus: Forbidden: unknown field"}},
		{"unknown in rule", `{"type":"object","x-kubernetes-validations":[{"rule":"true","severity":"x"}]}`,
			[]string{root + ".x-kubernetes-validations[0].severity: Forbidden: unknown field"}},
		{"property not a schema", `{"type":"object","properties":{"a":"string"}}`,
			[]string{root + `.properties[a]: Invalid value: "string": must be a schema object`}},
		{"several, sorted by path", `{"type":"object","properties":{"b":{"$ref":"x"},"a":{"id":"y"}}}`,
			[]string{root + ".properties[a].id: Forbidden: id is not supported", root + ".properties[b].$ref: Forbidden: $ref is not supported"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.doc))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse error %v, want a *ParseError", err)
			}
			if diff := cmp.Diff(c.want, messages(pe.Under(schemaPath()))); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMalformed(t *testing.T) {
	for _, doc := range []string{``, `[]`, `"x"`, `{"type":"object"} {}`, `{"type":["string","null"]}`, `{"maxLength":"3"}`, `{"properties":`} {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("Parse(%q) accepted", doc)
		}
	}
}

func TestParseDepth(t *testing.T) {
	nest := func(n int) string {
		return strings.Repeat(`{"type":"array","items":`, n) + `{"type":"string"}` + strings.Repeat(`}`, n)
	}
	if _, err := Parse([]byte(nest(MaxDepth))); err != nil {
		t.Fatalf("depth %d refused: %v", MaxDepth, err)
	}
	_, err := Parse([]byte(nest(MaxDepth + 1)))
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(pe.Error(), "must not nest schemas more than 128 deep") {
		t.Fatalf("depth %d: %v", MaxDepth+1, err)
	}
}

// TestParseNumbers checks default, enum and example numbers follow the
// tree convention, large integers keeping their precision.
func TestParseNumbers(t *testing.T) {
	s := mustParse(t, `{"type":"object","properties":{
		"i":{"type":"integer","default":9007199254740993,"enum":[1,2.5,9007199254740993]},
		"o":{"type":"object","properties":{"n":{"type":"number"}},"default":{"n":1.0,"l":[3]}},
		"x":{"type":"string","example":7},
		"m":{"type":"object","additionalProperties":{"type":"integer","default":4}},
		"l":{"type":"array","items":{"type":"integer","default":5}},
		"j":{"type":"integer","allOf":[{"enum":[6]}],"not":{"enum":[7]}}}}`)
	checks := []struct {
		name      string
		got, want any
	}{
		{"default", s.Properties["i"].Default, int64(9007199254740993)},
		{"enum", s.Properties["i"].Enum, []any{int64(1), 2.5, int64(9007199254740993)}},
		{"object default", s.Properties["o"].Default, map[string]any{"n": float64(1), "l": []any{int64(3)}}},
		{"example", s.Properties["x"].Example, int64(7)},
		{"additionalProperties", s.Properties["m"].AdditionalProperties.Schema.Default, int64(4)},
		{"items", s.Properties["l"].Items.Default, int64(5)},
		{"allOf", s.Properties["j"].AllOf[0].Enum, []any{int64(6)}},
		{"not", s.Properties["j"].Not.Enum, []any{int64(7)}},
	}
	for _, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestParseKeepsEverything checks every keyword lands in its field.
func TestParseKeepsEverything(t *testing.T) {
	s := mustParse(t, `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","title":"T","description":"D",
		"externalDocs":{"url":"https://example.com"},"x-kubernetes-validations":[{"rule":"self.a > 0","message":"m","fieldPath":".a","reason":"FieldValueForbidden","optionalOldSelf":true}],
		"properties":{"a":{"type":"integer","format":"int32","nullable":true,"maximum":3,"exclusiveMaximum":true,"minimum":1,"exclusiveMinimum":true,"multipleOf":1}},
		"required":["a"],"minProperties":1,"maxProperties":3}`)
	if s.SchemaURI == "" || s.Title != "T" || s.Description != "D" || s.ExternalDocs.URL != "https://example.com" ||
		len(s.Validations) != 1 || *s.Validations[0].Reason != "FieldValueForbidden" || !*s.Validations[0].OptionalOldSelf ||
		*s.MinProperties != 1 || *s.MaxProperties != 3 || s.Required[0] != "a" {
		t.Errorf("root keywords lost: %+v", s)
	}
	a := s.Properties["a"]
	if a.Format != "int32" || !a.Nullable || *a.Maximum != 3 || !a.ExclusiveMaximum || *a.Minimum != 1 || !a.ExclusiveMinimum || *a.MultipleOf != 1 {
		t.Errorf("property keywords lost: %+v", a)
	}
}

func TestLoad(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want []string
	}{
		{"valid", `{"type":"object","properties":{"spec":{"type":"object"}}}`, nil},
		{"refused keyword", `{"type":"object","$ref":"x"}`, []string{root + ".$ref: Forbidden: $ref is not supported"}},
		{"not structural", `{"type":"object","properties":{"spec":{}}}`,
			[]string{root + ".properties[spec].type: Required value: must not be empty for specified object fields"}},
		{"not JSON", `{`, []string{root + `: Invalid value: "": structural: decoding the schema: unexpected EOF`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, errs := Load([]byte(c.doc), schemaPath())
			if diff := cmp.Diff(c.want, messages(errs), cmpEmpty); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if (s == nil) != (len(c.want) > 0) {
				t.Errorf("schema %v with errors %v", s, c.want)
			}
		})
	}
}
