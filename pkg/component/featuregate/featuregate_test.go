package featuregate

import (
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
