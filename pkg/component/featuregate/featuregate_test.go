package featuregate

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestSet(t *testing.T) {
	known := map[Feature]Spec{"A": {Default: true, PreRelease: Beta}, "B": {Default: false, PreRelease: Alpha}, "L": {Default: true, PreRelease: GA, LockToDefault: true}}
	cases := []struct {
		in      string
		a, b    bool
		wantErr bool
	}{
		{"", true, false, false},
		{"A=false", false, false, false},
		{"A=false, B=true", false, true, false},
		{"B=1", true, true, false},
		{"C=true", true, false, true},
		{"A", true, false, true},
		{"A=maybe", true, false, true},
		{"L=false", true, false, true},
		{"L=true", true, false, false},
	}
	for _, c := range cases {
		g := New(known)
		err := g.Set(c.in)
		if (err != nil) != c.wantErr {
			t.Errorf("%q: err %v", c.in, err)
			continue
		}
		if err == nil && (g.Enabled("A") != c.a || g.Enabled("B") != c.b) {
			t.Errorf("%q: A=%v B=%v", c.in, g.Enabled("A"), g.Enabled("B"))
		}
	}
}

func TestFlag(t *testing.T) {
	g := New(map[Feature]Spec{"DryRun": {Default: true, PreRelease: Beta}})
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	g.AddFlag(fs)
	if err := fs.Parse([]string{"--feature-gates=DryRun=false"}); err != nil || g.Enabled("DryRun") || g.String() != "DryRun=false" {
		t.Fatalf("parse: %v, enabled %v, %q", err, g.Enabled("DryRun"), g.String())
	}
	if err := fs.Parse([]string{"--feature-gates=Nope=true"}); err == nil {
		t.Fatal("unknown gate accepted")
	}
}

// TestUnknownNamesKnownGates: the error for an unknown gate lists the
// known ones, or says there are none.
func TestUnknownNamesKnownGates(t *testing.T) {
	tests := []struct {
		name  string
		known map[Feature]Spec
		want  string
	}{
		{"some gates", map[Feature]Spec{"B": {}, "A": {}}, "unrecognized feature gate: Nope (known gates: A, B)"},
		{"no gates", nil, "unrecognized feature gate: Nope (this component has no feature gates)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := New(tc.known).Set("Nope=true")
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Set(Nope=true) = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestEmptySet: with no gates, an empty value parses and every name fails.
func TestEmptySet(t *testing.T) {
	g := New(nil)
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	g.AddFlag(fs)
	if err := fs.Parse([]string{"--feature-gates="}); err != nil {
		t.Fatalf("empty value: %v", err)
	}
	if err := fs.Parse([]string{"--feature-gates=DryRun=true"}); err == nil {
		t.Fatal("a gate of another component was accepted")
	}
	if u := fs.Lookup("feature-gates").Usage; !strings.Contains(u, "no feature gates") {
		t.Errorf("usage %q does not say there are no gates", u)
	}
}
