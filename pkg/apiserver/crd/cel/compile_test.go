package cel

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompileErrors checks that each invalid rule is refused at the path
// of the offending field.
func TestCompileErrors(t *testing.T) {
	const at = "spec.validation.openAPIV3Schema.properties[x].x-kubernetes-validations[0]."
	cases := []struct {
		name, prop, rule string
		want             string // field of the one error, after at
		detail           string // a part of its message
	}{
		{"syntax", `{"type":"integer"}`, `{"rule":"self >"}`, "rule", "compilation failed: ERROR: <input>:1:7"},
		{"not bool", `{"type":"integer"}`, `{"rule":"self + 1"}`, "rule", "rule must evaluate to bool, not int"},
		{"empty rule", `{"type":"integer"}`, `{"rule":" "}`, "rule", "Required value"},
		{"messageExpression not string", `{"type":"integer"}`, `{"rule":"self > 0","messageExpression":"self"}`,
			"messageExpression", "messageExpression must evaluate to string, not int"},
		{"messageExpression syntax", `{"type":"integer"}`, `{"rule":"self > 0","messageExpression":"'a' +"}`,
			"messageExpression", "compilation failed"},
		{"blank message", `{"type":"integer"}`, `{"rule":"self > 0","message":" "}`, "message", "message must be non-empty if specified"},
		{"multi-line message", `{"type":"integer"}`, `{"rule":"self > 0","message":"a\nb"}`, "message", "message must not contain line breaks"},
		{"blank messageExpression", `{"type":"integer"}`, `{"rule":"self > 0","messageExpression":" "}`,
			"messageExpression", "messageExpression must be non-empty if specified"},
		{"reason", `{"type":"integer"}`, `{"rule":"self > 0","reason":"FieldValueBad"}`, "reason",
			`Unsupported value: "FieldValueBad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`},
		{"fieldPath unknown field", `{"type":"object","properties":{"a":{"type":"integer"}}}`,
			`{"rule":"true","fieldPath":".b"}`, "fieldPath", "does not refer to a valid field: b"},
		{"fieldPath syntax", `{"type":"object","properties":{"a":{"type":"integer"}}}`,
			`{"rule":"true","fieldPath":"a"}`, "fieldPath", "expected [ or . but got: a"},
		{"fieldPath list index", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer"}}}}`,
			`{"rule":"true","fieldPath":".a[0]"}`, "fieldPath", "list indexes are not supported"},
		{"fieldPath into scalar", `{"type":"object","properties":{"a":{"type":"integer"}}}`,
			`{"rule":"true","fieldPath":".a.b"}`, "fieldPath", "b is not an object or map"},
		{"optionalOldSelf without oldSelf", `{"type":"integer"}`, `{"rule":"self > 0","optionalOldSelf":true}`,
			"optionalOldSelf", "may not be set to true for non-transition rules"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs := Compile(schema(t, `{"type":"object","properties":{"x":{"x-kubernetes-validations":[`+c.rule+`],`+
				strings.TrimPrefix(c.prop, "{")+`}}`), root, Options{})
			if len(errs) != 1 {
				t.Fatalf("got %d errors: %v", len(errs), errStrings(errs))
			}
			if errs[0].Field != at+c.want || !strings.Contains(errs[0].Error(), c.detail) {
				t.Fatalf("got %q, want field %q with %q", errs[0].Error(), at+c.want, c.detail)
			}
		})
	}
}

// TestTransitionRulesNeedCorrelation checks that oldSelf is refused
// under atomic and set lists, whose items have no old value, and allowed
// under list-type map lists.
func TestTransitionRulesNeedCorrelation(t *testing.T) {
	cases := []struct {
		listType string
		wantErr  bool
	}{
		{`"atomic"`, true},
		{`"set"`, true},
		{`"map","x-kubernetes-list-map-keys":["k"]`, false},
	}
	for _, c := range cases {
		t.Run(c.listType, func(t *testing.T) {
			_, errs := Compile(schema(t, `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":`+c.listType+`,
				"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer"}},
				"x-kubernetes-validations":[{"rule":"self.v >= oldSelf.v"}]}}}}`), root, Options{})
			if got := len(errs) > 0; got != c.wantErr {
				t.Fatalf("errors %v, want error %v", errStrings(errs), c.wantErr)
			}
			if c.wantErr && !strings.Contains(errs[0].Error(), "oldSelf cannot be used on the uncorrelatable portion of the schema") {
				t.Fatalf("got %v", errs[0])
			}
		})
	}
}

// TestCompileReportsEveryRule checks that all failing rules are
// reported, each at its own path.
func TestCompileReportsEveryRule(t *testing.T) {
	_, errs := Compile(schema(t, `{"type":"object","x-kubernetes-validations":[{"rule":"self.a"},{"rule":"true"}],
		"properties":{"m":{"type":"object","additionalProperties":{"type":"string","x-kubernetes-validations":[{"rule":"self == 1"}]}},
		"l":{"type":"array","items":{"type":"integer","x-kubernetes-validations":[{"rule":"self"}]}}}}`), root, Options{})
	var got []string
	for _, e := range errs {
		got = append(got, e.Field)
	}
	want := []string{
		"spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule",
		"spec.validation.openAPIV3Schema.properties[l].items.x-kubernetes-validations[0].rule",
		"spec.validation.openAPIV3Schema.properties[m].additionalProperties.x-kubernetes-validations[0].rule",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("error fields (-want +got):\n%s", diff)
	}
}

// TestNoRules checks that a schema without rules compiles to a Validator
// that accepts anything.
func TestNoRules(t *testing.T) {
	for _, js := range []string{`{"type":"object","properties":{"a":{"type":"integer"}}}`, `null`} {
		v := mustCompile(t, js, Options{})
		if errs := validate(t, v, `{"a":"not an integer"}`, `{"a":1}`); len(errs) != 0 {
			t.Fatalf("%s: %v", js, errStrings(errs))
		}
	}
}
