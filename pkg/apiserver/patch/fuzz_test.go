package patch

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzStrategicMerge applies arbitrary bytes as a strategic merge patch to a
// fixed pod. Errors are fine, but they must be classified as invalid patches,
// and a successful result must be a JSON object free of directives.
func FuzzStrategicMerge(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"metadata":{"labels":{"tier":null},"$deleteFromPrimitiveList/finalizers":["a"]}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},{"name":"app"}],` +
			`"containers":[{"name":"app","image":"nginx:1.25","env":[{"name":"A","$patch":"delete"}]}]}}`,
		`{"spec":{"containers":[{"$patch":"replace"}],"nodeSelector":{"$patch":"replace","a":"b"}}}`,
		`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"},"tolerations":[{"$patch":"delete"}]}}`,
		`[1,2]`,
	} {
		f.Add([]byte(seed))
	}
	original := []byte(basePod)
	f.Fuzz(func(t *testing.T, p []byte) {
		out, err := Apply(StrategicMerge, original, p, podType)
		if err != nil {
			if !errors.Is(err, ErrInvalidPatch) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		var doc map[string]any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("result is not a JSON object: %v: %s", err, out)
		}
		if k, found := findDirective(doc); found {
			t.Fatalf("directive %q left in result %s", k, out)
		}
	})
}

// findDirective searches a decoded document for a directive key.
func findDirective(v any) (string, bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if isDirectiveKey(k) {
				return k, true
			}
			if k, found := findDirective(e); found {
				return k, true
			}
		}
	case []any:
		for _, e := range v {
			if k, found := findDirective(e); found {
				return k, true
			}
		}
	}
	return "", false
}
