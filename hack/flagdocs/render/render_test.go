package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"platform.io/platform/hack/flagdocs/daemons"
	"platform.io/platform/pkg/component/cli"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRenderDoc: groups in order, one row per visible flag with type,
// default and description, cells escaped.
func TestRenderDoc(t *testing.T) {
	cmd := &cobra.Command{Use: "platform-x", Long: "platform-x does\nthings."}
	cli.AddGroups(cmd, []cli.NamedFlagSet{
		cli.Group("Second", func(fs *pflag.FlagSet) {
			fs.Int("port", 10, "A port.")
			fs.String("old", "", "Old | new.")
			_ = fs.MarkDeprecated("old", "use --port")
			fs.Lookup("old").Hidden = false // shown in --help, as the daemons do
			fs.Bool("secret", false, "hidden")
			_ = fs.MarkHidden("secret")
		}),
		cli.Group("First", func(fs *pflag.FlagSet) {
			fs.IntP("v", "v", 0, "Verbosity\nlevel.")
			fs.StringSlice("list", nil, "A list.")
		}),
	})
	got := string(renderDoc(daemons.Command{Dir: "x", Binary: "platform-x"}, cmd))
	want := marker + "\n\n# platform-x flags\n\nplatform-x does things.\n\n" +
		"Generated from `cmd/x/app`; `platform-x --help` prints the same groups.\n" +
		"\n## Second\n\n| Flag | Type | Default | Description |\n|---|---|---|---|\n" +
		"| `--old` | string |  | Old \\| new. DEPRECATED: use --port. |\n" +
		"| `--port` | int | `10` | A port. |\n" +
		"\n## First\n\n| Flag | Type | Default | Description |\n|---|---|---|---|\n" +
		"| `--list` | stringSlice |  | A list. |\n" +
		"| `-v`, `--v` | int | `0` | Verbosity<br>level. |\n"
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("doc (-want +got):\n%s", d)
	}
}

// TestReferenceFresh: docs/flags matches the daemons' flags, so a flag
// change without make generate fails here too.
func TestReferenceFresh(t *testing.T) {
	if len(daemons.All()) < 3 {
		t.Fatalf("only %d daemons listed", len(daemons.All()))
	}
	if stale := staleDocs(filepath.Join("..", "..", "..", "docs", "flags"), render(daemons.All())); len(stale) > 0 {
		t.Fatalf("stale flag reference: %v; run make generate", stale)
	}
}

// TestWriteDocs: a daemon that is gone loses its generated file; other
// files stay.
func TestWriteDocs(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "gone.md"), marker+"\nold\n")
	writeFile(t, filepath.Join(dir, "notes.md"), "hand-written\n")
	if err := writeDocs(dir, map[string][]byte{"a.md": []byte(marker + "\na\n")}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if d := cmp.Diff([]string{"a.md", "notes.md"}, names); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	if stale := staleDocs(dir, map[string][]byte{"a.md": []byte(marker + "\na\n")}); len(stale) != 0 {
		t.Errorf("stale after write: %v", stale)
	}
}
