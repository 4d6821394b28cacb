package patch

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// nodeKind says how a JSON value of some Go type is shaped.
type nodeKind uint8

const (
	kindStruct nodeKind = iota + 1 // JSON object with a fixed set of fields
	kindMap                        // JSON object whose values share one type
	kindList                       // JSON array
)

// node is the strategic-merge view of a Go type. A nil *node stands for a
// type we know nothing useful about (interfaces, scalars, and types that
// marshal themselves); values of such types merge as plain JSON.
type node struct {
	kind   nodeKind
	fields map[string]*field // kindStruct: JSON name -> field
	item   *field            // kindMap: any value; kindList: any element
}

// field carries the patch metadata of one struct field (or of the values of
// a map, or the elements of a list, which never have tags of their own).
type field struct {
	node     *node
	merge    bool   // patchStrategy contains "merge"
	replace  bool   // patchStrategy contains "replace"
	mergeKey string // patchMergeKey
}

// lookup returns the metadata for the JSON key name inside an object of
// this node's type, or nil when the key is unknown.
func (n *node) lookup(name string) *field {
	if n == nil {
		return nil
	}
	switch n.kind {
	case kindStruct:
		return n.fields[name]
	case kindMap:
		return n.item
	}
	return nil
}

// schema returns the node of the field's type; nil-safe.
func (f *field) schema() *node {
	if f == nil {
		return nil
	}
	return f.node
}

// elem returns the metadata of the elements when the field is a list.
func (f *field) elem() *field {
	if f == nil || f.node == nil || f.node.kind != kindList {
		return nil
	}
	return f.node.item
}

func (f *field) merges() bool   { return f != nil && f.merge }
func (f *field) replaces() bool { return f != nil && f.replace }

func (f *field) key() string {
	if f == nil {
		return ""
	}
	return f.mergeKey
}

// schemaCache holds the nodes built so far. Building happens under mu;
// finished top-level results are also published in ready for lock-free reads.
var schemaCache = struct {
	mu    sync.Mutex
	nodes map[reflect.Type]*node
	ready sync.Map // reflect.Type -> *node
}{nodes: map[reflect.Type]*node{}}

// schemaFor returns the (cached) node describing t.
func schemaFor(t reflect.Type) *node {
	if t == nil {
		return nil
	}
	if n, ok := schemaCache.ready.Load(t); ok {
		return n.(*node)
	}
	schemaCache.mu.Lock()
	defer schemaCache.mu.Unlock()
	n := buildNode(t)
	schemaCache.ready.Store(t, n)
	return n
}

// buildNode constructs the node for t. The node is registered before its
// children are built so that recursive types terminate. Callers hold mu.
func buildNode(t reflect.Type) *node {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n, ok := schemaCache.nodes[t]; ok {
		return n
	}
	if selfMarshaling(t) {
		schemaCache.nodes[t] = nil
		return nil
	}
	var n *node
	switch t.Kind() {
	case reflect.Struct:
		n = &node{kind: kindStruct, fields: map[string]*field{}}
		schemaCache.nodes[t] = n
		addStructFields(n.fields, t, map[reflect.Type]bool{})
	case reflect.Map:
		n = &node{kind: kindMap}
		schemaCache.nodes[t] = n
		n.item = &field{node: buildNode(t.Elem())}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			break // []byte travels as a base64 string
		}
		n = &node{kind: kindList}
		schemaCache.nodes[t] = n
		n.item = &field{node: buildNode(t.Elem())}
	}
	schemaCache.nodes[t] = n
	return n
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// selfMarshaling reports whether t (or *t) chooses its own JSON form, like
// time values or resource quantities; such values are treated as opaque.
func selfMarshaling(t reflect.Type) bool {
	for _, m := range []reflect.Type{jsonMarshalerType, textMarshalerType} {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return true
		}
	}
	return false
}

// addStructFields records the JSON-visible fields of struct type t in dst.
// Fields declared directly win over fields promoted from inlined embedded
// structs, mirroring encoding/json's preference for shallower fields.
func addStructFields(dst map[string]*field, t reflect.Type, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	var inlined []reflect.Type
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, inline, ok := jsonFieldName(sf)
		switch {
		case !ok:
			continue
		case inline:
			inlined = append(inlined, derefType(sf.Type))
		default:
			if _, taken := dst[name]; !taken {
				dst[name] = newField(sf)
			}
		}
	}
	for _, it := range inlined {
		addStructFields(dst, it, seen)
	}
}

// jsonFieldName applies encoding/json's naming rules to one struct field.
// inline is true for embedded structs whose fields are promoted (untagged,
// or tagged `json:",inline"` which encoding/json treats the same way).
func jsonFieldName(sf reflect.StructField) (name string, inline, ok bool) {
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "", false, false
	}
	name, _, _ = strings.Cut(tag, ",")
	if sf.Anonymous && name == "" && derefType(sf.Type).Kind() == reflect.Struct {
		return "", true, true
	}
	if !sf.IsExported() {
		return "", false, false
	}
	if name == "" {
		name = sf.Name
	}
	return name, false, true
}

func newField(sf reflect.StructField) *field {
	f := &field{node: buildNode(sf.Type), mergeKey: sf.Tag.Get("patchMergeKey")}
	for _, s := range strings.Split(sf.Tag.Get("patchStrategy"), ",") {
		switch strings.TrimSpace(s) {
		case "merge":
			f.merge = true
		case "replace":
			f.replace = true
		}
		// "retainKeys" needs no action when applying: the client turns it
		// into a $retainKeys directive, which is honoured wherever it appears.
	}
	return f
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
