package fields

import (
	"reflect"
	"testing"
)

// FuzzParseFields checks that Parse never panics and that the String of a
// parsed selector parses again to a selector with the same String.
func FuzzParseFields(f *testing.F) {
	for _, seed := range []string{"", "a=b", "a==b,c!=d", `a=x\,y\=z\\`, "=,a=", `a\==b`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := Parse(s)
		if err != nil {
			return
		}
		first := sel.String()
		again, err := Parse(first)
		if err != nil {
			t.Fatalf("Parse(%q) gave %q, which does not parse: %v", s, first, err)
		}
		if second := again.String(); second != first {
			t.Fatalf("Parse(%q) gave %q, which re-parses as %q", s, first, second)
		}
		if !reflect.DeepEqual(sel.Requirements(), again.Requirements()) {
			t.Fatalf("Parse(%q): requirements differ after a round trip through %q", s, first)
		}
	})
}
