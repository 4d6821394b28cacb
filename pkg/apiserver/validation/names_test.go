package validation

import (
	"regexp"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		fn    NameFunc
		name  string
		value string
		ok    bool
	}{
		{IsDNS1123Label, "label", "my-name", true},
		{IsDNS1123Label, "label digit start", "1abc", true},
		{IsDNS1123Label, "label upper", "MyName", false},
		{IsDNS1123Label, "label dot", "a.b", false},
		{IsDNS1123Label, "label dash end", "abc-", false},
		{IsDNS1123Label, "label 63", long(63), true},
		{IsDNS1123Label, "label 64", long(64), false},
		{IsDNS1123Label, "label empty", "", false},
		{IsDNS1123Subdomain, "subdomain", "example.com", true},
		{IsDNS1123Subdomain, "subdomain dash", "a-b.c-d", true},
		{IsDNS1123Subdomain, "subdomain double dot", "a..b", false},
		{IsDNS1123Subdomain, "subdomain underscore", "a_b", false},
		{IsDNS1123Subdomain, "subdomain 253", long(253), true},
		{IsDNS1123Subdomain, "subdomain 254", long(254), false},
		{IsDNS1035Label, "1035", "svc-1", true},
		{IsDNS1035Label, "1035 digit start", "1svc", false},
		{IsPathSegmentName, "segment", "Any thing:1", true},
		{IsPathSegmentName, "segment slash", "a/b", false},
		{IsPathSegmentName, "segment percent", "a%b", false},
		{IsPathSegmentName, "segment dotdot", "..", false},
		{IsQualifiedName, "qualified", "app", true},
		{IsQualifiedName, "qualified prefix", "platform.io/role", true},
		{IsQualifiedName, "qualified mixed", "My_Key.1", true},
		{IsQualifiedName, "qualified empty prefix", "/x", false},
		{IsQualifiedName, "qualified bad prefix", "Bad_Prefix/x", false},
		{IsQualifiedName, "qualified empty name", "a.io/", false},
		{IsQualifiedName, "qualified space", "a b", false},
		{IsQualifiedName, "qualified 64", long(64), false},
		{IsLabelValue, "value empty", "", true},
		{IsLabelValue, "value", "v1.2_3-x", true},
		{IsLabelValue, "value slash", "a/b", false},
		{IsLabelValue, "value 64", long(64), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := c.fn(c.value)
			if (len(errs) == 0) != c.ok {
				t.Fatalf("%q: errors %v, want ok=%v", c.value, errs, c.ok)
			}
		})
	}
}

// TestMatchersAgreeWithPatterns checks the hand-written matchers against
// the regular expressions they replace, on every string of up to four
// characters over an alphabet that covers each character class, and on
// longer ones.
func TestMatchersAgreeWithPatterns(t *testing.T) {
	res := []struct {
		name  string
		re    *regexp.Regexp
		match func(string) bool
	}{
		{"dns1123Label", regexp.MustCompile("^" + dns1123LabelFmt + "$"), isDNS1123Label},
		{"dns1123Subdomain", regexp.MustCompile("^" + dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*$"), isDNS1123Subdomain},
		{"dns1035Label", regexp.MustCompile("^" + dns1035LabelFmt + "$"), isDNS1035Label},
		{"qualifiedName", regexp.MustCompile("^" + qualifiedNameFmt + "$"), isQualifiedName},
		{"labelValue", regexp.MustCompile("^" + labelValueFmt + "$"), func(v string) bool { return v == "" || isQualifiedName(v) }},
	}
	inputs := []string{"", "a.b.c", "-a", "a-", "a..b", ".a", "a.", "my-app.example.com", "app.kubernetes.io", "A_b.C-9"}
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		inputs = append(inputs, prefix)
		if n == 0 {
			return
		}
		for _, c := range []string{"a", "Z", "0", "-", "_", ".", "/", "é"} {
			gen(prefix+c, n-1)
		}
	}
	gen("", 4)
	for _, r := range res {
		for _, in := range inputs {
			if want, got := r.re.MatchString(in), r.match(in); want != got {
				t.Errorf("%s(%q) = %v, the pattern says %v", r.name, in, got, want)
			}
		}
	}
}
