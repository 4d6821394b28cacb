package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"reflect"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// Type is a PATCH request's media type.
type Type string

// The PATCH body types understood by Apply.
const (
	JSONPatch      Type = "application/json-patch+json"
	MergePatch     Type = "application/merge-patch+json"
	StrategicMerge Type = "application/strategic-merge-patch+json"
)

// Errors returned by Apply, wrapped with context. Any other error means the
// original object itself could not be handled, which is the caller's fault.
var (
	// ErrUnsupportedType: the media type is not one of the three above (415).
	ErrUnsupportedType = errors.New("unsupported patch type")
	// ErrInvalidPatch: the body is malformed or cannot be applied (400/422).
	ErrInvalidPatch = errors.New("invalid patch")
	// ErrCannotApply: a well-formed JSON patch whose operations fail on
	// this object (a failed test, a path that is not there); it comes
	// wrapped together with ErrInvalidPatch, and is upstream's 422.
	ErrCannotApply = errors.New("the patch does not apply to the object")
)

const (
	// MaxJSONPatchOps bounds the number of operations in one JSON Patch.
	MaxJSONPatchOps = 10000
	// maxCopyGrowth bounds how many bytes JSON Patch "copy" operations may add,
	// so a short patch cannot blow the document up exponentially.
	maxCopyGrowth = 16 << 20
)

// Apply returns original with patch applied. schema is the Go type of the
// object (a struct type, e.g. reflect.TypeOf(v1.Pod{})) and is used only for
// strategic merge patch; nil means "no schema" (every list is replaced).
// t may carry media type parameters such as "; charset=utf-8".
func Apply(t Type, original, patch []byte, schema reflect.Type) ([]byte, error) {
	kind, err := normalizeType(t)
	if err != nil {
		return nil, err
	}
	if !isJSONObject(original) {
		return nil, errors.New("patch: original object is not a JSON object")
	}
	switch kind {
	case JSONPatch:
		return applyJSONPatch(original, patch)
	case MergePatch:
		return applyMergePatch(original, patch)
	default:
		return applyStrategicMerge(original, patch, schema)
	}
}

// normalizeType strips parameters and case from t and checks it is known.
func normalizeType(t Type) (Type, error) {
	switch t {
	case JSONPatch, MergePatch, StrategicMerge:
		return t, nil
	}
	mt, _, err := mime.ParseMediaType(string(t))
	if err == nil {
		switch k := Type(strings.ToLower(mt)); k {
		case JSONPatch, MergePatch, StrategicMerge:
			return k, nil
		}
	}
	return "", fmt.Errorf("%w: %q", ErrUnsupportedType, string(t))
}

func applyJSONPatch(original, body []byte) ([]byte, error) {
	if firstByte(body) != '[' || !json.Valid(body) {
		return nil, invalidf("JSON patch must be a JSON array of operations")
	}
	ops, err := jsonpatch.DecodePatch(body)
	if err != nil {
		return nil, fmt.Errorf("%w: decoding JSON patch: %w", ErrInvalidPatch, err)
	}
	if len(ops) > MaxJSONPatchOps {
		return nil, invalidf("JSON patch has %d operations, more than the limit of %d", len(ops), MaxJSONPatchOps)
	}
	for i, op := range ops {
		if err := checkOperation(op); err != nil {
			return nil, fmt.Errorf("%w: operation %d: %w", ErrInvalidPatch, i, err)
		}
	}
	opts := jsonpatch.NewApplyOptions()
	opts.AccumulatedCopySizeLimit = maxCopyGrowth
	opts.EscapeHTML = false
	out, err := ops.ApplyWithOptions(original, opts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w: %w", ErrInvalidPatch, ErrCannotApply, err)
	}
	if !isJSONObject(out) {
		return nil, fmt.Errorf("%w: %w: the result is not a JSON object", ErrInvalidPatch, ErrCannotApply)
	}
	return out, nil
}

// checkOperation refuses what RFC 6902 forbids and the library would
// otherwise read leniently, or crash on: a path or from that is not a JSON
// pointer (RFC 6901: empty, or starting with '/'), and an add, replace or
// test without a value (a test of the root without one panicked the
// library; found by FuzzJSONPatch).
func checkOperation(op jsonpatch.Operation) error {
	switch k := op.Kind(); k {
	case "add", "replace", "test":
		if _, ok := op["value"]; !ok {
			return fmt.Errorf("%s operation has no value", k)
		}
	}
	if p, err := op.Path(); err == nil && p != "" && p[0] != '/' {
		return fmt.Errorf("path %q is not a JSON pointer", p)
	}
	if f, err := op.From(); err == nil && f != "" && f[0] != '/' {
		return fmt.Errorf("from %q is not a JSON pointer", f)
	}
	return nil
}

func applyMergePatch(original, body []byte) ([]byte, error) {
	if !isJSONObject(body) {
		return nil, invalidf("merge patch must be a JSON object")
	}
	out, err := jsonpatch.MergePatch(original, body)
	if err != nil {
		return nil, fmt.Errorf("%w: applying merge patch: %w", ErrInvalidPatch, err)
	}
	return out, nil
}

func applyStrategicMerge(original, body []byte, schema reflect.Type) ([]byte, error) {
	p, err := decodeObject(body)
	if err != nil {
		return nil, fmt.Errorf("%w: strategic merge patch: %w", ErrInvalidPatch, err)
	}
	orig, err := decodeObject(original)
	if err != nil {
		return nil, fmt.Errorf("patch: decoding original object: %w", err)
	}
	merged, err := mergeMap(orig, p, schemaFor(schema), "")
	if err != nil {
		return nil, err
	}
	return encodeJSON(merged)
}

// decodeObject parses exactly one JSON object, keeping numbers verbatim.
func decodeObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("body must be a JSON object, not %s", jsonKind(v))
	}
	return m, nil
}

func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("patch: encoding result: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func isJSONObject(data []byte) bool {
	return firstByte(data) == '{' && json.Valid(data)
}

// firstByte returns the first non-whitespace byte of data, or 0.
func firstByte(data []byte) byte {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 {
		return 0
	}
	return data[0]
}

// jsonKind names the JSON type of a decoded value for error messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}

// invalidf returns an ErrInvalidPatch carrying a formatted explanation.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidPatch, fmt.Sprintf(format, args...))
}
