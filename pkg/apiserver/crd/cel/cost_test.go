package cel

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// pairwise compares every item of a list with every other: quadratic.
const pairwise = `self.all(x, self.exists(y, x == y))`

func listSchema(bounds, rule string) string {
	return `{"type":"object","properties":{"l":{"type":"array",` + bounds + `
		"items":{` + strings.Replace(bounds, "maxItems", "maxLength", 1) + `"type":"string"},
		"x-kubernetes-validations":[{"rule":` + quote(rule) + `}]}}}`
}

func TestCostEstimate(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		opts   Options
		field  string // of the one error; "" when the schema compiles
		detail string
	}{
		{"unbounded list and strings refused", listSchema("", pairwise), Options{},
			"spec.validation.openAPIV3Schema.properties[l].x-kubernetes-validations[0].rule",
			"Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength"},
		{"bounded list and strings allowed", listSchema(`"maxItems":10,`, pairwise), Options{}, "", ""},
		{"regex on unbounded strings refused", listSchema("", `self.all(x, x.matches('^[a-z]+$'))`), Options{},
			"spec.validation.openAPIV3Schema.properties[l].x-kubernetes-validations[0].rule", "estimated rule cost exceeds budget"},
		{"small factor shown precisely", listSchema(`"maxItems":10,`, pairwise), Options{RuleCostLimit: 100, TotalCostLimit: 1e9},
			"spec.validation.openAPIV3Schema.properties[l].x-kubernetes-validations[0].rule", "exceeds budget by factor of"},
		{"total over schema refused", `{"type":"object","properties":{
			"a":{"type":"string","maxLength":100,"x-kubernetes-validations":[{"rule":"self.matches('^a+$')"}]},
			"b":{"type":"string","maxLength":100,"x-kubernetes-validations":[{"rule":"self.matches('^b+$')"}]}}}`,
			Options{RuleCostLimit: 1000, TotalCostLimit: 50},
			"spec.validation.openAPIV3Schema",
			"Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of"},
		{"rule under an unbounded list counts each item", `{"type":"object","properties":{"l":{"type":"array",
			"items":{"type":"string","maxLength":10,"x-kubernetes-validations":[{"rule":"self.matches('^a+$')"}]}}}}`,
			Options{RuleCostLimit: 1000},
			"spec.validation.openAPIV3Schema.properties[l].items.x-kubernetes-validations[0].rule", "estimated rule cost exceeds budget"},
		{"library regex on unbounded strings refused", listSchema("", `self.all(x, x.find('a+') != '')`), Options{},
			"spec.validation.openAPIV3Schema.properties[l].x-kubernetes-validations[0].rule", "estimated rule cost exceeds budget"},
		{"library list function priced by list size", listSchema(`"maxItems":1000,`, `self.isSorted()`), Options{RuleCostLimit: 900},
			"spec.validation.openAPIV3Schema.properties[l].x-kubernetes-validations[0].rule", "estimated rule cost exceeds budget"},
		{"optional oldSelf value sized as oldSelf", `{"type":"object","properties":{"s":{"type":"string","maxLength":10,
			"x-kubernetes-validations":[{"rule":"!oldSelf.hasValue() || oldSelf.value().matches('^a') || self.matches('^a')","optionalOldSelf":true}]}}}`,
			Options{RuleCostLimit: 1000}, "", ""},
		{"rule under a bounded list", `{"type":"object","properties":{"l":{"type":"array","maxItems":5,
			"items":{"type":"string","maxLength":10,"x-kubernetes-validations":[{"rule":"self.matches('^a+$')"}]}}}}`,
			Options{RuleCostLimit: 1000}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, errs := Compile(schema(t, c.schema), root, c.opts)
			if c.field == "" {
				if len(errs) != 0 || v == nil {
					t.Fatalf("got %v", errStrings(errs))
				}
				return
			}
			// A rule over its limit also counts towards the total, as
			// upstream, so a second error may follow the first.
			if len(errs) == 0 || errs[0].Field != c.field || !strings.Contains(errs[0].Error(), c.detail) {
				t.Fatalf("got %v, want first at %s with %q", errStrings(errs), c.field, c.detail)
			}
		})
	}
}

// ints is a JSON list of n integers.
func ints(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprint(i)
	}
	return "[" + strings.Join(items, ",") + "]"
}

// TestRuntimeCost checks the per-call limit on a rule the estimate
// allowed (quadratic over a list of at most 1000 items) and the budget
// shared by the rules of one call.
func TestRuntimeCost(t *testing.T) {
	quadratic := `{"type":"object","properties":{"l":{"type":"array","maxItems":1000,"items":{"type":"integer"},
		"x-kubernetes-validations":[{"rule":"self.all(x, self.all(y, x >= 0 || y >= 0))"}]}}}`
	perItem := `{"type":"object","properties":{"l":{"type":"array","maxItems":1000,
		"items":{"type":"integer","x-kubernetes-validations":[{"rule":"self >= 0"}]}}}}`
	cases := []struct {
		name   string
		schema string
		opts   Options
		obj    string
		want   []string
	}{
		{"quadratic on a small list", quadratic, Options{}, `{"l":` + ints(10) + `}`, nil},
		{"quadratic on a large list exceeds the per-call limit", quadratic, Options{}, `{"l":` + ints(1000) + `}`,
			[]string{`l: Invalid value: "array": call cost exceeds limit for rule: self.all(x, self.all(y, x >= 0 || y >= 0))`}},
		{"a library function charges its list's size", `{"type":"object","properties":{"l":{"type":"array","maxItems":1000,
			"items":{"type":"integer"},"x-kubernetes-validations":[{"rule":"self.isSorted()"}]}}}`,
			Options{RuntimeBudget: 50}, `{"l":` + ints(100) + `}`,
			[]string{`l: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run`}},
		{"per-item rules within the budget", perItem, Options{RuntimeBudget: 1000}, `{"l":` + ints(100) + `}`, nil},
		{"per-item rules exhaust the budget", perItem, Options{RuntimeBudget: 100}, `{"l":` + ints(100) + `}`,
			[]string{`l[50]: Invalid value: "integer": validation failed due to running out of cost budget, no further validation rules will be run`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := mustCompile(t, c.schema, c.opts)
			got := errStrings(validate(t, v, c.obj, ""))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestContextDeadline checks that a rule stops at the request's deadline
// rather than running to its end: run in full, the rule spends more than
// the budget, so only a rule stopped early can report the interruption.
func TestContextDeadline(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"l":{"type":"array","maxItems":500,"items":{"type":"integer"},
		"x-kubernetes-validations":[{"rule":"self.all(x, self.all(y, x >= 0 || y >= 0))"}]}}}`,
		Options{PerCallLimit: 1e12, RuntimeBudget: 100_000, RuleCostLimit: 1e12, TotalCostLimit: 1e12})
	obj := object(t, `{"l":`+ints(500)+`}`)
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	cases := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"no deadline: the rule runs to its end", context.Background(),
			`l: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run`},
		{"deadline passed: the rule stops", expired,
			`l: Invalid value: "array": validation interrupted: context deadline exceeded; no further validation rules were run`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(errStrings(v.Validate(c.ctx, field.NewPath(""), obj, nil)), "\n")
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
