package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// FuzzJSONPatch applies arbitrary bytes as a JSON patch to a fixed pod.
// Errors must be classified as invalid patches; a result must be a JSON
// object; and a patch that applies must apply again to its own result
// when it only adds and replaces (those operations are idempotent).
func FuzzJSONPatch(f *testing.F) {
	for _, seed := range []string{
		`[]`,
		`[{"op":"add","path":"/metadata/labels/x","value":"y"}]`,
		`[{"op":"replace","path":"/spec/containers/0/image","value":"busybox"}]`,
		`[{"op":"test","path":"/metadata/name","value":"web"},{"op":"remove","path":"/metadata/labels"}]`,
		`[{"op":"copy","from":"/spec","path":"/metadata/annotations/copy"}]`,
		`[{"op":"move","from":"/metadata/labels","path":"/metadata/annotations"}]`,
		`[{"op":"add","path":"/spec/containers/-","value":{"name":"b","image":"c"}}]`,
		`[{"op":"remove","path":"/nope"}]`,
		`[{"op":"add","path":"/a~1b~0c","value":[1,{"x":null}]}]`,
		`{"op":"add"}`,
	} {
		f.Add([]byte(seed))
	}
	original := []byte(basePod)
	f.Fuzz(func(t *testing.T, p []byte) {
		out, err := Apply(JSONPatch, original, p, nil)
		if err != nil {
			if !errors.Is(err, ErrInvalidPatch) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		if !isJSONObject(out) || !json.Valid(out) {
			t.Fatalf("result is not a JSON object: %s", out)
		}
		if !onlyAddsAndReplaces(p) {
			return
		}
		again, err := Apply(JSONPatch, out, p, nil)
		if err != nil {
			t.Fatalf("an add/replace patch does not apply to its own result: %v\npatch %s\nresult %s", err, p, out)
		}
		if !sameJSON(t, again, out) {
			t.Fatalf("an add/replace patch is not idempotent:\npatch %s\nonce %s\ntwice %s", p, out, again)
		}
	})
}

// onlyAddsAndReplaces reports whether p is a list of add and replace
// operations on object members (no array index or '-', which insert).
func onlyAddsAndReplaces(p []byte) bool {
	var ops []map[string]any
	if json.Unmarshal(p, &ops) != nil {
		return false
	}
	for _, op := range ops {
		path, _ := op["path"].(string)
		if (op["op"] != "add" && op["op"] != "replace") || path == "" || bytes.ContainsAny([]byte(path), "0123456789-") {
			return false
		}
	}
	return true
}

// FuzzMergePatch applies arbitrary bytes as a merge patch to a fixed pod.
// Errors must be classified as invalid patches; a result must be a JSON
// object; and merge patches are idempotent (RFC 7386): applying the same
// patch to the result changes nothing.
func FuzzMergePatch(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"metadata":{"labels":{"app":null,"x":"y"}}}`,
		`{"spec":{"containers":[{"name":"only"}]}}`,
		`{"spec":null,"status":{"phase":"Running"}}`,
		`{"a":{"b":{"c":{"d":[1,2,{"e":null}]}}}}`,
		`[1]`,
		`null`,
	} {
		f.Add([]byte(seed))
	}
	original := []byte(basePod)
	f.Fuzz(func(t *testing.T, p []byte) {
		out, err := Apply(MergePatch, original, p, nil)
		if err != nil {
			if !errors.Is(err, ErrInvalidPatch) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		if !isJSONObject(out) || !json.Valid(out) {
			t.Fatalf("result is not a JSON object: %s", out)
		}
		again, err := Apply(MergePatch, out, p, nil)
		if err != nil {
			t.Fatalf("the patch does not apply to its own result: %v", err)
		}
		if !sameJSON(t, again, out) {
			t.Fatalf("merge patch not idempotent:\npatch %s\nonce %s\ntwice %s", p, out, again)
		}
	})
}

// sameJSON reports whether a and b hold the same JSON value, numbers
// compared by their text as the patches keep them: a number beyond
// float64's range (1E1000) is valid JSON that the patch passes through for
// the typed decoder to judge (found by FuzzMergePatch).
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	va, err := decodeObject(a)
	if err != nil {
		t.Fatalf("not a JSON object: %v: %s", err, a)
	}
	vb, err := decodeObject(b)
	if err != nil {
		t.Fatalf("not a JSON object: %v: %s", err, b)
	}
	return reflect.DeepEqual(va, vb)
}
