package structural

import (
	"bytes"
	"encoding/json"
	"testing"

	"platform.io/platform/pkg/apiserver/validation/field"

	"platform.io/client/api/jsontree"
)

// mustParse parses a schema document that the test expects to be valid
// JSON with only supported keywords.
func mustParse(t testing.TB, doc string) *Schema {
	t.Helper()
	s, err := Parse([]byte(doc))
	if err != nil {
		t.Fatalf("Parse(%s): %v", doc, err)
	}
	return s
}

// tree decodes a JSON value into the package's tree form.
func tree(t testing.TB, doc string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %s: %v", doc, err)
	}
	return jsontree.Numbers(v)
}

func object(t testing.TB, doc string) map[string]any {
	t.Helper()
	m, ok := tree(t, doc).(map[string]any)
	if !ok {
		t.Fatalf("%s is not an object", doc)
	}
	return m
}

// messages renders errors as kubectl shows them, one per line.
func messages(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Error()
	}
	return out
}

func reasons(errs field.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = string(e.Type)
	}
	return out
}
