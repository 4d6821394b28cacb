package structural

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/jsontree"
)

// FuzzParse feeds arbitrary documents to Parse (seed corpus in
// testdata/fuzz/FuzzParse). Whatever it accepts must survive Check and
// Warnings, and must round-trip: encoding the parsed schema and parsing it
// again gives the same encoding.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, doc []byte) {
		s, err := Parse(doc)
		if err != nil {
			return
		}
		s.Check(schemaPath())
		s.Warnings(schemaPath())
		first, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("encoding a parsed schema: %v", err)
		}
		again, err := Parse(first)
		if err != nil {
			t.Fatalf("parsing an encoded schema %s: %v", first, err)
		}
		second, err := json.Marshal(again)
		if err != nil {
			t.Fatalf("encoding a reparsed schema: %v", err)
		}
		if !bytes.Equal(first, second) {
			t.Fatalf("round trip changed the schema:\n%s\n%s", first, second)
		}
	})
}

// FuzzValidate runs the write pipeline (prune, default, validate) of
// arbitrary objects against arbitrary schemas that pass Check (seed
// corpus in testdata/fuzz/FuzzValidate). Nothing may panic; pruning and
// validating are deterministic, and pruning twice removes nothing more.
func FuzzValidate(f *testing.F) {
	f.Fuzz(func(t *testing.T, schemaDoc, objDoc []byte) {
		s, err := Parse(schemaDoc)
		if err != nil || len(s.Check(nil)) > 0 {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(objDoc))
		dec.UseNumber()
		var raw any
		if dec.Decode(&raw) != nil {
			return
		}
		obj, ok := jsontree.Numbers(raw).(map[string]any)
		if !ok {
			return
		}
		s.Prune(obj, true)
		if again := s.Prune(obj, true); len(again) > 0 {
			t.Fatalf("second prune removed %v", again)
		}
		s.ApplyDefaults(obj)
		first := messages(s.Validate(nil, obj))
		second := messages(s.Validate(nil, jsontree.DeepCopy(obj)))
		if diff := cmp.Diff(first, second); diff != "" {
			t.Fatalf("validation not deterministic (-first +second):\n%s", diff)
		}
	})
}
