package fieldmanager

import (
	"bytes"
	"errors"
	"reflect"
	"slices"

	jsoniter "github.com/json-iterator/go"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"platform.io/client/api/meta"
)

// errUnusual makes createdFields give way to structured-merge-diff: the
// object holds something only its full comparison answers as it does
// (an invalid list item, duplicate list keys, a value whose type the
// schema does not expect).
var errUnusual = errors.New("fieldmanager: object needs the full comparison")

// createdFields returns the fieldsV1 encoding of the fields a create of
// obj through subresource gives its manager: what structured-merge-diff's
// comparison of empty, the kind's empty object, with obj finds added or
// modified, less what the subresource does not own (whole subtrees) and
// the paths stripped (exactly those paths), encoded as Set.ToJSON
// encodes it. It builds the trie directly instead of inserting each path
// into a set, which is most of what the comparison costs, and reads a Go
// object with reflection directly. It answers errUnusual where the
// comparison might answer otherwise; the caller then takes the
// comparison's path.
func (f *FieldManager) createdFields(empty, obj meta.Object, subresource string) ([]byte, error) {
	stream := jsoniter.ConfigCompatibleWithStandardLibrary.BorrowStream(nil)
	defer jsoniter.ConfigCompatibleWithStandardLibrary.ReturnStream(stream)
	alloc := f.allocs.Get().(value.Allocator)
	defer f.allocs.Put(alloc)
	w := &createdWalker{schema: f.c.Type.Schema, alloc: alloc, plans: f.plans, stream: stream}
	exclude := f.exclude(subresource)
	stream.WriteObjectStart()
	if _, ok := obj.(unstructuredObject); !ok && f.zeroNew {
		// The Go walk writes the set as it goes.
		self, err := w.compareGo(lhsZero, reflect.ValueOf(obj).Elem(), f.c.Type.TypeRef, scope{exclude: exclude, strip: stripped})
		if err != nil {
			return nil, err
		}
		if self {
			return nil, errUnusual
		}
	} else {
		liveTV, err := f.structured(empty)
		if err != nil {
			return nil, errUnusual
		}
		newTV, err := f.structured(obj)
		if err != nil {
			return nil, errUnusual
		}
		root, err := w.compare(liveTV.AsValue(), newTV.AsValue(), f.c.Type.TypeRef, exclude, stripped)
		if err != nil {
			return nil, err
		}
		if root.self {
			return nil, errUnusual
		}
		if err := writeChildren(stream, root.children); err != nil {
			return nil, err
		}
	}
	stream.WriteObjectEnd()
	if stream.Error != nil {
		return nil, stream.Error
	}
	return bytes.Clone(stream.Buffer()), nil
}

// fieldNode is one path of the trie: whether the path itself is in the
// set, and its children that hold something. A field is named by name
// alone, a list item by pe.
type fieldNode struct {
	name     string
	pe       fieldpath.PathElement
	self     bool
	children []fieldNode
}

func (n *fieldNode) empty() bool { return !n.self && len(n.children) == 0 }

// createdWalker walks the empty object (lhs) and the new one (rhs) as
// structured-merge-diff's compare walker does, lhs nil where absent.
type createdWalker struct {
	schema *schema.Schema
	alloc  value.Allocator
	plans  *structPlans
	// stream is where the Go walk writes the set (compareGo).
	stream *jsoniter.Stream
	// stack holds the children of the nodes being walked, each node's
	// after its parent's: a node pops its own when done.
	stack []fieldNode
}

// pop removes the nodes pushed since start and returns them.
func (w *createdWalker) pop(start int) []fieldNode {
	if len(w.stack) == start {
		return nil
	}
	children := slices.Clone(w.stack[start:])
	clear(w.stack[start:])
	w.stack = w.stack[:start]
	return children
}

// compare returns the node of the path whose values are lhs and rhs
// (rhs never nil), of type tr; exclude and strip are the parts of those
// sets below the path (nil when none).
func (w *createdWalker) compare(lhs, rhs value.Value, tr schema.TypeRef, exclude, strip *fieldpath.Set) (fieldNode, error) {
	a, ok := w.schema.Resolve(tr)
	if !ok {
		return fieldNode{}, errUnusual
	}
	arhs := deduceAtom(a, rhs)
	if lhs != nil {
		// Both narrow the same atom: equal atoms are the same pointers.
		if alhs := deduceAtom(a, lhs); alhs.Scalar != arhs.Scalar || alhs.List != arhs.List || alhs.Map != arhs.Map {
			return fieldNode{}, errUnusual
		}
	}
	var n fieldNode
	var leaf bool
	var err error
	switch {
	case arhs.Map != nil:
		n.children, leaf, err = w.doMap(arhs.Map, lhs, rhs, exclude, strip)
	case arhs.List != nil:
		n.children, leaf, err = w.doList(arhs.List, lhs, rhs, exclude, strip)
	case arhs.Scalar != nil:
		leaf = true
	default:
		return fieldNode{}, errUnusual
	}
	if err != nil {
		return fieldNode{}, err
	}
	if leaf {
		n.self = lhs == nil || !value.EqualsUsing(w.alloc, rhs, lhs)
	} else {
		n.self = lhs == nil
	}
	return n, nil
}

// deduceAtom narrows an atom of several kinds to the kind of val, as the
// comparison does.
func deduceAtom(a schema.Atom, val value.Value) schema.Atom {
	switch {
	case val == nil:
	case val.IsFloat(), val.IsInt(), val.IsString(), val.IsBool():
		if a.Scalar != nil {
			return schema.Atom{Scalar: a.Scalar}
		}
	case val.IsList():
		if a.List != nil {
			return schema.Atom{List: a.List}
		}
	case val.IsMap():
		if a.Map != nil {
			return schema.Atom{Map: a.Map}
		}
	}
	return a
}

// asMap and asList read a value of the atom's kind: nil for null, an
// error for another kind.
func (w *createdWalker) asMap(v value.Value) (value.Map, error) {
	switch {
	case v == nil || v.IsNull():
		return nil, nil
	case v.IsMap():
		return v.AsMapUsing(w.alloc), nil
	}
	return nil, errUnusual
}

func (w *createdWalker) asList(v value.Value) (value.List, error) {
	switch {
	case v == nil || v.IsNull():
		return nil, nil
	case v.IsList():
		return v.AsListUsing(w.alloc), nil
	}
	return nil, errUnusual
}

// doMap returns the children of a map or struct, or leaf when it is
// compared as a whole (atomic, or empty on both sides).
func (w *createdWalker) doMap(t *schema.Map, lhs, rhs value.Value, exclude, strip *fieldpath.Set) ([]fieldNode, bool, error) {
	lm, err := w.asMap(lhs)
	if err != nil {
		return nil, false, err
	}
	if lm != nil {
		defer w.alloc.Free(lm)
	}
	rm, err := w.asMap(rhs)
	if err != nil {
		return nil, false, err
	}
	if rm != nil {
		defer w.alloc.Free(rm)
	}
	if t.ElementRelationship == schema.Atomic || ((lm == nil || lm.Empty()) && (rm == nil || rm.Empty())) {
		return nil, true, nil
	}
	if rm == nil {
		// Everything was removed: nothing added or modified.
		return nil, false, nil
	}
	start := len(w.stack)
	rm.IterateUsing(w.alloc, func(key string, rv value.Value) bool {
		// An excluded field is still compared, for the errors the
		// comparison would find in it.
		sc := fieldScope(&key, exclude, strip)
		var lv value.Value
		if lm != nil {
			if v, ok := lm.GetUsing(w.alloc, key); ok {
				lv = v
			}
		}
		var n fieldNode
		if n, err = w.compare(lv, rv, fieldType(t, key), sc.exclude, sc.strip); err != nil {
			return false
		}
		n.name = key
		w.push(n, sc)
		return true
	})
	if err != nil {
		return nil, false, err
	}
	children := w.pop(start)
	sortFields(children)
	return children, false, nil
}

// doList returns the items of an associative list, or leaf when it is
// compared as a whole (atomic, or empty on both sides). Only an empty
// list on the left is handled, as in an empty object.
func (w *createdWalker) doList(t *schema.List, lhs, rhs value.Value, exclude, strip *fieldpath.Set) ([]fieldNode, bool, error) {
	ll, err := w.asList(lhs)
	if err != nil {
		return nil, false, err
	}
	if ll != nil {
		defer w.alloc.Free(ll)
		if ll.Length() > 0 {
			return nil, false, errUnusual
		}
	}
	rl, err := w.asList(rhs)
	if err != nil {
		return nil, false, err
	}
	if rl != nil {
		defer w.alloc.Free(rl)
	}
	if t.ElementRelationship == schema.Atomic || rl == nil || rl.Length() == 0 {
		return nil, true, nil
	}
	start := len(w.stack)
	for i := range rl.Length() {
		item := rl.At(i)
		pe, err := w.itemElement(t, item)
		if err != nil {
			return nil, false, err
		}
		sc := scopeOf(pe, exclude, strip)
		n, err := w.compare(nil, item, t.ElementType, sc.exclude, sc.strip)
		if err != nil {
			return nil, false, err
		}
		n.pe = pe
		w.push(n, sc)
	}
	children := w.pop(start)
	if err := sortItems(children); err != nil {
		return nil, false, err
	}
	return children, false, nil
}

// itemElement is the path element of an item of an associative list:
// its key fields (defaults filling those it omits), or its value in a
// set of scalars.
func (w *createdWalker) itemElement(t *schema.List, item value.Value) (fieldpath.PathElement, error) {
	if t.ElementRelationship != schema.Associative || item.IsNull() {
		return fieldpath.PathElement{}, errUnusual
	}
	if len(t.Keys) == 0 {
		if item.IsMap() || item.IsList() {
			return fieldpath.PathElement{}, errUnusual
		}
		v := item
		return fieldpath.PathElement{Value: &v}, nil
	}
	if !item.IsMap() {
		return fieldpath.PathElement{}, errUnusual
	}
	m := item.AsMap()
	return w.keyElement(t, func(name string) (value.Value, bool, error) {
		v, ok := m.Get(name)
		return v, ok, nil
	})
}

// keyElement is the path element of an item of a list with keys, whose
// key fields get finds: the fields it finds, defaults for those it does
// not.
func (w *createdWalker) keyElement(t *schema.List, get func(name string) (value.Value, bool, error)) (fieldpath.PathElement, error) {
	keys := make(value.FieldList, 0, len(t.Keys))
	for _, name := range t.Keys {
		v, ok, err := get(name)
		if err != nil {
			return fieldpath.PathElement{}, err
		}
		if ok {
			keys = append(keys, value.Field{Name: name, Value: v})
			continue
		}
		def, err := keyDefault(w.schema, t, name)
		if err != nil {
			return fieldpath.PathElement{}, err
		}
		if def != nil {
			keys = append(keys, value.Field{Name: name, Value: value.NewValueInterface(def)})
		}
	}
	if len(keys) == 0 {
		return fieldpath.PathElement{}, errUnusual
	}
	keys.Sort()
	return fieldpath.PathElement{Key: &keys}, nil
}

// keyDefault is the schema's default of a list's key field, nil when none.
func keyDefault(s *schema.Schema, t *schema.List, name string) (any, error) {
	a, ok := s.Resolve(t.ElementType)
	if !ok || a.Map == nil {
		return nil, errUnusual
	}
	f, _ := a.Map.FindField(name)
	return f.Default, nil
}

// scope is what of the excluded and stripped sets falls on one child of
// a node: whether the child itself is excluded (with all below it) or
// stripped (itself only), and the parts of both sets below it.
type scope struct {
	excluded, stripped bool
	exclude, strip     *fieldpath.Set
}

func scopeOf(pe fieldpath.PathElement, exclude, strip *fieldpath.Set) scope {
	if exclude == nil && strip == nil {
		return scope{}
	}
	return scope{
		excluded: exclude != nil && exclude.Members.Has(pe), stripped: strip != nil && strip.Members.Has(pe),
		exclude: childSet(exclude, pe), strip: childSet(strip, pe),
	}
}

// fieldScope is scopeOf the field *name; a name that outlives the walk
// (a struct field's) costs no allocation.
func fieldScope(name *string, exclude, strip *fieldpath.Set) scope {
	if exclude == nil && strip == nil {
		return scope{}
	}
	return scopeOf(fieldpath.PathElement{FieldName: name}, exclude, strip)
}

// fieldType is the type of a map's or struct's field name.
func fieldType(t *schema.Map, name string) schema.TypeRef {
	if sf, ok := t.FindField(name); ok {
		return sf.Type
	}
	return t.ElementType
}

// push keeps n, a child in scope s, on the stack when it holds
// something.
func (w *createdWalker) push(n fieldNode, s scope) {
	n.self = n.self && !s.stripped
	if !s.excluded && !n.empty() {
		w.stack = append(w.stack, n)
	}
}

// childSet is the part of s below pe, nil when none.
func childSet(s *fieldpath.Set, pe fieldpath.PathElement) *fieldpath.Set {
	if s == nil {
		return nil
	}
	c, ok := s.Children.Get(pe)
	if !ok {
		return nil
	}
	return c
}

// writeChildren writes nodes, sorted, as Set.ToJSON writes a set's
// members and children: a member alone as "pe":{}, one with children as
// "pe":{".":{},...}.
func writeChildren(stream *jsoniter.Stream, nodes []fieldNode) error {
	for i := range nodes {
		n := &nodes[i]
		if i > 0 {
			stream.WriteMore()
		}
		if err := writeKey(stream, n); err != nil {
			return err
		}
		stream.WriteObjectStart()
		if len(n.children) > 0 {
			if n.self {
				stream.WriteObjectField(".")
				stream.WriteEmptyObject()
				stream.WriteMore()
			}
			if err := writeChildren(stream, n.children); err != nil {
				return err
			}
		}
		stream.WriteObjectEnd()
	}
	return nil
}

// writeKey writes the node's path element as an object key: "f:name"
// for a field, as encoding/json would quote it, or the serialized key or
// value of a list item.
func writeKey(stream *jsoniter.Stream, n *fieldNode) error {
	if n.pe != (fieldpath.PathElement{}) {
		key, err := fieldpath.SerializePathElement(n.pe)
		if err != nil {
			return err
		}
		stream.WriteObjectField(key)
		return nil
	}
	writeFieldKey(stream, n.name)
	return nil
}

// writeFieldKey writes the key of field name, "f:name".
func writeFieldKey(stream *jsoniter.Stream, name string) {
	if !plainKey(name) {
		stream.WriteObjectField("f:" + name)
		return
	}
	stream.WriteRaw(`"f:`)
	stream.WriteRaw(name)
	stream.WriteRaw(`":`)
}

// plainKey says s needs no escape in a JSON string, HTML-safe as
// encoding/json writes it: printable ASCII other than the quote, the
// backslash and <, > and &.
func plainKey(s string) bool {
	for i := range len(s) {
		switch c := s[i]; {
		case c < 0x20, c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
