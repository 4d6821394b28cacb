package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDiscover: a cmd/<dir>/app with a constructor is a daemon; one
// without app (not written yet) is skipped silently, one without a
// constructor is reported.
func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "server", "app", "server.go"), "package app\nimport \"github.com/spf13/cobra\"\nfunc NewCommand() *cobra.Command { return nil }\n")
	writeFile(t, filepath.Join(dir, "cloud-thing", "app", "app.go"), "package app\nimport \"x/daemon\"\nfunc Spec() daemon.Spec { return daemon.Spec{} }\n")
	writeFile(t, filepath.Join(dir, "both", "app", "app.go"), "package app\nfunc Spec() daemon.Spec { return daemon.Spec{} }\nfunc NewCommand() *cobra.Command { return nil }\n")
	writeFile(t, filepath.Join(dir, "future", "README.md"), "not yet\n")
	writeFile(t, filepath.Join(dir, "odd", "app", "app.go"), "package app\nfunc Spec(x int) daemon.Spec { return daemon.Spec{} }\n")
	writeFile(t, filepath.Join(dir, "testonly", "app", "app_test.go"), "package app\nfunc NewCommand() *cobra.Command { return nil }\n")
	got, err := discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := found{
		entries: []entry{{"both", newCommand}, {"cloud-thing", spec}, {"server", newCommand}},
		skipped: []string{"odd", "testonly"},
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(found{}, entry{})); d != "" {
		t.Errorf("discover (-want +got):\n%s", d)
	}
}

// TestRenderList: each kind of constructor gets its call.
func TestRenderList(t *testing.T) {
	src, err := renderList([]entry{{"apiserver", newCommand}, {"cloud-controller-manager", spec}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`cloudcontrollermanager "platform.io/platform/cmd/cloud-controller-manager/app"`,
		`{Dir: "apiserver", Binary: "platform-apiserver", New: apiserver.NewCommand}`,
		`daemon.NewCommand(cloudcontrollermanager.Spec(), nil, io.Discard, io.Discard)`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("list lacks %s:\n%s", want, src)
		}
	}
	src, err = renderList([]entry{{"apiserver", newCommand}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(src), `"io"`) {
		t.Errorf("imports io with no Spec daemon:\n%s", src)
	}
}
