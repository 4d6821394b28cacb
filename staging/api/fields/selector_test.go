package fields

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	cases := []struct {
		in   string
		want string
		reqs []Requirement
	}{
		{"", "", nil},
		{",", "", nil},
		{",,", "", nil},
		{"=", "", nil},
		{"!=", "", nil},
		{"a=b", "a=b", []Requirement{{"a", Equals, "b"}}},
		{"a==b", "a=b", []Requirement{{"a", Equals, "b"}}},
		{"a!=b", "a!=b", []Requirement{{"a", NotEquals, "b"}}},
		{"a=", "a=", []Requirement{{"a", Equals, ""}}},
		{"=b", "=b", []Requirement{{"", Equals, "b"}}},
		{"a!=", "a!=", []Requirement{{"a", NotEquals, ""}}},
		{"metadata.name=web,metadata.namespace=default", "metadata.name=web,metadata.namespace=default",
			[]Requirement{{"metadata.name", Equals, "web"}, {"metadata.namespace", Equals, "default"}}},
		{"b=2,a=1", "a=1,b=2", []Requirement{{"a", Equals, "1"}, {"b", Equals, "2"}}},
		{"a==x,a=b", "a=b,a=x", []Requirement{{"a", Equals, "b"}, {"a", Equals, "x"}}},
		{"a=b,,c=d,", "a=b,c=d", []Requirement{{"a", Equals, "b"}, {"c", Equals, "d"}}},
		{`a=x\,y`, `a=x\,y`, []Requirement{{"a", Equals, "x,y"}}},
		{`a=x\=y`, `a=x\=y`, []Requirement{{"a", Equals, "x=y"}}},
		{`a=x\\y`, `a=x\\y`, []Requirement{{"a", Equals, `x\y`}}},
		{`a=\\,b=c`, `a=\\,b=c`, []Requirement{{"a", Equals, `\`}, {"b", Equals, "c"}}},
		{`a=\,,b!=\=`, `a=\,,b!=\=`, []Requirement{{"a", Equals, ","}, {"b", NotEquals, "="}}},
		{"a = b", "a = b", []Requirement{{"a ", Equals, " b"}}},
		{"a>=1", "a>=1", []Requirement{{"a>", Equals, "1"}}},
		{"a!b=c", "a!b=c", []Requirement{{"a!b", Equals, "c"}}},
		{"a=héllo wörld", "a=héllo wörld", []Requirement{{"a", Equals, "héllo wörld"}}},
		{"spec.nodeName!=,status.phase=Running", "spec.nodeName!=,status.phase=Running",
			[]Requirement{{"spec.nodeName", NotEquals, ""}, {"status.phase", Equals, "Running"}}},
	}
	for _, c := range cases {
		sel, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := sel.String(); got != c.want {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.want)
		}
		if got := sel.Requirements(); !reflect.DeepEqual(got, c.reqs) {
			t.Errorf("Parse(%q).Requirements() = %v, want %v", c.in, got, c.reqs)
		}
		if sel.Empty() != (len(c.reqs) == 0) {
			t.Errorf("Parse(%q).Empty() = %v", c.in, sel.Empty())
		}
		again, err := Parse(sel.String())
		if err != nil || again.String() != sel.String() || !reflect.DeepEqual(again.Requirements(), sel.Requirements()) {
			t.Errorf("round trip of %q through %q failed: %v", c.in, sel.String(), err)
		}
	}
}

func TestParseInvalid(t *testing.T) {
	cases := []struct {
		in, wantErr string
	}{
		{"a", "want field=value"},
		{"a=b,c", `term "c"`},
		{"a in (x,y)", "want field=value"},
		{"a>1", "want field=value"},
		{"a<1", "want field=value"},
		{"!a", "want field=value"},
		{"a=b=c", `'=' at offset 1 must be escaped`},
		{"a==b=c", "must be escaped"},
		{"a!==b", "must be escaped"},
		{`a=b\`, `invalid escape sequence "\\"`},
		{`a=b\n`, `invalid escape sequence "\\n"`},
		{`a=\é`, `invalid escape sequence "\\é"`},
		{`a=b\\\`, "invalid escape sequence"},
		{`a\,b`, "want field=value"},
	}
	for _, c := range cases {
		sel, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) = %q, want error", c.in, sel.String())
			continue
		}
		if !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("Parse(%q) error %q, want it to contain %q", c.in, err, c.wantErr)
		}
	}
}

func TestMatches(t *testing.T) {
	pod := Set{"metadata.name": "web-0", "metadata.namespace": "prod", "spec.nodeName": "", "status.phase": "Running"}
	cases := []struct {
		sel    string
		fields Fields
		want   bool
	}{
		{"", pod, true},
		{"", nil, true},
		{"metadata.name=web-0", pod, true},
		{"metadata.name==web-0", pod, true},
		{"metadata.name=web-1", pod, false},
		{"metadata.name!=web-1", pod, true},
		{"metadata.name!=web-0", pod, false},
		{"spec.nodeName=", pod, true},
		{"spec.nodeName!=", pod, false},
		{"missing=", pod, true}, // an absent field reads as ""
		{"missing!=", pod, false},
		{"missing!=x", pod, true},
		{"missing=x", pod, false},
		{"metadata.namespace=prod,status.phase=Running", pod, true},
		{"metadata.namespace=prod,status.phase!=Running", pod, false},
		{"metadata.name=web-0", nil, false},
		{"metadata.name!=web-0", nil, true},
		{`a=x\,y`, Set{"a": "x,y"}, true},
		{`a=x\=y`, Set{"a": "x=y"}, true},
		{`a=x\\y`, Set{"a": `x\y`}, true},
		{`a=x\\y`, Set{"a": `x\\y`}, false},
	}
	for _, c := range cases {
		sel := MustParse(c.sel)
		if got := sel.Matches(c.fields); got != c.want {
			t.Errorf("%q.Matches(%v) = %v, want %v", c.sel, c.fields, got, c.want)
		}
	}
}

func TestRequiresExactMatch(t *testing.T) {
	cases := []struct {
		sel, field, value string
		found             bool
	}{
		{"", "metadata.name", "", false},
		{"metadata.name=web", "metadata.name", "web", true},
		{"metadata.name==web", "metadata.name", "web", true},
		{"metadata.name!=web", "metadata.name", "", false},
		{"metadata.name=web", "metadata.namespace", "", false},
		{"metadata.namespace=prod,metadata.name=web", "metadata.namespace", "prod", true},
		{"metadata.namespace=prod,metadata.name=web", "metadata.name", "web", true},
		{"metadata.namespace!=prod,metadata.namespace=dev", "metadata.namespace", "dev", true},
		{"metadata.namespace=", "metadata.namespace", "", true},
		{`metadata.name=a\,b`, "metadata.name", "a,b", true},
	}
	for _, c := range cases {
		value, found := MustParse(c.sel).RequiresExactMatch(c.field)
		if value != c.value || found != c.found {
			t.Errorf("%q.RequiresExactMatch(%q) = %q, %v; want %q, %v", c.sel, c.field, value, found, c.value, c.found)
		}
	}
}

func TestTransform(t *testing.T) {
	rename := func(f, v string) (string, string, error) {
		switch f {
		case "name":
			return "metadata.name", v, nil
		case "drop":
			return "", "", nil
		case "bad":
			return "", "", errors.New("field not supported")
		}
		return f, strings.ToLower(v), nil
	}
	cases := []struct {
		sel, want, wantErr string
	}{
		{"", "", ""},
		{"name=web", "metadata.name=web", ""},
		{"name!=web", "metadata.name!=web", ""},
		{"drop=x", "", ""},
		{"drop!=x", "", ""},
		{"name=web,drop=x,phase=Running", "metadata.name=web,phase=running", ""},
		{"name=web,bad=x", "", "field not supported"},
		{"bad!=x", "", "field not supported"},
	}
	for _, c := range cases {
		sel, err := MustParse(c.sel).Transform(rename)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Transform of %q: error %v, want %q", c.sel, err, c.wantErr)
			}
			continue
		}
		if err != nil || sel.String() != c.want || sel.Empty() != (c.want == "") {
			t.Errorf("Transform of %q = %v, %v; want %q", c.sel, sel, err, c.want)
		}
	}
	sel, err := ParseAndTransform("name=web,drop=1", rename)
	if err != nil || sel.String() != "metadata.name=web" {
		t.Errorf("ParseAndTransform = %v, %v", sel, err)
	}
	if _, err := ParseAndTransform("bad=1", rename); err == nil {
		t.Error("ParseAndTransform ignored a transform error")
	}
}

func TestConstructors(t *testing.T) {
	eq := OneTermEqualSelector("metadata.name", "a,b")
	ne := OneTermNotEqualSelector("status.phase", "Failed")
	and := AndSelectors(eq, ne)
	cases := []struct {
		sel   Selector
		want  string
		empty bool
	}{
		{eq, `metadata.name=a\,b`, false},
		{ne, "status.phase!=Failed", false},
		{and, `metadata.name=a\,b,status.phase!=Failed`, false},
		{AndSelectors(), "", true},
		{AndSelectors(Everything(), Everything()), "", true},
		{AndSelectors(Everything(), eq, Everything()), `metadata.name=a\,b`, false},
		{Everything(), "", true},
		{Set{"b": "2", "a": "x=y"}.AsSelector(), `a=x\=y,b=2`, false},
		{Set{"a": "1"}.AsSelector(), "a=1", false},
		{Set{}.AsSelector(), "", true},
	}
	for i, c := range cases {
		if c.sel.String() != c.want || c.sel.Empty() != c.empty {
			t.Errorf("case %d: String %q Empty %v; want %q %v", i, c.sel.String(), c.sel.Empty(), c.want, c.empty)
		}
	}
	if !and.Matches(Set{"metadata.name": "a,b", "status.phase": "Running"}) || and.Matches(Set{"metadata.name": "a,b", "status.phase": "Failed"}) {
		t.Error("AndSelectors does not AND")
	}
	if got := (Set{"b": "2", "a": `\`}).String(); got != `a=\\,b=2` {
		t.Errorf("Set.String() = %q", got)
	}
}

func TestNothing(t *testing.T) {
	n := Nothing()
	if n.Matches(Set{}) || n.Matches(nil) || n.Empty() || n.String() != "" || n.Requirements() != nil {
		t.Error("Nothing() misbehaves")
	}
	if _, found := n.RequiresExactMatch("a"); found {
		t.Error("Nothing() requires an exact match")
	}
	if m, err := n.Transform(func(f, v string) (string, string, error) { return f, v, nil }); err != nil || m.Matches(Set{}) {
		t.Error("a transformed Nothing() matches")
	}
	if and := AndSelectors(OneTermEqualSelector("a", "b"), n); and.Matches(Set{"a": "b"}) || and.Empty() {
		t.Error("AND with Nothing() matches")
	}
}

func TestEscapeUnescape(t *testing.T) {
	cases := []struct {
		raw, escaped string
	}{
		{"", ""},
		{"plain", "plain"},
		{"a,b", `a\,b`},
		{"a=b", `a\=b`},
		{`a\b`, `a\\b`},
		{`\,=`, `\\\,\=`},
		{"\xff,", "\xff\\,"},
		{"ünï,cödé", `ünï\,cödé`},
	}
	for _, c := range cases {
		if got := EscapeValue(c.raw); got != c.escaped {
			t.Errorf("EscapeValue(%q) = %q, want %q", c.raw, got, c.escaped)
		}
		got, err := UnescapeValue(c.escaped)
		if err != nil || got != c.raw {
			t.Errorf("UnescapeValue(%q) = %q, %v; want %q", c.escaped, got, err, c.raw)
		}
	}
	bad := []struct {
		in     string
		target any
	}{
		{`\`, &InvalidEscapeSequenceError{}},
		{`a\b`, &InvalidEscapeSequenceError{}},
		{`a,b`, &UnescapedRuneError{}},
		{`a=b`, &UnescapedRuneError{}},
		{`\\\`, &InvalidEscapeSequenceError{}},
	}
	for _, c := range bad {
		_, err := UnescapeValue(c.in)
		if err == nil || !errors.As(err, c.target) {
			t.Errorf("UnescapeValue(%q) error %v, want %T", c.in, err, c.target)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse of an invalid selector did not panic")
		}
	}()
	MustParse("a in (b)")
}
