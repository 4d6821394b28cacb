package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// loader type-checks the module's packages from their sources, leaving out
// test files and the generated protobuf files, so that the generator works
// however stale or broken those are. Packages outside the module come from
// the compiler's export data, located with one run of go list.
type loader struct {
	fset    *token.FileSet
	root    string // the module's directory
	module  string // the module's path
	files   map[string][]*ast.File
	pkgs    map[string]*types.Package
	exports map[string]string // import path -> export data file
	std     types.Importer
}

func newLoader(root, module string) *loader {
	l := &loader{
		fset:   token.NewFileSet(),
		root:   root,
		module: module,
		files:  map[string][]*ast.File{},
		pkgs:   map[string]*types.Package{},
	}
	l.std = importer.ForCompiler(l.fset, "gc", l.lookup)
	return l
}

// inModule reports whether path names a package of the module.
func (l *loader) inModule(path string) bool {
	return path == l.module || strings.HasPrefix(path, l.module+"/")
}

// dir returns the directory of the module's package path.
func (l *loader) dir(path string) string {
	return filepath.Join(l.root, filepath.FromSlash(strings.TrimPrefix(path, l.module)))
}

// parse parses the files of the module's package path that go into a build,
// except tests and generated protobuf files, in name order.
func (l *loader) parse(path string) ([]*ast.File, error) {
	if files, ok := l.files[path]; ok {
		return files, nil
	}
	dir := l.dir(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == outputName {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(l.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	l.files[path] = files
	return files, nil
}

// externalImports returns the packages outside the module that path and the
// module packages it imports import, sorted.
func (l *loader) externalImports(path string) ([]string, error) {
	seen := map[string]bool{}
	var external []string
	var walk func(string) error
	walk = func(p string) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if !l.inModule(p) {
			external = append(external, p)
			return nil
		}
		files, err := l.parse(p)
		if err != nil {
			return err
		}
		for _, f := range files {
			for _, imp := range f.Imports {
				if err := walk(strings.Trim(imp.Path.Value, `"`)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk(path)
	slices.Sort(external)
	return external, err
}

// locateExports runs go list once to find the export data of paths and of
// everything they depend on.
func (l *loader) locateExports(paths []string) error {
	l.exports = map[string]string{}
	if len(paths) == 0 {
		return nil
	}
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, paths...)
	cmd := exec.Command("go", args...)
	cmd.Dir = l.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if p, file, ok := strings.Cut(sc.Text(), "\t"); ok && file != "" {
			l.exports[p] = file
		}
	}
	return sc.Err()
}

// lookup opens the export data of a package outside the module.
func (l *loader) lookup(path string) (io.ReadCloser, error) {
	file, ok := l.exports[path]
	if !ok {
		return nil, fmt.Errorf("no export data for %s", path)
	}
	return os.Open(file)
}

// Import type-checks a package of the module from source, or loads another
// from export data. Type errors are ignored: the generator reads only
// declarations, and reports any field whose type did not resolve.
func (l *loader) Import(path string) (*types.Package, error) {
	if !l.inModule(path) {
		return l.std.Import(path)
	}
	if pkg, ok := l.pkgs[path]; ok {
		return pkg, nil
	}
	files, err := l.parse(path)
	if err != nil {
		return nil, err
	}
	conf := types.Config{Importer: l, Error: func(error) {}}
	pkg, _ := conf.Check(path, l.fset, files, nil)
	l.pkgs[path] = pkg
	return pkg, nil
}

// load type-checks the module's package path.
func (l *loader) load(path string) (*types.Package, error) {
	external, err := l.externalImports(path)
	if err != nil {
		return nil, err
	}
	if err := l.locateExports(external); err != nil {
		return nil, err
	}
	return l.Import(path)
}

// findModule walks up from dir to the go.mod that contains it and returns
// the module's directory and path.
func findModule(dir string) (root, module string, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return d, strings.Trim(strings.TrimSpace(rest), `"`), nil
				}
			}
			return "", "", fmt.Errorf("%s/go.mod names no module", d)
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}
