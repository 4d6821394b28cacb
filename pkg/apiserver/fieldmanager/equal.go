package fieldmanager

import (
	"maps"
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
		if equalTrees(fa, fb) {
			fa.SetZero()
			fb.SetZero()
			continue
		}
		if depth > 1 && fa.Kind() == reflect.Struct {
			zeroEqualFields(fa, fb, depth-1)
		}
	}
}

// equalTrees reports whether a and b, values of one type, are deeply
// equal as reflect.DeepEqual defines it, for values without cycles, as
// API objects are. Without cycles to find it keeps no record of the
// pointers it followed, which is most of what reflect.DeepEqual costs on
// an object of many pointers, slices and maps.
func equalTrees(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Array, reflect.Slice:
		if a.Kind() == reflect.Slice {
			if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
				return false
			}
			if a.UnsafePointer() == b.UnsafePointer() {
				return true
			}
			if a.Type().Elem().Kind() == reflect.Uint8 {
				return string(a.Bytes()) == string(b.Bytes())
			}
		}
		for i := range a.Len() {
			if !equalTrees(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !equalTrees(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		if a.IsNil() || b.IsNil() {
			return false
		}
		return equalTrees(a.Elem(), b.Elem())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equalTrees(a.Elem(), b.Elem())
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		if a.CanInterface() {
			if am, ok := a.Interface().(map[string]string); ok {
				// Labels, annotations, selectors: no value copied.
				return maps.Equal(am, b.Interface().(map[string]string))
			}
		}
		// One key and one value, filled in turn, rather than a copy of
		// each.
		k, v := reflect.New(a.Type().Key()).Elem(), reflect.New(a.Type().Elem()).Elem()
		var it reflect.MapIter
		it.Reset(a)
		for it.Next() {
			k.SetIterKey(&it)
			v.SetIterValue(&it)
			bv := b.MapIndex(k)
			if !bv.IsValid() || !equalTrees(v, bv) {
				return false
			}
		}
		return true
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	}
	// Channels and unsafe pointers: equal when the same.
	return a.UnsafePointer() == b.UnsafePointer()
}
