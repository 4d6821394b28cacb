package generic

import (
	"encoding/json"
	"fmt"
	"reflect"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/admission"
)

// Objects are the JSON forms of a request's object and old object in each
// version webhooks see them in, encoded once per version.
type Objects struct {
	a     *admission.Attributes
	cache map[meta.GroupVersionKind][2][]byte
}

// NewObjects returns the encodings of a's objects. It is not safe for
// concurrent use: encode before calling webhooks in parallel.
func NewObjects(a *admission.Attributes) *Objects {
	return &Objects{a: a, cache: map[meta.GroupVersionKind][2][]byte{}}
}

// For returns the object and old object (nil when absent) as inv's webhook sees them.
func (o *Objects) For(inv *Invocation) (obj, old []byte, err error) {
	if c, ok := o.cache[inv.Kind]; ok {
		return c[0], c[1], nil
	}
	if obj, err = encode(o.a.Object, inv); err != nil {
		return nil, nil, err
	}
	if old, err = encode(o.a.OldObject, inv); err != nil {
		return nil, nil, err
	}
	o.cache[inv.Kind] = [2][]byte{obj, old}
	return obj, old, nil
}

// encode writes obj as JSON with inv's apiVersion and kind, converted to
// inv's version when it differs from the request's (the versions of a kind
// share their JSON field names, as the store's own conversion assumes).
func encode(obj meta.Object, inv *Invocation) ([]byte, error) {
	if isNil(obj) {
		return nil, nil
	}
	if inv.ConvertTo != nil {
		b, err := json.Marshal(obj)
		if err != nil {
			return nil, fmt.Errorf("encode %T: %w", obj, err)
		}
		converted := inv.ConvertTo.New()
		if err := json.Unmarshal(b, converted); err != nil {
			return nil, fmt.Errorf("convert to %s: %w", inv.Kind.GroupVersion(), err)
		}
		obj = converted
	}
	tm := obj.GetTypeMeta()
	saved := *tm
	tm.APIVersion, tm.Kind = inv.Kind.GroupVersion().String(), inv.Kind.Kind
	defer func() { *tm = saved }()
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", obj, err)
	}
	return b, nil
}

func isNil(obj meta.Object) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// Decode reads data (an object in any version of like's kind) into a new
// object of like's type, keeping like's apiVersion and kind.
func Decode(data []byte, like meta.Object) (meta.Object, error) {
	out := reflect.New(reflect.TypeOf(like).Elem()).Interface().(meta.Object)
	if err := json.Unmarshal(data, out); err != nil {
		return nil, err
	}
	*out.GetTypeMeta() = *like.GetTypeMeta()
	return out, nil
}
