package labels

import (
	"strings"
	"testing"

	"platform.io/client/api/meta"
)

func TestNewRequirement(t *testing.T) {
	cases := []struct {
		key     string
		op      Operator
		values  []string
		want    string
		wantErr string
	}{
		{"a", In, []string{"b", "a", "b"}, "a in (a,b)", ""},
		{"a", NotIn, []string{"x"}, "a notin (x)", ""},
		{"a", Equals, []string{"x"}, "a=x", ""},
		{"a", DoubleEquals, []string{"x"}, "a==x", ""},
		{"a", NotEquals, []string{""}, "a!=", ""},
		{"a", Exists, nil, "a", ""},
		{"a", DoesNotExist, []string{}, "!a", ""},
		{"a", GreaterThan, []string{"10"}, "a>10", ""},
		{"a", LessThan, []string{"0"}, "a<0", ""},
		{"a", In, nil, "", "needs at least one value"},
		{"a", NotIn, []string{}, "", "needs at least one value"},
		{"a", Equals, nil, "", "exactly one value"},
		{"a", NotEquals, []string{"x", "y"}, "", "exactly one value"},
		{"a", Exists, []string{"x"}, "", "takes no values"},
		{"a", DoesNotExist, []string{""}, "", "takes no values"},
		{"a", GreaterThan, []string{"1", "2"}, "", "exactly one value"},
		{"a", LessThan, []string{"one"}, "", "integer"},
		{"a", Operator("like"), []string{"x"}, "", "unknown operator"},
		{"", Exists, nil, "", "invalid label key"},
		{"a", In, []string{"ok", "not ok"}, "", "invalid label value"},
	}
	for _, c := range cases {
		r, err := NewRequirement(c.key, c.op, c.values)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("NewRequirement(%q, %q, %q) error %v, want %q", c.key, c.op, c.values, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("NewRequirement(%q, %q, %q): %v", c.key, c.op, c.values, err)
			continue
		}
		if r.String() != c.want || r.Key() != c.key || r.Operator() != c.op {
			t.Errorf("NewRequirement(%q, %q, %q) = %q", c.key, c.op, c.values, r.String())
		}
	}
}

func TestRequirementAccessorsCopy(t *testing.T) {
	in := []string{"b", "a"}
	r, err := NewRequirement("k", In, in)
	if err != nil {
		t.Fatal(err)
	}
	in[0] = "zzz"
	vals := r.Values()
	vals[0] = "mutated"
	if got := r.String(); got != "k in (a,b)" {
		t.Errorf("requirement changed through a shared slice: %q", got)
	}
	sel := NewSelector(r)
	reqs := sel.Requirements()
	reqs[0] = Requirement{}
	if sel.String() != "k in (a,b)" {
		t.Errorf("selector changed through Requirements(): %q", sel.String())
	}
	var zero Requirement
	if zero.Matches(Set{"": ""}) || zero.Matches(nil) {
		t.Error("the zero Requirement matched")
	}
}

func TestEverythingNothing(t *testing.T) {
	labels := []Set{nil, {}, {"a": "b"}}
	for _, ls := range labels {
		if !Everything().Matches(ls) {
			t.Errorf("Everything() did not match %v", ls)
		}
		if Nothing().Matches(ls) {
			t.Errorf("Nothing() matched %v", ls)
		}
	}
	if !Everything().Empty() || Everything().String() != "" || len(Everything().Requirements()) != 0 {
		t.Error("Everything() is not an empty selector")
	}
	if Nothing().Empty() || Nothing().String() != "" || Nothing().Requirements() != nil {
		t.Error("Nothing() misreports itself")
	}
	if !Everything().Matches(nil) || MustParse("a").Matches(nil) || !MustParse("!a").Matches(nil) {
		t.Error("nil Labels are not treated as an empty set")
	}
}

func TestSet(t *testing.T) {
	s := Set{"b": "2", "a": "1", "c": ""}
	if !s.Has("c") || s.Has("d") || s.Get("a") != "1" || s.Get("d") != "" {
		t.Error("Set.Has/Get misbehave")
	}
	if got := s.String(); got != "a=1,b=2,c=" {
		t.Errorf("Set.String() = %q", got)
	}
	sel := s.AsSelector()
	if got := sel.String(); got != "a=1,b=2,c=" {
		t.Errorf("Set.AsSelector().String() = %q", got)
	}
	cases := []struct {
		labels Set
		want   bool
	}{
		{Set{"a": "1", "b": "2", "c": ""}, true},
		{Set{"a": "1", "b": "2", "c": "", "d": "x"}, true},
		{Set{"a": "1", "b": "2"}, false},
		{Set{"a": "1", "b": "3", "c": ""}, false},
		{nil, false},
	}
	for _, c := range cases {
		if got := sel.Matches(c.labels); got != c.want {
			t.Errorf("%q.Matches(%v) = %v, want %v", sel, c.labels, got, c.want)
		}
	}
	if !Set(nil).AsSelector().Empty() || Set(nil).String() != "" {
		t.Error("an empty Set does not select everything")
	}
	if _, err := ValidatedSelectorFromSet(Set{"a": "ok", "b": "not ok"}); err == nil {
		t.Error("ValidatedSelectorFromSet accepted an invalid value")
	}
	v, err := ValidatedSelectorFromSet(s)
	if err != nil || v.String() != sel.String() {
		t.Errorf("ValidatedSelectorFromSet = %v, %v", v, err)
	}
}

func TestFromLabelSelector(t *testing.T) {
	expr := func(key string, op meta.LabelSelectorOperator, values ...string) meta.LabelSelectorRequirement {
		return meta.LabelSelectorRequirement{Key: key, Operator: op, Values: values}
	}
	cases := []struct {
		name    string
		in      *meta.LabelSelector
		want    string
		empty   bool
		wantErr string
	}{
		{"nil", nil, "", false, ""},
		{"empty", &meta.LabelSelector{}, "", true, ""},
		{"empty maps", &meta.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []meta.LabelSelectorRequirement{}}, "", true, ""},
		{"labels", &meta.LabelSelector{MatchLabels: map[string]string{"b": "2", "a": "1"}}, "a=1,b=2", false, ""},
		{"all operators", &meta.LabelSelector{
			MatchLabels: map[string]string{"app": "web"},
			MatchExpressions: []meta.LabelSelectorRequirement{
				expr("tier", meta.LabelSelectorOpIn, "front", "back"),
				expr("env", meta.LabelSelectorOpNotIn, "dev"),
				expr("team", meta.LabelSelectorOpExists),
				expr("canary", meta.LabelSelectorOpDoesNotExist),
			},
		}, "app=web,!canary,env notin (dev),team,tier in (back,front)", false, ""},
		{"in without values", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{expr("a", meta.LabelSelectorOpIn)}}, "", false, "matchExpressions[0]"},
		{"notin without values", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{expr("a", meta.LabelSelectorOpNotIn)}}, "", false, "at least one value"},
		{"exists with values", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{expr("a", meta.LabelSelectorOpExists, "x")}}, "", false, "takes no values"},
		{"does not exist with values", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{expr("a", meta.LabelSelectorOpDoesNotExist, "x")}}, "", false, "takes no values"},
		{"unknown operator", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{expr("a", "Gt", "1")}}, "", false, "not a valid label selector operator"},
		{"bad label key", &meta.LabelSelector{MatchLabels: map[string]string{"a b": "c"}}, "", false, "matchLabels"},
		{"bad label value", &meta.LabelSelector{MatchLabels: map[string]string{"a": "c/d"}}, "", false, "invalid label value"},
		{"bad expression key", &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{expr("", meta.LabelSelectorOpExists)}}, "", false, "invalid label key"},
	}
	for _, c := range cases {
		sel, err := FromLabelSelector(c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if sel.String() != c.want || sel.Empty() != c.empty {
			t.Errorf("%s: got %q (empty %v), want %q (empty %v)", c.name, sel.String(), sel.Empty(), c.want, c.empty)
		}
	}
	if sel, _ := FromLabelSelector(nil); sel.Matches(Set{}) {
		t.Error("a nil LabelSelector matched")
	}
	sel, _ := FromLabelSelector(&meta.LabelSelector{})
	if !sel.Matches(Set{"x": "y"}) {
		t.Error("an empty LabelSelector did not match")
	}
}

func TestFromLabelSelectorMatches(t *testing.T) {
	sel, err := FromLabelSelector(&meta.LabelSelector{
		MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []meta.LabelSelectorRequirement{
			{Key: "tier", Operator: meta.LabelSelectorOpIn, Values: []string{"front"}},
			{Key: "canary", Operator: meta.LabelSelectorOpDoesNotExist},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		labels Set
		want   bool
	}{
		{Set{"app": "web", "tier": "front"}, true},
		{Set{"app": "web", "tier": "front", "canary": ""}, false},
		{Set{"app": "web", "tier": "back"}, false},
		{Set{"app": "web"}, false},
	}
	for _, c := range cases {
		if got := sel.Matches(c.labels); got != c.want {
			t.Errorf("Matches(%v) = %v, want %v", c.labels, got, c.want)
		}
	}
}

func TestValidateKeyAndValue(t *testing.T) {
	keys := []struct {
		key string
		ok  bool
	}{
		{"a", true}, {"A9", true}, {"a.b_c-d", true}, {"x.io/a", true}, {"a-b.c-d/E", true},
		{"", false}, {"_a", false}, {"a.", false}, {"a b", false}, {"X.io/a", false},
		{"x_y.io/a", false}, {"x.io/", false}, {"/", false}, {"x..io/a", false},
	}
	for _, c := range keys {
		if err := ValidateKey(c.key); (err == nil) != c.ok {
			t.Errorf("ValidateKey(%q) = %v, want ok=%v", c.key, err, c.ok)
		}
	}
	values := []struct {
		value string
		ok    bool
	}{
		{"", true}, {"a", true}, {"1.2.3", true}, {"A_b-C", true},
		{"-", false}, {"a ", false}, {"a/b", false}, {"a,b", false}, {strings.Repeat("a", 64), false},
	}
	for _, c := range values {
		if err := ValidateValue(c.value); (err == nil) != c.ok {
			t.Errorf("ValidateValue(%q) = %v, want ok=%v", c.value, err, c.ok)
		}
	}
}
