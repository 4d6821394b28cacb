package resource

import (
	"encoding/json"
	"testing"
)

// FuzzParseQuantity checks that parsing never panics and that everything a
// parsed quantity writes out (String, the canonical form, JSON) reads back as
// the same number, with a canonical form that is a fixed point.
func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{
		"0", "100m", "-1.5Gi", "1e3", "12e2", ".5", "+1", "1.0001m",
		"9Ei", "1000E", "0.000000000001Ki", "123456789012345678901234",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil {
			return
		}
		canon := canonical(q)
		for _, out := range []string{q.String(), canon} {
			back, err := ParseQuantity(out)
			if err != nil {
				t.Fatalf("%q wrote %q, which does not parse: %v", s, out, err)
			}
			if back.Cmp(q) != 0 {
				t.Fatalf("%q wrote %q, which parses to %q", s, out, canonical(back))
			}
		}
		back := MustParse(canon)
		if again := canonical(back); again != canon {
			t.Fatalf("%q: canonical %q is %q when parsed again", s, canon, again)
		}

		data, err := json.Marshal(q)
		if err != nil {
			t.Fatalf("%q: marshal: %v", s, err)
		}
		var decoded Quantity
		if err := json.Unmarshal(data, &decoded); err != nil {
			t.Fatalf("%q: unmarshal %s: %v", s, data, err)
		}
		if decoded.Cmp(q) != 0 {
			t.Fatalf("%q: JSON %s decodes to %q", s, data, canonical(decoded))
		}

		// Arithmetic that cancels out must land on zero.
		sum := q
		sum.Add(q)
		sum.Sub(q)
		sum.Sub(q)
		if !sum.IsZero() {
			t.Fatalf("%q: q+q-q-q = %q", s, canonical(sum))
		}
	})
}
