package labels

import "testing"

// FuzzParseLabels checks that Parse never panics and that the String of a
// parsed selector parses again to a selector with the same String.
func FuzzParseLabels(f *testing.F) {
	for _, seed := range []string{"", "a=b", "a in (x,y),!b", "x>1,y<2", "a notin (,b)", "p.io/k==v,k!="} {
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
		if !sameRequirements(sel.Requirements(), again.Requirements()) {
			t.Fatalf("Parse(%q): requirements differ after a round trip through %q", s, first)
		}
	})
}
