package endpoints

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// maxFieldProblems bounds how many unknown or duplicate fields one error lists.
const maxFieldProblems = 10

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// fieldProblems walks the JSON document data against the Go type t and
// lists the fields that encoding/json would take but upstream's decoder
// would not: keys that match a field only when case is ignored, and keys
// given twice in one object. Values the type decodes itself (a
// json.Unmarshaler) are not entered. data must be valid JSON.
func fieldProblems(data []byte, t reflect.Type) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := fieldWalker{dec: dec, fields: map[reflect.Type]map[string]reflect.Type{}}
	if err := w.value(t, ""); err != nil {
		return nil, err
	}
	return w.problems, nil
}

type fieldWalker struct {
	dec      *json.Decoder
	problems []string
	// fields caches jsonFields for the document: lists repeat their types.
	fields map[reflect.Type]map[string]reflect.Type
}

func (w *fieldWalker) report(format string, args ...any) {
	if len(w.problems) < maxFieldProblems {
		w.problems = append(w.problems, fmt.Sprintf(format, args...))
	}
}

// value reads one value whose Go type is t (nil: any).
func (w *fieldWalker) value(t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler)) {
		t = nil
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		return w.object(t, path)
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	}
	return nil
}

// object reads the members of an object up to its closing brace.
func (w *fieldWalker) object(t reflect.Type, path string) error {
	var fields map[string]reflect.Type
	var elem reflect.Type
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			if fields = w.fields[t]; fields == nil {
				fields = jsonFields(t)
				w.fields[t] = fields
			}
		case reflect.Map:
			elem = t.Elem()
		}
	}
	seen := map[string]bool{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		child := key
		if path != "" {
			child = path + "." + key
		}
		if seen[key] {
			w.report("duplicate field %q", child)
		}
		seen[key] = true
		next := elem
		if fields != nil {
			ft, ok := fields[key]
			if !ok && hasFold(fields, key) {
				w.report("unknown field %q", child)
			}
			next = ft
		}
		if err := w.value(next, child); err != nil {
			return err
		}
	}
	_, err := w.dec.Token()
	return err
}

// hasFold reports whether key names a field when case is ignored, which
// encoding/json accepts and upstream's decoder does not.
func hasFold(fields map[string]reflect.Type, key string) bool {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return true
		}
	}
	return false
}

// jsonFields maps the JSON names of t's fields, inlined structs included,
// to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for n, typ := range jsonFields(ft) {
				out[n] = typ
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
