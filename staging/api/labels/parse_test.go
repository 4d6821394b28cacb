package labels

import (
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"", ""},
		{"   \t\n", ""},
		{"a=b", "a=b"},
		{"a==b", "a==b"},
		{"a!=b", "a!=b"},
		{"a", "a"},
		{"!a", "!a"},
		{" ! a ", "!a"},
		{"a>1", "a>1"},
		{"a < 10", "a<10"},
		{"a>007", "a>007"},
		{"a in (x,y)", "a in (x,y)"},
		{"a in (y,x,y)", "a in (x,y)"},
		{"a notin (x)", "a notin (x)"},
		{"a in(x)", "a in (x)"},
		{"a notin  ( x , y )", "a notin (x,y)"},
		{"a in ()", "a in ()"},
		{"a in (,x)", "a in (,x)"},
		{"a in (x,)", "a in (,x)"},
		{"a in (x,,y)", "a in (,x,y)"},
		{"a in (in,notin)", "a in (in,notin)"},
		{"a=in", "a=in"},
		{"a=notin", "a=notin"},
		{"a=", "a="},
		{"a=,b", "a=,b"},
		{"a!=", "a!="},
		{"b=2,a=1", "a=1,b=2"},
		{"z,!y,x=1", "x=1,!y,z"},
		{"a=1,a=1", "a=1,a=1"},
		{"a=2,a!=1", "a!=1,a=2"},
		{"x=a , y in (b) , !z", "x=a,y in (b),!z"},
		{"example.com/app=web", "example.com/app=web"},
		{"a.b-c_d=E.f-G_h", "a.b-c_d=E.f-G_h"},
		{"k=" + strings.Repeat("v", 63), "k=" + strings.Repeat("v", 63)},
		{strings.Repeat("k", 63), strings.Repeat("k", 63)},
		{strings.Repeat("p", 253) + "/k", strings.Repeat("p", 253) + "/k"},
		{"ain=b", "ain=b"},
		{"notinx", "notinx"},
	}
	for _, c := range cases {
		sel, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): unexpected error %v", c.in, err)
			continue
		}
		if got := sel.String(); got != c.want {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.want)
		}
		if sel.Empty() != (c.want == "") {
			t.Errorf("Parse(%q).Empty() = %v", c.in, sel.Empty())
		}
		again, err := Parse(sel.String())
		if err != nil {
			t.Errorf("re-parse of %q: %v", sel.String(), err)
			continue
		}
		if !sameRequirements(sel.Requirements(), again.Requirements()) {
			t.Errorf("re-parse of %q gave %q", sel.String(), again.String())
		}
	}
}

func sameRequirements(a, b []Requirement) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func TestParseInvalid(t *testing.T) {
	cases := []struct {
		in, wantErr string
	}{
		{",", "expected a label key"},
		{"a,", "found end of string, expected a label key"},
		{",a", "found \",\" at offset 0"},
		{"a,,b", "found \",\" at offset 2"},
		{"a b", "found \"b\" at offset 2"},
		{"a=b c", "expected ',' or end of string"},
		{"a=b=c", "found \"=\" at offset 3"},
		{"a===b", "found \"=\" at offset 3"},
		{"a>=1", "found \"=\" at offset 2, expected a value"},
		{"a<=1", "expected a value"},
		{"a=(b)", "expected a value"},
		{"!", "expected a label key after '!'"},
		{"!!a", "expected a label key after '!'"},
		{"!a=b", "expected ',' or end of string"},
		{"!a in (b)", "expected ',' or end of string"},
		{"!=b", "expected a label key or '!'"},
		{"=b", "expected a label key or '!'"},
		{"in=b", "found \"in\" at offset 0"},
		{"notin", "expected a label key"},
		{"(a)", "expected a label key"},
		{"a in", "expected '('"},
		{"a in b", "expected '('"},
		{"a in (b", "expected ',' or ')'"},
		{"a in (b c)", "expected ',' or ')'"},
		{"a in ((b))", "expected a value, ',' or ')'"},
		{"a notin (b,=)", "expected a value"},
		{"a in (b))", "expected ',' or end of string"},
		{"a (b)", "expected one of"},
		{"a>", "needs an integer value"},
		{"a>b", "needs an integer value"},
		{"a<1.5", "needs an integer value"},
		{"a>99999999999999999999", "needs an integer value"},
		{"a>1,b<x", "needs an integer value"},
		{"a>-1", "invalid label value"},
		{"a<+1", "invalid label value"},
		{"a=b/c", "invalid label value"},
		{"a=-b", "invalid label value"},
		{"a=b-", "invalid label value"},
		{"a=" + strings.Repeat("v", 64), "no more than 63"},
		{"a in (ok,b*)", "invalid label value"},
		{"-a=b", "invalid label key"},
		{"a_=b", "invalid label key"},
		{"A/b=c", "DNS subdomain"},
		{"a..b/c", "DNS subdomain"},
		{"-a.b/c", "DNS subdomain"},
		{"/a", "prefix before '/' must not be empty"},
		{"a/", "name part must not be empty"},
		{"a/b/c", "at most one '/'"},
		{strings.Repeat("k", 64), "no more than 63"},
		{strings.Repeat("p", 254) + "/k", "no more than 253"},
		{"a\x00b", "invalid label key"},
		{"ä=b", "invalid label key"},
	}
	for _, c := range cases {
		sel, err := Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) = %q, want error", c.in, sel.String())
			continue
		}
		if !strings.HasPrefix(err.Error(), "unable to parse requirement: ") {
			t.Errorf("Parse(%q) error %q lacks the common prefix", c.in, err)
		}
		if !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("Parse(%q) error %q, want it to contain %q", c.in, err, c.wantErr)
		}
	}
}

func TestMatches(t *testing.T) {
	web := Set{"app": "web", "tier": "front", "replicas": "3", "empty": ""}
	cases := []struct {
		sel    string
		labels Set
		want   bool
	}{
		{"", nil, true},
		{"", web, true},
		{"app=web", web, true},
		{"app==web", web, true},
		{"app=db", web, false},
		{"app=web", nil, false},
		{"app!=db", web, true},
		{"app!=web", web, false},
		{"missing!=x", web, true},
		{"app", web, true},
		{"missing", web, false},
		{"!missing", web, true},
		{"!app", web, false},
		{"empty", web, true},
		{"empty=", web, true},
		{"missing=", web, false},
		{"missing!=", web, true},
		{"empty!=", web, false},
		{"app in (db,web)", web, true},
		{"app in (db)", web, false},
		{"missing in (x)", web, false},
		{"missing in ()", web, false},
		{"empty in ()", web, true},
		{"app notin (db)", web, true},
		{"app notin (db,web)", web, false},
		{"missing notin (x)", web, true},
		{"replicas>2", web, true},
		{"replicas>3", web, false},
		{"replicas<4", web, true},
		{"replicas<3", web, false},
		{"app>1", web, false},
		{"missing<100", web, false},
		{"app=web,tier=front", web, true},
		{"app=web,tier=back", web, false},
		{"app=web,tier in (front,back),!canary,replicas>1", web, true},
		{"app=web,app=db", web, false},
		{"App=web", web, false},
	}
	for _, c := range cases {
		sel, err := Parse(c.sel)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.sel, err)
		}
		if got := sel.Matches(c.labels); got != c.want {
			t.Errorf("%q.Matches(%v) = %v, want %v", c.sel, c.labels, got, c.want)
		}
	}
}

func TestMatchesBigAndNegativeLabelValues(t *testing.T) {
	sel := MustParse("n>5")
	cases := []struct {
		value string
		want  bool
	}{
		{"6", true}, {"5", false}, {"-7", false}, {"+9", true}, {"0x10", false},
		{"99999999999999999999", false}, {"9223372036854775807", true}, {"", false},
	}
	for _, c := range cases {
		if got := sel.Matches(Set{"n": c.value}); got != c.want {
			t.Errorf("n>5 matches n=%q: got %v, want %v", c.value, got, c.want)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse of an invalid selector did not panic")
		}
	}()
	MustParse("a in")
}
