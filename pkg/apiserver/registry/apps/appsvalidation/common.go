package appsvalidation

import (
	"encoding/json"
	"reflect"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// nonNegativeMsg is the detail of a negative-number error.
const nonNegativeMsg = "must be greater than or equal to 0"

// NonNegative rejects a negative number.
func NonNegative(v int64, p *field.Path) field.ErrorList {
	if v < 0 {
		return field.ErrorList{field.Invalid(p, v, nonNegativeMsg)}
	}
	return nil
}

// NonNegativePtr rejects a set, negative number; nil passes.
func NonNegativePtr(v *int32, p *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	return NonNegative(int64(*v), p)
}

// Int32 returns a pointer to v, for defaults.
func Int32(v int32) *int32 { return &v }

// SemanticEqual compares two values by their JSON form, so that nil and
// empty collections, key order and whitespace in raw documents do not count
// as differences. Values that cannot be encoded are compared directly.
func SemanticEqual(a, b any) bool {
	ja, errA := normalize(a)
	jb, errB := normalize(b)
	if errA != nil || errB != nil {
		return reflect.DeepEqual(a, b)
	}
	return reflect.DeepEqual(ja, jb)
}

func normalize(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(data, &out)
	return out, err
}

// Immutable reports a field whose value differs from the stored one.
func Immutable(value, old any, p *field.Path) field.ErrorList {
	if SemanticEqual(value, old) {
		return nil
	}
	return field.ErrorList{field.Invalid(p, value, "field is immutable")}
}

// Scale builds the scale accessor of a workload of type T. parts returns
// the desired replicas (nil counts as the default of 1), the observed
// replicas and the selector; set writes the desired replicas.
func Scale[T any](parts func(obj *T) (*int32, int32, *meta.LabelSelector), set func(obj *T, replicas int32)) *registry.ScaleAccessor {
	return &registry.ScaleAccessor{
		Get: func(obj meta.Object) (int32, int32, string) {
			want, have, sel := parts(any(obj).(*T))
			spec := int32(1)
			if want != nil {
				spec = *want
			}
			return spec, have, SelectorString(sel)
		},
		SetReplicas: func(obj meta.Object, replicas int32) {
			set(any(obj).(*T), replicas)
		},
	}
}
