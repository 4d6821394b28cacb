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
//
// It builds no trie: it writes the path's children to the walker's
// stream as they are found, in order (see level), and returns whether
// the path itself is in the set.
func (w *createdWalker) compareGo(l lhs, rv reflect.Value, tr schema.TypeRef, sc scope) (bool, error) {
	a, ok := w.schema.Resolve(tr)
	if !ok {
		return false, errUnusual
	}
	return w.compareGoAtom(l, rv, a, tr, sc)
}

// compareGoAtom is compareGo with tr resolved as a.
func (w *createdWalker) compareGoAtom(l lhs, rv reflect.Value, a schema.Atom, tr schema.TypeRef, sc scope) (bool, error) {
	if l == lhsAbsent && scalarOnly(a) {
		// A leaf whatever the value: added.
		return true, nil
	}
	entry := value.TypeReflectEntryOf(rv.Type())
	if entry.CanConvertToUnstructured() {
		return w.delegate(l, rv, tr, sc)
	}
	switch rv.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			return w.delegate(l, rv, tr, sc)
		}
		if l == lhsZero {
			l = lhsNull
		}
		return w.compareGoAtom(l, rv.Elem(), a, tr, sc)
	case reflect.Struct:
		if a.Map == nil || (l == lhsNull && (a.Scalar != nil || a.List != nil)) {
			return w.delegate(l, rv, tr, sc)
		}
		return w.structGo(l, entry, rv, a.Map, tr, sc)
	case reflect.Slice:
		if rv.IsNil() || rv.Type().Elem().Kind() == reflect.Uint8 || a.List == nil || (a.Scalar != nil || a.Map != nil) {
			return w.delegate(l, rv, tr, sc)
		}
		return w.sliceGo(l, rv, a.List, sc)
	case reflect.Map:
		if rv.IsNil() || rv.Type().Key().Kind() != reflect.String || a.Map == nil || (a.Scalar != nil || a.List != nil) {
			return w.delegate(l, rv, tr, sc)
		}
		return w.mapGo(l, rv, a.Map, sc)
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Float32, reflect.Float64:
		if a.Scalar == nil {
			return w.delegate(l, rv, tr, sc)
		}
		// A leaf: added where the empty object has nothing, modified
		// where it differs from the zero value there.
		return l == lhsAbsent || !rv.IsZero(), nil
	}
	return w.delegate(l, rv, tr, sc)
}

// structGo compares a struct with what the empty object has there.
func (w *createdWalker) structGo(l lhs, entry *value.TypeReflectCacheEntry, rv reflect.Value, t *schema.Map, tr schema.TypeRef, sc scope) (bool, error) {
	if t.ElementRelationship == schema.Atomic && l == lhsZero {
		return w.delegate(l, rv, tr, sc)
	}
	if t.ElementRelationship == schema.Atomic {
		// A leaf, added or changed from null.
		return true, nil
	}
	plan := w.plans.of(w.schema, entry, rv.Type(), t)
	lv := level{self: l == lhsAbsent && !sc.stripped}
	present := false
	// The fields come sorted by their JSON names.
	for i := range plan.fields {
		pf := &plan.fields[i]
		fv := pf.get(rv)
		if pf.entry.CanOmit(fv) {
			// Absent here; at most removed, which a create ignores.
			continue
		}
		present = true
		cl := lhsAbsent
		if l == lhsZero && pf.zero {
			cl = lhsZero
			switch fv.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
				cl = lhsNull
			}
		}
		fs := fieldScope(&pf.entry.JsonName, sc.exclude, sc.strip)
		if fs.stripped && fs.strip == nil && pf.resolved && scalarOnly(pf.atom) {
			// A stripped leaf (the name, the uid, ...) adds nothing.
			continue
		}
		if !pf.resolved {
			return false, errUnusual
		}
		mark, inner := w.openField(&lv, pf.entry.JsonName)
		self, err := w.compareGoAtom(cl, fv, pf.atom, pf.tr, fs)
		if err != nil {
			return false, err
		}
		w.close(&lv, mark, inner, self, fs)
	}
	if !present && (l != lhsZero || !plan.anyZero) {
		// Empty on both sides, a leaf: added, changed from null, or as
		// empty as the zero struct.
		return l != lhsZero && !sc.stripped, nil
	}
	return lv.self, nil
}

// structPlans caches, by struct type and the schema map it is read as,
// what a create's walk needs of each of its JSON fields, found once.
type structPlans struct{ m sync.Map }

type planKey struct {
	t reflect.Type
	m *schema.Map
}

// structPlan is one struct type's fields, in OrderedFields' order, and
// whether its zero value has any (fields never omitted).
type structPlan struct {
	fields  []planField
	anyZero bool
}

// planField is one JSON field of a struct: its entry in
// structured-merge-diff's reflection cache, the index of the Go field
// that holds it when that is a field of the struct itself (-1 for one of
// an inlined struct, read through the entry), its type in the schema and
// that type resolved, and whether the zero struct has it.
type planField struct {
	entry    *value.FieldCacheEntry
	index    int
	tr       schema.TypeRef
	atom     schema.Atom
	resolved bool
	zero     bool
}

func (pf *planField) get(rv reflect.Value) reflect.Value {
	if pf.index >= 0 {
		return rv.Field(pf.index)
	}
	return pf.entry.GetFrom(rv)
}

func (p *structPlans) of(s *schema.Schema, entry *value.TypeReflectCacheEntry, t reflect.Type, m *schema.Map) *structPlan {
	key := planKey{t, m}
	if v, ok := p.m.Load(key); ok {
		return v.(*structPlan)
	}
	direct := map[string]int{}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if sf.IsExported() && !sf.Anonymous && name != "" && name != "-" {
			direct[name] = i
		}
	}
	zero := reflect.Zero(t)
	plan := &structPlan{}
	for _, f := range entry.OrderedFields() {
		pf := planField{entry: f, index: -1, tr: fieldType(m, f.JsonName)}
		if i, ok := direct[f.JsonName]; ok {
			pf.index = i
		}
		pf.atom, pf.resolved = s.Resolve(pf.tr)
		pf.zero = !f.CanOmit(f.GetFrom(zero))
		plan.anyZero = plan.anyZero || pf.zero
		plan.fields = append(plan.fields, pf)
	}
	p.m.Store(key, plan)
	return plan
}

// goItem is an item of a Go list and its path element.
type goItem struct {
	pe fieldpath.PathElement
	i  int
}

// sliceGo compares a non-empty list with the empty object's, which is
// null or absent. Its items are written in the order of their path
// elements, which the walk finds first.
func (w *createdWalker) sliceGo(l lhs, rv reflect.Value, t *schema.List, sc scope) (bool, error) {
	if t.ElementRelationship == schema.Atomic || rv.Len() == 0 {
		// A leaf: added, or a list where the empty object has null.
		return true, nil
	}
	if named, ok := namedItems(t, rv, sc); ok {
		return w.namedSliceGo(l, rv, t, sc, named)
	}
	items := make([]goItem, rv.Len())
	for i := range items {
		pe, err := w.goItemElement(t, rv.Index(i))
		if err != nil {
			return false, err
		}
		items[i] = goItem{pe: pe, i: i}
	}
	slices.SortFunc(items, func(a, b goItem) int { return a.pe.Compare(b.pe) })
	lv := level{self: l == lhsAbsent && !sc.stripped}
	var last *fieldpath.PathElement
	for k := range items {
		it := &items[k]
		is := scopeOf(it.pe, sc.exclude, sc.strip)
		key, err := fieldpath.SerializePathElement(it.pe)
		if err != nil {
			// The comparison's set would not encode either.
			return false, errUnusual
		}
		before := lv.n
		mark, inner := w.openItem(&lv, key)
		self, err := w.compareGo(lhsAbsent, rv.Index(it.i), t.ElementType, is)
		if err != nil {
			return false, err
		}
		w.close(&lv, mark, inner, self, is)
		if lv.n > before {
			// Duplicate items the comparison does not own one by one.
			if last != nil && last.Equals(it.pe) {
				return false, errUnusual
			}
			last = &it.pe
		}
	}
	return lv.self, nil
}

// namedItem is an item of a Go list keyed by one plain string field, and
// that field's value.
type namedItem struct {
	key string
	i   int
}

// namedItems reads the keys of a list keyed by one string field (a name,
// a path) when every item is a struct that has it, with nothing in it or
// in its name to escape in JSON, and no excluded or stripped path lies
// below: the common list of containers, variables, volumes or mounts,
// whose items then need no path element (the comparison's order of such
// elements is that of the strings). ok is false for any other list.
func namedItems(t *schema.List, rv reflect.Value, sc scope) (items []namedItem, ok bool) {
	if t.ElementRelationship != schema.Associative || len(t.Keys) != 1 || !plainKey(t.Keys[0]) || sc.exclude != nil || sc.strip != nil {
		return nil, false
	}
	items = make([]namedItem, rv.Len())
	for i := range items {
		s := structOf(rv.Index(i))
		if !s.IsValid() {
			return nil, false
		}
		f, ok := value.TypeReflectEntryOf(s.Type()).Fields()[t.Keys[0]]
		if !ok {
			return nil, false
		}
		fv := f.GetFrom(s)
		if fv.Kind() != reflect.String || f.CanOmit(fv) || !plainKey(fv.String()) {
			return nil, false
		}
		items[i] = namedItem{key: fv.String(), i: i}
	}
	return items, true
}

// namedSliceGo is sliceGo for the items namedItems read.
func (w *createdWalker) namedSliceGo(l lhs, rv reflect.Value, t *schema.List, sc scope, items []namedItem) (bool, error) {
	slices.SortFunc(items, func(a, b namedItem) int { return strings.Compare(a.key, b.key) })
	lv := level{self: l == lhsAbsent && !sc.stripped}
	last := -1
	for k := range items {
		it := &items[k]
		before := lv.n
		mark := w.separate(&lv)
		// "k:{\"<field>\":\"<key>\"}", as SerializePathElement and
		// then a JSON string write it.
		w.stream.WriteRaw(`"k:{\"`)
		w.stream.WriteRaw(t.Keys[0])
		w.stream.WriteRaw(`\":\"`)
		w.stream.WriteRaw(it.key)
		w.stream.WriteRaw(`\"}":{`)
		inner := len(w.stream.Buffer())
		self, err := w.compareGo(lhsAbsent, rv.Index(it.i), t.ElementType, scope{})
		if err != nil {
			return false, err
		}
		w.close(&lv, mark, inner, self, scope{})
		if lv.n > before {
			// Duplicate items the comparison does not own one by one.
			if last >= 0 && items[last].key == it.key {
				return false, errUnusual
			}
			last = k
		}
	}
	return lv.self, nil
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
// or absent, key by key in order.
func (w *createdWalker) mapGo(l lhs, rv reflect.Value, t *schema.Map, sc scope) (bool, error) {
	if t.ElementRelationship == schema.Atomic || rv.Len() == 0 {
		// A leaf: added, or a map where the empty object has null.
		return true, nil
	}
	keys := rv.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	lv := level{self: l == lhsAbsent && !sc.stripped}
	for _, k := range keys {
		name := k.String()
		fs := fieldScope(&name, sc.exclude, sc.strip)
		mark, inner := w.openField(&lv, name)
		self, err := w.compareGo(lhsAbsent, rv.MapIndex(k), fieldType(t, name), fs)
		if err != nil {
			return false, err
		}
		w.close(&lv, mark, inner, self, fs)
	}
	return lv.self, nil
}

// scalarOnly says an atom is a scalar and nothing else: a leaf whatever
// value it holds.
func scalarOnly(a schema.Atom) bool { return a.Scalar != nil && a.List == nil && a.Map == nil }

// delegate compares rv and what the empty object has there as
// structured-merge-diff values, and writes the children found.
func (w *createdWalker) delegate(l lhs, rv reflect.Value, tr schema.TypeRef, sc scope) (bool, error) {
	rhs, err := reflectValue(rv)
	if err != nil {
		return false, errUnusual
	}
	var lv value.Value
	switch l {
	case lhsNull:
		lv = value.NewValueInterface(nil)
	case lhsZero:
		if lv, err = reflectValue(reflect.Zero(rv.Type())); err != nil {
			return false, errUnusual
		}
	}
	n, err := w.compare(lv, rhs, tr, sc.exclude, sc.strip)
	if err != nil {
		return false, err
	}
	n.self = n.self && !sc.stripped
	if len(n.children) > 0 {
		if n.self {
			w.stream.WriteRaw(selfEntry)
		}
		if err := writeChildren(w.stream, n.children); err != nil {
			return false, err
		}
	}
	return n.self, nil
}

// level is the state of a path whose children compareGo is writing:
// whether the path itself is in the set, and how many children it has
// written. A path in the set with children writes ".":{} first.
type level struct {
	self bool
	n    int
}

// selfEntry is the entry that says a path with children is in the set
// itself, with the separator that follows it.
const selfEntry = `".":{},`

// openField and openItem start writing a child of lv, a field or a list
// item whose path element serializes as key: the separator, or lv's own
// ".":{} before its first child, the key and the opening brace. They
// return where the child's entry and its contents begin in the stream,
// for close.
func (w *createdWalker) openField(lv *level, name string) (mark, inner int) {
	mark = w.separate(lv)
	writeFieldKey(w.stream, name)
	w.stream.WriteRaw("{")
	return mark, len(w.stream.Buffer())
}

func (w *createdWalker) openItem(lv *level, key string) (mark, inner int) {
	mark = w.separate(lv)
	w.stream.WriteObjectField(key)
	w.stream.WriteRaw("{")
	return mark, len(w.stream.Buffer())
}

func (w *createdWalker) separate(lv *level) int {
	mark := len(w.stream.Buffer())
	switch {
	case lv.n > 0:
		w.stream.WriteRaw(",")
	case lv.self:
		w.stream.WriteRaw(selfEntry)
	}
	return mark
}

// close ends the child open began, in scope sc, whose own membership is
// self (none when stripped; a child that has children knew it before
// writing them): it takes the entry back when the child is excluded or
// holds nothing; otherwise it closes it, as "key":{} when only the child
// itself is in the set.
func (w *createdWalker) close(lv *level, mark, inner int, self bool, sc scope) {
	self = self && !sc.stripped
	buf := w.stream.Buffer()
	if sc.excluded || (!self && len(buf) == inner) {
		w.stream.SetBuffer(buf[:mark])
		return
	}
	w.stream.SetBuffer(append(buf, '}'))
	lv.n++
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
