package fieldmanager

import (
	"reflect"

	"platform.io/client/api/meta"
)

// equalPartsDepth is how deep withoutEqualParts looks into struct fields
// that differ: the object's top-level fields, then those of its metadata,
// spec and status.
const equalPartsDepth = 2

// withoutEqualParts returns shallow copies of live and obj in which each
// field that is deeply equal in both is zeroed in both, among the
// top-level fields (spec, status, metadata, ...) and, in those that
// differ and are structs, their own fields. Comparing the copies finds
// exactly what comparing the objects finds, since equal parts hold no
// change, but walks only the parts a write changed: a label update no
// longer walks a pod's spec twice through structured-merge-diff's
// reflection, which costs far more than reflect.DeepEqual's walk. Only
// struct values of the copies are written, never what they share with
// the objects (maps, slices, pointers). Objects of different types are
// returned as they are.
func withoutEqualParts(live, obj meta.Object) (meta.Object, meta.Object) {
	lv, ov := reflect.ValueOf(live), reflect.ValueOf(obj)
	if lv.Type() != ov.Type() || lv.Kind() != reflect.Pointer || lv.IsNil() || ov.IsNil() || lv.Elem().Kind() != reflect.Struct {
		return live, obj
	}
	t := lv.Elem().Type()
	lc, oc := reflect.New(t), reflect.New(t)
	lc.Elem().Set(lv.Elem())
	oc.Elem().Set(ov.Elem())
	zeroEqualFields(lc.Elem(), oc.Elem(), equalPartsDepth)
	return lc.Interface().(meta.Object), oc.Interface().(meta.Object)
}

// zeroEqualFields zeroes the fields of structs a and b (settable, of one
// type) that are deeply equal, and looks depth-1 levels into struct
// fields that are not.
func zeroEqualFields(a, b reflect.Value, depth int) {
	t := a.Type()
	for i := range t.NumField() {
		if !t.Field(i).IsExported() {
			continue
		}
		fa, fb := a.Field(i), b.Field(i)
		if fa.IsZero() && fb.IsZero() {
			continue
		}
		if reflect.DeepEqual(fa.Addr().Interface(), fb.Addr().Interface()) {
			fa.SetZero()
			fb.SetZero()
			continue
		}
		if depth > 1 && fa.Kind() == reflect.Struct {
			zeroEqualFields(fa, fb, depth-1)
		}
	}
}
