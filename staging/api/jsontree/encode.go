package jsontree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"

	"platform.io/client/internal/jsonstring"
)

// Appender is a value that writes its own JSON encoding: AppendJSON
// appends to dst the compact JSON that encoding/json, with HTML escaping
// off, would write for the value (what its MarshalJSON returns, when it
// has one). Append and Marshal call it directly, where encoding/json
// would call MarshalJSON and then read its output again to check and
// compact it, which costs about as much as writing it.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// Marshal returns the JSON encoding of v as json.Marshal does (with HTML
// escaping when escapeHTML is set, as json.Marshal always has it, and as
// a json.Encoder has it unless SetEscapeHTML(false)); an Appender writes
// its own encoding without encoding/json's second pass over it.
func Marshal(v any, escapeHTML bool) ([]byte, error) {
	a, ok := v.(Appender)
	if !ok || isNilPointer(v) {
		if escapeHTML {
			return json.Marshal(v)
		}
		return marshalNoHTML(v)
	}
	scratch := scratchBuffers.Get().(*[]byte)
	defer putScratch(scratch)
	b, err := a.AppendJSON((*scratch)[:0])
	if err != nil {
		return nil, err
	}
	*scratch = b
	if escapeHTML && bytes.ContainsAny(b, "<>&") {
		return EscapeHTML(b), nil // a new slice already
	}
	// One allocation of the final size, rather than the doublings of a
	// slice grown from nothing (a few times the encoding's size).
	return bytes.Clone(b), nil
}

// scratchBuffers hold encodings on their way to an exact-size copy.
var scratchBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxScratch keeps the buffers of large encodings out of the pool, so it
// does not pin their memory.
const maxScratch = 64 << 10

func putScratch(b *[]byte) {
	if cap(*b) > maxScratch {
		return
	}
	scratchBuffers.Put(b)
}

// EscapeHTML returns the compact JSON b with <, > and & escaped in its
// strings as encoding/json's HTML escaping writes them (\u003c, \u003e,
// \u0026); b itself when it has none. JSON has those bytes only in strings.
func EscapeHTML(b []byte) []byte {
	if !bytes.ContainsAny(b, "<>&") {
		return b
	}
	var buf bytes.Buffer
	buf.Grow(len(b) + 32)
	json.HTMLEscape(&buf, b)
	return buf.Bytes()
}

// isNilPointer tells whether v is a nil pointer, which encoding/json
// writes as null without calling its methods.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// Append appends the JSON encoding of v to dst, byte for byte what
// encoding/json writes with HTML escaping off: object keys sorted, the
// same string escapes and number forms. Trees are what it is for; an
// Appender in a tree writes itself, and a value of any other type (a
// struct in a tree, say) is encoded by encoding/json.
// It exists because encoding/json walks a tree by reflection and sorts
// each object's keys through it, the largest cost of writing a custom
// object.
func Append(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case string:
		return jsonstring.Append(dst, v), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case float64:
		return appendFloat(dst, v)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonstring.Append(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = Append(dst, v[k]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case []any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = Append(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case Appender:
		if !isNilPointer(v) {
			return v.AppendJSON(dst)
		}
	}
	b, err := marshalNoHTML(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// appendFloat writes f as encoding/json does: the shortest form, in
// exponent form only below 1e-6 or from 1e21 on, with a two-digit
// negative exponent cut to one.
func appendFloat(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("jsontree: unsupported value: %v", f)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// marshalNoHTML is json.Marshal with HTML escaping off.
func marshalNoHTML(v any) ([]byte, error) {
	var buf appendWriter
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf[:len(buf)-1], nil
}

// appendWriter is an io.Writer that appends to itself.
type appendWriter []byte

func (w *appendWriter) Write(p []byte) (int, error) {
	*w = append(*w, p...)
	return len(p), nil
}
