// Command openapi-docs reads the doc comments of the API types under
// staging/api and writes them, keyed by Go package path, type and field, to
// pkg/apiserver/openapi/zz_generated.docs.go, where the OpenAPI builder
// turns them into schema descriptions. Run it with `make generate`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	root := flag.String("root", "", "repository root (default: found by walking up from the working directory)")
	out := flag.String("out", "", "output file (default: <root>/pkg/apiserver/openapi/zz_generated.docs.go)")
	flag.Parse()
	if *root == "" {
		r, err := findRoot()
		if err != nil {
			log.Fatal(err)
		}
		*root = r
	}
	if *out == "" {
		*out = filepath.Join(*root, "pkg", "apiserver", "openapi", "zz_generated.docs.go")
	}
	docs, err := collect(filepath.Join(*root, "staging"))
	if err != nil {
		log.Fatal(err)
	}
	src, err := render(docs)
	if err != nil {
		log.Fatal(err)
	}
	if old, err := os.ReadFile(*out); err == nil && bytes.Equal(old, src) {
		return
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// findRoot walks up from the working directory to the directory holding
// staging/go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "staging", "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no staging/go.mod above the working directory")
		}
		dir = parent
	}
}

// modulePath reads the module line of dir/go.mod.
func modulePath(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s/go.mod has no module line", dir)
}

// collect parses every non-test Go file under staging/api and returns the
// doc of each type and struct field.
func collect(staging string) (map[string]string, error) {
	mod, err := modulePath(staging)
	if err != nil {
		return nil, err
	}
	c := &collector{docs: map[string]string{}, structs: map[string]*ast.StructType{}}
	apiDir := filepath.Join(staging, "api")
	err = filepath.WalkDir(apiDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(staging, filepath.Dir(path))
		if err != nil {
			return err
		}
		return c.file(path, mod+"/"+filepath.ToSlash(rel))
	})
	if err != nil {
		return nil, err
	}
	// A type defined from a struct of its package has that struct's fields.
	for _, d := range c.defined {
		if st, ok := c.structs[d[1]]; ok {
			collectFields(d[0], st, c.docs)
		}
	}
	return c.docs, nil
}

// collector gathers docs across files; structs and defined span a package.
type collector struct {
	docs map[string]string
	// structs are the struct types by "pkgpath.Type".
	structs map[string]*ast.StructType
	// defined pairs "pkgpath.New" with "pkgpath.Old" for each "type New Old".
	defined [][2]string
}

// file adds the docs of one file's type declarations.
func (c *collector) file(path, pkg string) error {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
	if err != nil {
		return err
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if !ts.Name.IsExported() {
				continue
			}
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			key := pkg + "." + ts.Name.Name
			setDoc(c.docs, key, doc)
			switch t := ts.Type.(type) {
			case *ast.StructType:
				c.structs[key] = t
				collectFields(key, t, c.docs)
			case *ast.Ident:
				if ts.Assign == 0 {
					c.defined = append(c.defined, [2]string{key, pkg + "." + t.Name})
				}
			}
		}
	}
	return nil
}

// collectFields adds the doc (or trailing comment) of each exported field.
func collectFields(typeKey string, st *ast.StructType, docs map[string]string) {
	for _, field := range st.Fields.List {
		doc := field.Doc
		if doc == nil {
			doc = field.Comment
		}
		names := field.Names
		if len(names) == 0 {
			if n := embeddedName(field.Type); n != "" {
				names = []*ast.Ident{ast.NewIdent(n)}
			}
		}
		for _, n := range names {
			if n.IsExported() {
				setDoc(docs, typeKey+"."+n.Name, doc)
			}
		}
	}
}

// embeddedName is the field name of an embedded type expression.
func embeddedName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

// setDoc records the normalized text of cg under key, when there is any.
func setDoc(docs map[string]string, key string, cg *ast.CommentGroup) {
	if text := normalize(cg); text != "" {
		docs[key] = text
	}
}

// normalize joins the lines of each paragraph with spaces and separates
// paragraphs with a blank line, dropping marker lines ("+optional").
func normalize(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, line := range strings.Split(cg.Text(), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "+"):
		default:
			cur = append(cur, line)
		}
	}
	flush()
	return strings.Join(paras, "\n\n")
}

// render writes the generated Go file, keys sorted.
func render(docs map[string]string) ([]byte, error) {
	keys := make([]string, 0, len(docs))
	for k := range docs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("// Code generated by hack/openapi-docs. DO NOT EDIT.\n\n")
	b.WriteString("package openapi\n\n")
	b.WriteString("// docs holds the doc comments of the API types, keyed by \"pkgpath.Type\"\n")
	b.WriteString("// and \"pkgpath.Type.Field\".\n")
	b.WriteString("var docs = map[string]string{\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "\t%s: %s,\n", strconv.Quote(k), strconv.Quote(docs[k]))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
