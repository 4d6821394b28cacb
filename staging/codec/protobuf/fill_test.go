package protobuf_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
)

// fill sets every exported field under v to a value that is neither zero
// nor empty, different from field to field (n counts the values handed
// out), descending at most a dozen levels.
func fill(v reflect.Value, n *int, depth int) {
	*n++
	if depth > 12 || fillSpecial(v, *n) {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if *n%3 == 0 {
			v.SetInt(-int64(*n)) // negative numbers take ten bytes
		} else {
			v.SetInt(int64(*n) << (*n % 20))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n, depth+1)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte{0, byte(*n), 0xff})
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < 2; i++ {
			fill(v.Index(i), n, depth+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for i := 0; i < 2; i++ {
			key, elem := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(key, n, depth+1)
			fill(elem, n, depth+1)
			v.SetMapIndex(key, elem)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n, depth+1)
			}
		}
	}
}

var quantities = []string{"1500m", "64Mi", "2", "1e3", "-3", "0", "100Gi", "2.5"}

// fillSpecial sets the types with custom encodings, whose fields the
// generic fill would make invalid, and reports whether v was one.
func fillSpecial(v reflect.Value, n int) bool {
	var x any
	switch v.Type() {
	case reflect.TypeFor[meta.Time]():
		x = meta.NewTime(time.Unix(1714557600+int64(n), 0))
	case reflect.TypeFor[meta.MicroTime]():
		x = meta.MicroTime{Time: time.Unix(1714557600+int64(n), int64(n)*1000)}
	case reflect.TypeFor[meta.Duration]():
		x = meta.Duration{Duration: time.Duration(n) * time.Second}
	case reflect.TypeFor[resource.Quantity]():
		x = resource.MustParse(quantities[n%len(quantities)])
	case reflect.TypeFor[intstr.IntOrString]():
		x = intstr.FromInt(n)
		if n%2 == 0 {
			x = intstr.FromString(fmt.Sprintf("%d%%", n))
		}
	case reflect.TypeFor[json.RawMessage]():
		x = json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))
	default:
		// FieldsV1 and RawExtension hold a JSON document in Raw.
		if v.Kind() != reflect.Struct {
			return false
		}
		if raw, ok := v.Type().FieldByName("Raw"); ok && v.NumField() == 1 && raw.Type == reflect.TypeFor[[]byte]() {
			v.Field(0).SetBytes(fmt.Appendf(nil, `{"n":%d}`, n))
			return true
		}
		return false
	}
	v.Set(reflect.ValueOf(x))
	return true
}
