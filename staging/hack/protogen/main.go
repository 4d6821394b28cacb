// Command protogen writes the protobuf codec of an API package: a file
// zz_generated.proto.go with MarshalProto and UnmarshalProto methods for
// every struct type of the package whose fields carry protobuf tags, built
// from the helpers of platform.io/client/codec/protobuf and encoding each
// message byte for byte as upstream's gogo-generated code does.
//
// It is run by go generate in each API package (see the package's doc.go)
// and takes the package directories as arguments, the current directory
// when there are none:
//
//	go run ../../../hack/protogen
//
// Types that carry their own MarshalProto (Time, Quantity, IntOrString, ...)
// are used as they are. The generator reads the sources with go/types and
// leaves the generated files out, so it works however stale they are.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// outputName is the file written into each package.
const outputName = "zz_generated.proto.go"

func main() {
	dirs := os.Args[1:]
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	for _, dir := range dirs {
		if err := run(dir); err != nil {
			fmt.Fprintf(os.Stderr, "protogen: %s: %v\n", dir, err)
			os.Exit(1)
		}
	}
}

// run generates the file of the package in dir, rewriting it only when its
// content changes.
func run(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	root, module, err := findModule(abs)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return err
	}
	path := module
	if rel != "." {
		path += "/" + filepath.ToSlash(rel)
	}
	pkg, err := newLoader(root, module).load(path)
	if err != nil {
		return err
	}
	src, err := generate(pkg)
	if err != nil {
		return err
	}
	out := filepath.Join(abs, outputName)
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, src) {
		return nil
	}
	return os.WriteFile(out, src, 0o644)
}
