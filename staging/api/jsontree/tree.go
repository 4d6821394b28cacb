package jsontree

import (
	"bytes"
	"encoding/json"
)

// Decode decodes one JSON value into a tree. A valid document is read by
// the package's own parser; anything else goes through encoding/json,
// for its errors (and its reading of the first of several values).
func Decode(data []byte) (any, error) {
	p := parser{data: data}
	if v := p.value(true); p.end() {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return Numbers(v), nil
}

// Numbers turns every json.Number in v, in place, into an int64 when it
// is an integer that fits and a float64 otherwise, and returns v (or the
// number, when v is one). A negative zero becomes 0, since -0 encodes as
// "-0", which reads back as an integer.
func Numbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = Numbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = Numbers(e)
		}
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n
		}
		f, _ := v.Float64()
		if f == 0 {
			return float64(0)
		}
		return f
	}
	return v
}

// DeepCopy returns a copy of v that shares no maps or slices with it.
func DeepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = DeepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = DeepCopy(e)
		}
		return out
	}
	return v
}

// Field returns the value at path below v (object keys, one per step),
// and whether there is one.
func Field(v any, path ...string) (any, bool) {
	for _, f := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[f]; !ok {
			return nil, false
		}
	}
	return v, true
}

// Unchecked is a value that decodes itself from a document nobody has
// checked: DecodeJSON reads data (one JSON value, white space around it
// allowed) as its UnmarshalJSON reads the value, and refuses data that is
// not well-formed JSON, so a caller need not run json.Valid over it first
// (encoding/json checks a document before handing it to UnmarshalJSON).
// The parser of this package checks as it reads.
type Unchecked interface {
	DecodeJSON(data []byte) error
}
