package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestGroups: Groups returns what AddGroups was given, in order.
func TestGroups(t *testing.T) {
	cmd := &cobra.Command{Use: "x"}
	AddGroups(cmd, []NamedFlagSet{
		Group("Zeta", func(fs *pflag.FlagSet) { fs.String("b", "", ""); fs.String("a", "", "") }),
		Group("Alpha", func(fs *pflag.FlagSet) { fs.Int("c", 1, "") }),
		Group("Empty", func(*pflag.FlagSet) {}),
	})
	var got [][]string
	for _, g := range Groups(cmd) {
		names := []string{g.Name}
		g.Set.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		got = append(got, names)
	}
	want := [][]string{{"Zeta", "a", "b"}, {"Alpha", "c"}, {"Empty"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}
	if g := Groups(&cobra.Command{Use: "plain"}); g != nil {
		t.Errorf("a command without groups: %v", g)
	}
}
