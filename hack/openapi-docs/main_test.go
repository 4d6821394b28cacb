package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.io/client\n")
	write("api/widget/v1/types.go", `package v1

// Widget is a thing.
//
// It has two paragraphs,
// the second on two lines.
type Widget struct {
	// Size is how big.
	// +optional
	Size int
	Color string // Color is the paint.
	hidden int
}

// Gadget has a widget's fields.
type Gadget Widget
`)
	write("api/widget/v1/types_test.go", "package v1\n\n// Ignored is in a test.\ntype Ignored struct{}\n")
	docs, err := collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	const pkg = "example.io/client/api/widget/v1."
	want := map[string]string{
		pkg + "Widget":       "Widget is a thing.\n\nIt has two paragraphs, the second on two lines.",
		pkg + "Widget.Size":  "Size is how big.",
		pkg + "Widget.Color": "Color is the paint.",
		pkg + "Gadget":       "Gadget has a widget's fields.",
		pkg + "Gadget.Size":  "Size is how big.",
		pkg + "Gadget.Color": "Color is the paint.",
	}
	if len(docs) != len(want) {
		t.Errorf("got %d docs, want %d: %v", len(docs), len(want), docs)
	}
	for k, v := range want {
		if docs[k] != v {
			t.Errorf("%s = %q, want %q", k, docs[k], v)
		}
	}
	src, err := render(docs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "DO NOT EDIT") || strings.Index(string(src), "Gadget") > strings.Index(string(src), "Widget") {
		t.Error("rendered file lacks the header or is not sorted")
	}
}
