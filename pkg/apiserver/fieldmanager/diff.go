package fieldmanager

import (
	"reflect"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"platform.io/client/api/meta"
)

// changes returns what structured-merge-diff's comparison of live with
// obj, two Go objects of the kind, finds, comparing only what differs:
// it goes down the structs the two share, skipping each field deeply
// equal in both (an equal part holds no change), and hands each field
// that differs to the comparison at that field's type, its paths put
// under the field's. A struct in which a field is present on one side
// only is compared whole, its equal fields zeroed on both sides. A label
// update thus compares the labels alone, where comparing the objects
// walks every field of the pod through reflection.
func (f *FieldManager) changes(live, obj meta.Object) (*typed.Comparison, error) {
	out := &typed.Comparison{Removed: fieldpath.NewSet(), Modified: fieldpath.NewSet(), Added: fieldpath.NewSet()}
	d := differ{schema: f.c.Type.Schema, out: out}
	if err := d.structs(nil, reflect.ValueOf(live).Elem(), reflect.ValueOf(obj).Elem(), f.c.Type.TypeRef); err != nil {
		return nil, err
	}
	return out, nil
}

// differ gathers a comparison into out.
type differ struct {
	schema *schema.Schema
	out    *typed.Comparison
}

// structs compares two present structs of one type at path.
func (d *differ) structs(path fieldpath.Path, l, r reflect.Value, tr schema.TypeRef) error {
	entry := value.TypeReflectEntryOf(r.Type())
	a, ok := d.schema.Resolve(tr)
	if entry.CanConvertToUnstructured() || !ok || a.Map == nil || a.Scalar != nil || a.List != nil || a.Map.ElementRelationship == schema.Atomic {
		return d.whole(path, l, r, tr)
	}
	// The fields that differ, present on both sides.
	type change struct {
		name   string
		lf, rf reflect.Value
	}
	var differing []change
	for _, fe := range entry.OrderedFields() {
		lf, rf := fe.GetFrom(l), fe.GetFrom(r)
		lo, ro := fe.CanOmit(lf), fe.CanOmit(rf)
		if lo && ro {
			continue
		}
		if lo != ro {
			// Added or removed: the comparison of the struct says how.
			return d.whole(path, l, r, tr)
		}
		if !equalTrees(lf, rf) {
			differing = append(differing, change{fe.JsonName, lf, rf})
		}
	}
	for _, c := range differing {
		ft := fieldType(a.Map, c.name)
		fp := append(path[:len(path):len(path)], fieldpath.PathElement{FieldName: &c.name})
		ls, rs := structOf(c.lf), structOf(c.rf)
		var err error
		if ls.IsValid() && rs.IsValid() {
			err = d.structs(fp, ls, rs, ft)
		} else {
			err = d.whole(fp, c.lf, c.rf, ft)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// structOf is v when it is a struct, or a non-nil pointer to one, that
// reads as the struct itself (no JSON encoding of its own); otherwise the
// zero reflect.Value.
func structOf(v reflect.Value) reflect.Value {
	if value.TypeReflectEntryOf(v.Type()).CanConvertToUnstructured() {
		return reflect.Value{}
	}
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
		if value.TypeReflectEntryOf(v.Type()).CanConvertToUnstructured() {
			return reflect.Value{}
		}
	}
	if v.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v
}

// whole compares l and r, both present, at tr through the comparison,
// and adds what it finds under path. Structs are compared with their
// equal fields zeroed on both sides, which finds the same.
func (d *differ) whole(path fieldpath.Path, l, r reflect.Value, tr schema.TypeRef) error {
	if d.stringMap(path, l, r, tr) {
		return nil
	}
	if l.Kind() == reflect.Struct {
		lc, rc := reflect.New(l.Type()).Elem(), reflect.New(r.Type()).Elem()
		lc.Set(l)
		rc.Set(r)
		zeroEqualFields(lc, rc, 1)
		l, r = lc, rc
	}
	lv, err := reflectValue(l)
	if err != nil {
		return err
	}
	rv, err := reflectValue(r)
	if err != nil {
		return err
	}
	c, err := typed.AsTypedUnvalidated(lv, d.schema, tr).Compare(typed.AsTypedUnvalidated(rv, d.schema, tr))
	if err != nil {
		return err
	}
	if c.IsSame() && len(path) > 0 && !value.Equals(lv, rv) {
		// Compared whole (a scalar, an atomic or empty value), the value
		// changed at its root, whose empty path no set can hold.
		d.out.Modified.Insert(path)
		return nil
	}
	under(d.out.Removed, path, c.Removed)
	under(d.out.Modified, path, c.Modified)
	under(d.out.Added, path, c.Added)
	return nil
}

// stringMap compares l and r, both present and not null, when they are
// maps of strings to strings whose keys the schema tracks one by one (labels,
// annotations, selectors) and says so: keys only in l are removed, only
// in r added, in both with other values modified, as the comparison
// finds.
func (d *differ) stringMap(path fieldpath.Path, l, r reflect.Value, tr schema.TypeRef) bool {
	if l.Kind() != reflect.Map || !l.CanInterface() || !r.CanInterface() {
		return false
	}
	lm, lok := l.Interface().(map[string]string)
	rm, rok := r.Interface().(map[string]string)
	if !lok || !rok || lm == nil || rm == nil || len(path) == 0 {
		// Null on one side is the comparison's to judge.
		return false
	}
	a, ok := d.schema.Resolve(tr)
	if !ok || a.Map == nil || a.Scalar != nil || a.List != nil || a.Map.ElementRelationship == schema.Atomic || len(a.Map.Fields) > 0 {
		return false
	}
	if e, ok := d.schema.Resolve(a.Map.ElementType); !ok || !scalarOnly(e) {
		return false
	}
	at := func(key string) fieldpath.Path {
		return append(path[:len(path):len(path)], fieldpath.PathElement{FieldName: &key})
	}
	for k, lv := range lm {
		switch rv, ok := rm[k]; {
		case !ok:
			d.out.Removed.Insert(at(k))
		case rv != lv:
			d.out.Modified.Insert(at(k))
		}
	}
	for k := range rm {
		if _, ok := lm[k]; !ok {
			d.out.Added.Insert(at(k))
		}
	}
	return true
}

// under inserts into dst every path of src put under prefix.
func under(dst *fieldpath.Set, prefix fieldpath.Path, src *fieldpath.Set) {
	src.Iterate(func(p fieldpath.Path) {
		dst.Insert(append(prefix[:len(prefix):len(prefix)], p...))
	})
}
