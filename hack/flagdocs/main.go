// Command flagdocs writes the flag reference of every daemon,
// docs/flags/<daemon>.md, from the daemons' own commands. The daemons are
// the cmd/<daemon>/app packages that export a command constructor,
// NewCommand() *cobra.Command or Spec() daemon.Spec; flagdocs writes the
// list of them to daemons/zz_generated.daemons.go, then runs
// ./render, which imports that list and walks each command's flag groups
// as --help shows them (name, type, default, description). Two programs,
// so that a daemon added or removed under cmd/ is picked up by the next
// run: the renderer is compiled only after the list is current. Run it
// with `make generate`; with -verify it writes nothing and fails when
// anything is stale (make verify).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	root := flag.String("root", "", "repository root (default: found by walking up from the working directory)")
	verify := flag.Bool("verify", false, "write nothing; fail if the list of daemons or a flag reference is stale")
	flag.Parse()
	if *root == "" {
		r, err := findRoot()
		if err != nil {
			log.Fatal(err)
		}
		*root = r
	}
	if err := run(*root, *verify); err != nil {
		log.Fatal(err)
	}
}

func run(root string, verify bool) error {
	found, err := discover(filepath.Join(root, "cmd"))
	if err != nil {
		return err
	}
	for _, s := range found.skipped {
		fmt.Fprintf(os.Stderr, "flagdocs: cmd/%s/app has no NewCommand() *cobra.Command or Spec() daemon.Spec; no flag reference for it\n", s)
	}
	listPath := filepath.Join(root, "hack", "flagdocs", "daemons", "zz_generated.daemons.go")
	list, err := renderList(found.entries)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(listPath)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if !bytes.Equal(old, list) {
		if verify {
			return fmt.Errorf("%s is stale: run make generate", listPath)
		}
		if err := os.WriteFile(listPath, list, 0o644); err != nil {
			return err
		}
	}
	args := []string{"run", "./hack/flagdocs/render", "-root", root}
	if verify {
		args = append(args, "-verify")
	}
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stdout, os.Stderr
	return cmd.Run()
}

// findRoot walks up from the working directory to the root module's go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(data, []byte("module platform.io/platform\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of platform.io/platform above the working directory")
		}
		dir = parent
	}
}
