package cel

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// immutable is a schema whose spec.name and each label value may not
// change once set.
const immutable = `{"type":"object","properties":{"spec":{"type":"object","properties":{
	"name":{"type":"string","maxLength":63,"x-kubernetes-validations":[{"rule":"self == oldSelf","message":"name is immutable"}]},
	"labels":{"type":"object","maxProperties":64,"additionalProperties":{"type":"string","maxLength":63,
		"x-kubernetes-validations":[{"rule":"self == oldSelf","message":"label is immutable"}]}}}}}}`

func TestTransitionRules(t *testing.T) {
	v := mustCompile(t, immutable, Options{})
	cases := []struct {
		name     string
		obj, old string
		want     []string
	}{
		{"create: not run", `{"spec":{"name":"a"}}`, ``, nil},
		{"update unchanged", `{"spec":{"name":"a"}}`, `{"spec":{"name":"a"}}`, nil},
		{"update changed", `{"spec":{"name":"b"}}`, `{"spec":{"name":"a"}}`,
			[]string{`spec.name: Invalid value: "string": name is immutable`}},
		{"field newly set: not run", `{"spec":{"name":"b"}}`, `{"spec":{}}`, nil},
		{"map value changed", `{"spec":{"labels":{"a":"1","b":"3"}}}`, `{"spec":{"labels":{"a":"1","b":"2"}}}`,
			[]string{`spec.labels[b]: Invalid value: "string": label is immutable`}},
		{"map key added: not run", `{"spec":{"labels":{"a":"1","c":"3"}}}`, `{"spec":{"labels":{"a":"1"}}}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, errStrings(validate(t, v, c.obj, c.old))); diff != "" {
				t.Fatalf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOptionalOldSelf(t *testing.T) {
	// replicas may only grow; with optionalOldSelf the rule also runs on
	// create, where it requires at least 1.
	v := mustCompile(t, `{"type":"object","properties":{"replicas":{"type":"integer",
		"x-kubernetes-validations":[{"rule":"oldSelf.hasValue() ? self >= oldSelf.value() : self >= 1","optionalOldSelf":true}]}}}`, Options{})
	cases := []struct {
		name     string
		obj, old string
		wantErr  bool
	}{
		{"create ok", `{"replicas":1}`, ``, false},
		{"create refused", `{"replicas":0}`, ``, true},
		{"update grows", `{"replicas":3}`, `{"replicas":2}`, false},
		{"update shrinks", `{"replicas":1}`, `{"replicas":2}`, true},
		{"update sets the field", `{"replicas":0}`, `{}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := validate(t, v, c.obj, c.old)
			if got := len(errs) > 0; got != c.wantErr {
				t.Fatalf("errors %v, want error %v", errStrings(errs), c.wantErr)
			}
		})
	}
}

func TestMessages(t *testing.T) {
	cases := []struct {
		name string
		rule string
		want string
	}{
		{"default", `{"rule":"self.n < 3"}`, `n: Invalid value: "object": failed rule: self.n < 3`},
		{"default joins lines", `{"rule":"self.n <\n  3"}`, `n: Invalid value: "object": failed rule: self.n < 3`},
		{"message", `{"rule":"self.n < 3","message":"n too big"}`, `n: Invalid value: "object": n too big`},
		{"messageExpression", `{"rule":"self.n < 3","message":"n too big","messageExpression":"'n is ' + string(self.n)"}`,
			`n: Invalid value: "object": n is 5`},
		{"blank messageExpression falls back", `{"rule":"self.n < 3","message":"n too big","messageExpression":"' '"}`,
			`n: Invalid value: "object": n too big`},
		{"multi-line messageExpression falls back", `{"rule":"self.n < 3","messageExpression":"'a\\nb'"}`,
			`n: Invalid value: "object": failed rule: self.n < 3`},
		{"failing messageExpression falls back", `{"rule":"self.n < 3","message":"m","messageExpression":"self.missing"}`,
			`n: Invalid value: "object": m`},
		{"reason forbidden", `{"rule":"self.n < 3","message":"m","reason":"FieldValueForbidden"}`, `n: Forbidden: m`},
		{"reason required", `{"rule":"self.n < 3","message":"m","reason":"FieldValueRequired"}`, `n: Required value: m`},
		{"reason duplicate", `{"rule":"self.n < 3","message":"m","reason":"FieldValueDuplicate"}`, `n: Duplicate value: "object"`},
		{"reason invalid", `{"rule":"self.n < 3","message":"m","reason":"FieldValueInvalid"}`, `n: Invalid value: "object": m`},
		{"fieldPath", `{"rule":"self.n < 3","message":"m","fieldPath":".spec.max"}`, `n.spec.max: Invalid value: "object": m`},
		{"fieldPath map key", `{"rule":"self.n < 3","message":"m","fieldPath":".labels['a.b']"}`, `n.labels[a.b]: Invalid value: "object": m`},
		{"fieldPath with reason", `{"rule":"self.n < 3","message":"m","fieldPath":".labels.x","reason":"FieldValueRequired"}`,
			`n.labels[x]: Required value: m`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := mustCompile(t, `{"type":"object","properties":{"n":{"type":"object","x-kubernetes-validations":[`+c.rule+`],
				"properties":{"n":{"type":"integer"},"missing":{"type":"string"},"spec":{"type":"object","properties":{"max":{"type":"integer"}}},
				"labels":{"type":"object","additionalProperties":{"type":"string"}}}}}}`, Options{})
			got := errStrings(validate(t, v, `{"n":{"n":5}}`, ""))
			if diff := cmp.Diff([]string{c.want}, got); diff != "" {
				t.Fatalf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// listMap is a list-type map keyed by name whose items' values may only
// grow.
const listMap = `{"type":"object","properties":{"ports":{"type":"array","x-kubernetes-list-type":"map",
	"x-kubernetes-list-map-keys":["name","proto"],"maxItems":10,
	"items":{"type":"object","required":["name","proto"],"properties":{"name":{"type":"string","maxLength":10},
		"proto":{"type":"string","maxLength":3},"port":{"type":"integer"}},
		"x-kubernetes-validations":[{"rule":"self.port >= oldSelf.port","message":"port may only grow"}]}}}}`

func TestListMapCorrelation(t *testing.T) {
	v := mustCompile(t, listMap, Options{})
	cases := []struct {
		name     string
		obj, old string
		want     []string
	}{
		{"reordered, unchanged",
			`{"ports":[{"name":"b","proto":"TCP","port":2},{"name":"a","proto":"TCP","port":1}]}`,
			`{"ports":[{"name":"a","proto":"TCP","port":1},{"name":"b","proto":"TCP","port":2}]}`, nil},
		{"reordered, one shrank",
			`{"ports":[{"name":"b","proto":"TCP","port":2},{"name":"a","proto":"TCP","port":0}]}`,
			`{"ports":[{"name":"a","proto":"TCP","port":1},{"name":"b","proto":"TCP","port":2}]}`,
			[]string{`ports[1]: Invalid value: "object": port may only grow`}},
		{"same name, other key: new item",
			`{"ports":[{"name":"a","proto":"UDP","port":0}]}`,
			`{"ports":[{"name":"a","proto":"TCP","port":1}]}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, errStrings(validate(t, v, c.obj, c.old))); diff != "" {
				t.Fatalf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRulesAtEveryNode checks that a rule runs at each list item and map
// value, reported at each one's path.
func TestRulesAtEveryNode(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{
		"l":{"type":"array","items":{"type":"integer","x-kubernetes-validations":[{"rule":"self > 0"}]}},
		"m":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string","maxLength":5,
			"x-kubernetes-validations":[{"rule":"self != ''"}]}}}}}`, Options{})
	got := errStrings(validate(t, v, `{"l":[1,0,-1],"m":{"a":["x",""],"b":[""]}}`, ""))
	want := []string{
		`l[1]: Invalid value: "integer": failed rule: self > 0`,
		`l[2]: Invalid value: "integer": failed rule: self > 0`,
		`m[a][1]: Invalid value: "string": failed rule: self != ''`,
		`m[b][0]: Invalid value: "string": failed rule: self != ''`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("errors (-want +got):\n%s", diff)
	}
}

func TestEvaluationError(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"integer"}}}},
		"x-kubernetes-validations":[{"rule":"self.a.b > 0"}]}`, Options{})
	errs := validate(t, v, `{"a":{}}`, "")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `Invalid value: "object": rule evaluation error: no such key: b`) {
		t.Fatalf("got %v", errStrings(errs))
	}
}

// TestRatcheting checks that on update a rule is not run on a value left
// as it was, as upstream, while transition rules and changed values are
// still checked.
func TestRatcheting(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{
		"a":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 3"}]},
		"b":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 3"},{"rule":"oldSelf < 3","message":"was too big"}]},
		"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],
			"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string","maxLength":5},"v":{"type":"integer"}},
			"x-kubernetes-validations":[{"rule":"self.v < 3"}]}}}}`, Options{})
	cases := []struct {
		name     string
		obj, old string
		want     []string
	}{
		{"create checks everything", `{"a":5}`, ``, []string{`a: Invalid value: "integer": failed rule: self < 3`}},
		{"unchanged broken value passes", `{"a":5,"b":1}`, `{"a":5,"b":2}`, nil},
		{"changed broken value fails", `{"a":6}`, `{"a":5}`, []string{`a: Invalid value: "integer": failed rule: self < 3`}},
		{"transition rules still run", `{"b":5}`, `{"b":5}`, []string{`b: Invalid value: "integer": was too big`}},
		{"unchanged list-map item passes", `{"l":[{"k":"y","v":1},{"k":"x","v":5}]}`, `{"l":[{"k":"x","v":5}]}`, nil},
		{"changed list-map item fails", `{"l":[{"k":"x","v":6}]}`, `{"l":[{"k":"x","v":5}]}`,
			[]string{`l[0]: Invalid value: "object": failed rule: self.v < 3`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, errStrings(validate(t, v, c.obj, c.old))); diff != "" {
				t.Fatalf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
