package openapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"platform.io/platform/pkg/apiserver/registry/builtin"
)

// TestTypedSchemaParsesSamples: every served kind's sample object (the
// protobuf round-trip corpus) parses against the typed schema, so apply
// and managedFields work on each kind with no unknown field.
func TestTypedSchemaParsesSamples(t *testing.T) {
	rows := builtin.Resources(builtin.Config{})
	ts, err := BuildTypedSchema(rows)
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, r := range rows {
		if r.Virtual != nil {
			continue
		}
		pt, ok := ts.Type(r.GroupVersionKind())
		if !ok {
			t.Errorf("%v: no typed schema", r.GroupVersionKind())
			continue
		}
		group := r.Group
		if group == "" {
			group = "core"
		}
		group = strings.TrimSuffix(group, ".platform.io")
		path := filepath.Join("../../../staging/codec/protobuf/testdata/objects", group, r.Version, r.Kind+".json")
		data, err := os.ReadFile(path)
		if err != nil {
			continue // not every kind has a sample; those that do are checked
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if _, err := pt.FromUnstructured(v); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		// The Go object of the same kind reads through reflection too.
		obj := r.New()
		if err := json.Unmarshal(data, obj); err == nil {
			if _, err := pt.FromStructured(obj, typed.AllowDuplicates); err != nil {
				t.Errorf("%s as %T: %v", path, obj, err)
			}
		}
		tested++
	}
	if tested < 20 {
		t.Fatalf("only %d kinds had samples; the sample path is wrong", tested)
	}
}

// TestTypedSchemaMergeSemantics: list and map semantics come from the
// patch strategy, merge key and list/map type markers.
func TestTypedSchemaMergeSemantics(t *testing.T) {
	tests := []struct {
		name     string
		ext      map[string]any
		wantRel  smdschema.ElementRelationship
		wantKeys []string
	}{
		{"no marker is atomic", nil, smdschema.Atomic, nil},
		{"merge with key is a keyed map", map[string]any{extPatchStrategy: "merge", extPatchMergeKey: "name"}, smdschema.Associative, []string{"name"}},
		{"merge without key is a set", map[string]any{extPatchStrategy: "merge"}, smdschema.Associative, nil},
		{"list type wins over the patch strategy", map[string]any{extListType: "atomic", extPatchStrategy: "merge", extPatchMergeKey: "name"}, smdschema.Atomic, nil},
		{"list map keys", map[string]any{extListType: "map", extListMapKeys: []string{"port", "protocol"}}, smdschema.Associative, []string{"port", "protocol"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rel, keys := listRelationship(tt.ext)
			if rel != tt.wantRel || strings.Join(keys, ",") != strings.Join(tt.wantKeys, ",") {
				t.Fatalf("got %s %v, want %s %v", rel, keys, tt.wantRel, tt.wantKeys)
			}
		})
	}
}
