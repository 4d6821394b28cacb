package fieldmanager

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// lhs is what the empty object holds where the walk of a Go object is:
// nothing, null (a nil pointer, slice or map), or the zero value of the
// field's type.
type lhs uint8

const (
	lhsAbsent lhs = iota
	lhsNull
	lhsZero
)

// compareGo is compare for a Go value of a built-in kind, read with
// reflection directly: structs field by field through
// structured-merge-diff's own cache of their JSON fields, so that each
// field needs no value wrapper. Whatever holds a subtlety of the
// comparison (null, leaves compared whole, values with their own JSON
// encoding, byte strings, interfaces) is handed to compare as
// structured-merge-diff values, which decide it as the comparison does.
func (w *createdWalker) compareGo(l lhs, rv reflect.Value, tr schema.TypeRef, exclude, strip *fieldpath.Set) (fieldNode, error) {
	a, ok := w.schema.Resolve(tr)
	if !ok {
		return fieldNode{}, errUnusual
	}
	if l == lhsAbsent && scalarOnly(a) {
		// A leaf whatever the value: added.
		return fieldNode{self: true}, nil
	}
	entry := value.TypeReflectEntryOf(rv.Type())
	if entry.CanConvertToUnstructured() {
		return w.delegate(l, rv, tr, exclude, strip)
	}
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return w.delegate(l, rv, tr, exclude, strip)
		}
		if l == lhsZero {
			l = lhsNull
		}
		return w.compareGo(l, rv.Elem(), tr, exclude, strip)
	case reflect.Struct:
		if a.Map == nil || (l == lhsNull && (a.Scalar != nil || a.List != nil)) {
			return w.delegate(l, rv, tr, exclude, strip)
		}
		return w.structGo(l, entry, rv, a.Map, tr, exclude, strip)
	case reflect.Slice:
		if rv.IsNil() || rv.Type().Elem().Kind() == reflect.Uint8 || a.List == nil || (a.Scalar != nil || a.Map != nil) {
			return w.delegate(l, rv, tr, exclude, strip)
		}
		return w.sliceGo(l, rv, a.List, exclude, strip)
	case reflect.Map:
		if rv.IsNil() || rv.Type().Key().Kind() != reflect.String || a.Map == nil || (a.Scalar != nil || a.List != nil) {
			return w.delegate(l, rv, tr, exclude, strip)
		}
		return w.mapGo(l, rv, a.Map, exclude, strip)
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Float32, reflect.Float64:
		if a.Scalar == nil {
			return w.delegate(l, rv, tr, exclude, strip)
		}
		// A leaf: added where the empty object has nothing, modified
		// where it differs from the zero value there.
		return fieldNode{self: l == lhsAbsent || !rv.IsZero()}, nil
	}
	return w.delegate(l, rv, tr, exclude, strip)
}

// structGo compares a struct with what the empty object has there.
func (w *createdWalker) structGo(l lhs, entry *value.TypeReflectCacheEntry, rv reflect.Value, t *schema.Map, tr schema.TypeRef, exclude, strip *fieldpath.Set) (fieldNode, error) {
	if t.ElementRelationship == schema.Atomic && l == lhsZero {
		return w.delegate(l, rv, tr, exclude, strip)
	}
	if t.ElementRelationship == schema.Atomic {
		// A leaf, added or changed from null.
		return fieldNode{self: true}, nil
	}
	fields := entry.OrderedFields()
	zero := w.zeros.of(rv.Type(), fields)
	start := len(w.stack)
	present := false
	for i, f := range fields {
		fv := f.GetFrom(rv)
		if f.CanOmit(fv) {
			// Absent here; at most removed, which a create ignores.
			continue
		}
		present = true
		name := f.JsonName
		cl := lhsAbsent
		if l == lhsZero && zero.has[i] {
			cl = lhsZero
			switch fv.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
				cl = lhsNull
			}
		}
		ft := fieldType(t, name)
		sc := fieldScope(name, exclude, strip)
		if sc.stripped && sc.strip == nil {
			if fa, ok := w.schema.Resolve(ft); ok && scalarOnly(fa) {
				// A stripped leaf (the name, the uid, ...) adds nothing.
				continue
			}
		}
		n, err := w.compareGo(cl, fv, ft, sc.exclude, sc.strip)
		if err != nil {
			return fieldNode{}, err
		}
		n.name = name
		w.push(n, sc)
	}
	children := w.pop(start)
	if !present && (l != lhsZero || !zero.any) {
		// Empty on both sides, a leaf: added, changed from null, or as
		// empty as the zero struct.
		return fieldNode{self: l != lhsZero}, nil
	}
	// The fields come sorted by their JSON names.
	return fieldNode{self: l == lhsAbsent, children: children}, nil
}

// zeroFields caches, by struct type, which of its JSON fields its zero
// value has (those never omitted), in the order of OrderedFields.
type zeroFields struct{ m sync.Map }

type zeroStruct struct {
	has []bool
	any bool
}

func (z *zeroFields) of(t reflect.Type, fields []*value.FieldCacheEntry) *zeroStruct {
	if v, ok := z.m.Load(t); ok {
		return v.(*zeroStruct)
	}
	zs := &zeroStruct{has: make([]bool, len(fields))}
	zero := reflect.Zero(t)
	for i, f := range fields {
		zs.has[i] = !f.CanOmit(f.GetFrom(zero))
		zs.any = zs.any || zs.has[i]
	}
	z.m.Store(t, zs)
	return zs
}

// sliceGo compares a non-empty list with the empty object's, which is
// null or absent.
func (w *createdWalker) sliceGo(l lhs, rv reflect.Value, t *schema.List, exclude, strip *fieldpath.Set) (fieldNode, error) {
	if t.ElementRelationship == schema.Atomic || rv.Len() == 0 {
		// A leaf: added, or a list where the empty object has null.
		return fieldNode{self: true}, nil
	}
	start := len(w.stack)
	for i := range rv.Len() {
		item := rv.Index(i)
		pe, err := w.goItemElement(t, item)
		if err != nil {
			return fieldNode{}, err
		}
		sc := scopeOf(pe, exclude, strip)
		n, err := w.compareGo(lhsAbsent, item, t.ElementType, sc.exclude, sc.strip)
		if err != nil {
			return fieldNode{}, err
		}
		n.pe = pe
		w.push(n, sc)
	}
	children := w.pop(start)
	if err := sortItems(children); err != nil {
		return fieldNode{}, err
	}
	return fieldNode{self: l == lhsAbsent, children: children}, nil
}

// goItemElement is itemElement for a Go list item. The key fields of a
// struct item that are strings, booleans or integers are read with
// reflection directly, as the comparison's values would read them (a
// field it omits is absent); any other item is read through those values.
func (w *createdWalker) goItemElement(t *schema.List, item reflect.Value) (fieldpath.PathElement, error) {
	if s := structOf(item); s.IsValid() && t.ElementRelationship == schema.Associative && len(t.Keys) > 0 {
		fields := value.TypeReflectEntryOf(s.Type()).Fields()
		pe, err := w.keyElement(t, func(name string) (value.Value, bool, error) {
			f, ok := fields[name]
			if !ok {
				return nil, false, nil
			}
			fv := f.GetFrom(s)
			if f.CanOmit(fv) {
				return nil, false, nil
			}
			switch fv.Kind() {
			case reflect.String:
				return value.NewValueInterface(fv.String()), true, nil
			case reflect.Bool:
				return value.NewValueInterface(fv.Bool()), true, nil
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				return value.NewValueInterface(fv.Int()), true, nil
			case reflect.Uint8, reflect.Uint16, reflect.Uint32:
				return value.NewValueInterface(int64(fv.Uint())), true, nil
			}
			return nil, false, errNotPlain
		})
		if !errors.Is(err, errNotPlain) {
			return pe, err
		}
	}
	iv, err := reflectValue(item)
	if err != nil {
		return fieldpath.PathElement{}, errUnusual
	}
	return w.itemElement(t, iv)
}

// errNotPlain: a key field is not a plain scalar of Go.
var errNotPlain = errors.New("fieldmanager: key field is not a plain scalar")

// mapGo compares a non-empty map with the empty object's, which is null
// or absent.
func (w *createdWalker) mapGo(l lhs, rv reflect.Value, t *schema.Map, exclude, strip *fieldpath.Set) (fieldNode, error) {
	if t.ElementRelationship == schema.Atomic || rv.Len() == 0 {
		// A leaf: added, or a map where the empty object has null.
		return fieldNode{self: true}, nil
	}
	start := len(w.stack)
	for it := rv.MapRange(); it.Next(); {
		name := it.Key().String()
		sc := fieldScope(name, exclude, strip)
		n, err := w.compareGo(lhsAbsent, it.Value(), fieldType(t, name), sc.exclude, sc.strip)
		if err != nil {
			return fieldNode{}, err
		}
		n.name = name
		w.push(n, sc)
	}
	children := w.pop(start)
	sortFields(children)
	return fieldNode{self: l == lhsAbsent, children: children}, nil
}

// scalarOnly says an atom is a scalar and nothing else: a leaf whatever
// value it holds.
func scalarOnly(a schema.Atom) bool { return a.Scalar != nil && a.List == nil && a.Map == nil }

// delegate compares rv and what the empty object has there as
// structured-merge-diff values.
func (w *createdWalker) delegate(l lhs, rv reflect.Value, tr schema.TypeRef, exclude, strip *fieldpath.Set) (fieldNode, error) {
	rhs, err := reflectValue(rv)
	if err != nil {
		return fieldNode{}, errUnusual
	}
	var lv value.Value
	switch l {
	case lhsNull:
		lv = value.NewValueInterface(nil)
	case lhsZero:
		if lv, err = reflectValue(reflect.Zero(rv.Type())); err != nil {
			return fieldNode{}, errUnusual
		}
	}
	return w.compare(lv, rhs, tr, exclude, strip)
}

// reflectValue is rv as a structured-merge-diff value, which reads a Go
// value through a pointer to it.
func reflectValue(rv reflect.Value) (value.Value, error) {
	switch {
	case rv.Kind() == reflect.Pointer:
		return value.NewValueReflect(rv.Interface())
	case rv.Kind() == reflect.Interface:
		if rv.IsNil() {
			return value.NewValueInterface(nil), nil
		}
		return reflectValue(rv.Elem())
	case rv.CanAddr():
		return value.NewValueReflect(rv.Addr().Interface())
	}
	p := reflect.New(rv.Type())
	p.Elem().Set(rv)
	return value.NewValueReflect(p.Interface())
}

// sortFields sorts nodes of fields by name; sortItems nodes of list items
// by path element, refusing duplicates, whose fields the comparison does
// not own one by one.
func sortFields(nodes []fieldNode) {
	slices.SortFunc(nodes, func(a, b fieldNode) int { return strings.Compare(a.name, b.name) })
}

func sortItems(nodes []fieldNode) error {
	slices.SortFunc(nodes, func(a, b fieldNode) int { return a.pe.Compare(b.pe) })
	for i := 1; i < len(nodes); i++ {
		if nodes[i-1].pe.Equals(nodes[i].pe) {
			return errUnusual
		}
	}
	return nil
}
