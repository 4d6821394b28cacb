package cel

import (
	"fmt"
	"testing"
)

// TestTypeMapping checks that self has the CEL type of each schema kind:
// each rule type-checks only under the mapped type and passes on the
// good object and fails on the bad one.
func TestTypeMapping(t *testing.T) {
	cases := []struct {
		name      string
		prop      string // the schema of property x
		rule      string // a rule at the root
		good, bad string // values of x
	}{
		{"object", `{"type":"object","properties":{"a":{"type":"integer"}}}`, `self.x.a > 1`, `{"a":2}`, `{"a":1}`},
		{"object has", `{"type":"object","properties":{"a":{"type":"integer"}}}`, `has(self.x.a)`, `{"a":2}`, `{}`},
		{"map", `{"type":"object","additionalProperties":{"type":"string","maxLength":10}}`,
			`self.x.all(k, self.x[k].size() < 3)`, `{"p":"ab"}`, `{"p":"abc"}`},
		{"map has key", `{"type":"object","additionalProperties":{"type":"integer"}}`, `'p' in self.x`, `{"p":1}`, `{"q":1}`},
		{"list", `{"type":"array","maxItems":5,"items":{"type":"integer"}}`, `self.x.exists(i, i == 3)`, `[1,3]`, `[1,2]`},
		{"list of objects", `{"type":"array","maxItems":5,"items":{"type":"object","properties":{"n":{"type":"string","maxLength":5}}}}`,
			`self.x.all(i, i.n != 'bad')`, `[{"n":"ok"}]`, `[{"n":"bad"}]`},
		{"set equality ignores order", `{"type":"array","x-kubernetes-list-type":"set","maxItems":5,"items":{"type":"integer"}}`,
			`self.x == [2, 1]`, `[1,2]`, `[1,3]`},
		{"atomic equality keeps order", `{"type":"array","maxItems":5,"items":{"type":"integer"}}`,
			`self.x == [1, 2]`, `[1,2]`, `[2,1]`},
		{"integer", `{"type":"integer"}`, `self.x + 1 == 3`, `2`, `3`},
		{"number from integer", `{"type":"number"}`, `self.x / 2.0 == 1.5`, `3`, `4`},
		{"number", `{"type":"number"}`, `self.x > 0.5`, `0.75`, `0.25`},
		{"boolean", `{"type":"boolean"}`, `self.x`, `true`, `false`},
		{"string", `{"type":"string"}`, `self.x.startsWith('a')`, `"ab"`, `"ba"`},
		{"byte", `{"type":"string","format":"byte"}`, `self.x == b'hi'`, `"aGk="`, `"aG8="`},
		{"date", `{"type":"string","format":"date"}`, `self.x < timestamp('2030-01-01T00:00:00Z')`, `"2029-12-31"`, `"2030-01-02"`},
		{"date-time", `{"type":"string","format":"date-time"}`, `self.x.getFullYear() == 2024`, `"2024-05-01T10:00:00Z"`, `"2023-05-01T10:00:00Z"`},
		{"duration", `{"type":"string","format":"duration"}`, `self.x > duration('1m')`, `"90s"`, `"30s"`},
		{"int-or-string int", `{"x-kubernetes-int-or-string":true}`,
			`type(self.x) == int ? self.x < 5 : self.x.endsWith('%')`, `4`, `6`},
		{"int-or-string string", `{"x-kubernetes-int-or-string":true}`,
			`type(self.x) == int ? self.x < 5 : self.x.endsWith('%')`, `"50%"`, `"50"`},
		{"preserve-unknown-fields", `{"type":"object","x-kubernetes-preserve-unknown-fields":true}`,
			`self.x.a.b == 1`, `{"a":{"b":1}}`, `{"a":{"b":2}}`},
		{"escaped names", `{"type":"object","properties":{"a-b":{"type":"integer"},"namespace":{"type":"integer"},"c.d":{"type":"integer"}}}`,
			`self.x.a__dash__b + self.x.__namespace__ + self.x.c__dot__d == 3`, `{"a-b":1,"namespace":1,"c.d":1}`, `{"a-b":1,"namespace":1,"c.d":2}`},
		{"nullable reads as absent", `{"type":"object","properties":{"a":{"type":"string","nullable":true}}}`,
			`!has(self.x.a)`, `{"a":null}`, `{"a":"v"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := mustCompile(t, `{"type":"object","properties":{"x":`+c.prop+`},
				"x-kubernetes-validations":[{"rule":`+quote(c.rule)+`}]}`, Options{})
			if errs := validate(t, v, `{"x":`+c.good+`}`, ""); len(errs) != 0 {
				t.Errorf("good value %s: %v", c.good, errs)
			}
			errs := validate(t, v, `{"x":`+c.bad+`}`, "")
			want := fmt.Sprintf(`: Invalid value: "object": failed rule: %s`, c.rule)
			if len(errs) != 1 || errs[0].Error() != want {
				t.Errorf("bad value %s: got %v, want %q", c.bad, errStrings(errs), want)
			}
		})
	}
}

// TestResourceRoot checks that apiVersion, kind and metadata.name are
// typed at the root even when the schema does not declare them.
func TestResourceRoot(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"spec":{"type":"object"}},
		"x-kubernetes-validations":[{"rule":"self.metadata.name.startsWith('a') && self.kind == 'K'"}]}`, Options{})
	if errs := validate(t, v, `{"kind":"K","metadata":{"name":"ab"}}`, ""); len(errs) != 0 {
		t.Errorf("good: %v", errs)
	}
	if errs := validate(t, v, `{"kind":"K","metadata":{"name":"ba"}}`, ""); len(errs) != 1 {
		t.Errorf("bad: %v", errs)
	}
}

// TestTypeErrors checks that the mapped types refuse rules that do not
// type-check.
func TestTypeErrors(t *testing.T) {
	cases := []struct{ prop, rule string }{
		{`{"type":"integer"}`, `self.x == 'a'`},
		{`{"type":"string"}`, `self.x > 1`},
		{`{"type":"object","properties":{"a":{"type":"integer"}}}`, `self.x.b == 1`},
		{`{"type":"object","additionalProperties":{"type":"integer"}}`, `self.x.a == 'v'`},
		{`{"type":"array","items":{"type":"string"}}`, `self.x[0] == 1`},
		{`{"type":"string","format":"date-time"}`, `self.x.startsWith('2')`},
		{`{"type":"string","format":"duration"}`, `self.x == 'a'`},
		{`{"type":"boolean"}`, `self.x == 1`},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			_, errs := Compile(schema(t, `{"type":"object","properties":{"x":`+c.prop+`},
				"x-kubernetes-validations":[{"rule":`+quote(c.rule)+`}]}`), root, Options{})
			if len(errs) != 1 || errs[0].Field != "spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule" {
				t.Fatalf("got %v", errStrings(errs))
			}
		})
	}
}

func quote(s string) string { return fmt.Sprintf("%q", s) }
