package apitest

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// CheckTags walks each type's fields recursively and fails t for an exported
// field without a json tag, without a protobuf tag (unless it is the inline
// TypeMeta or has protobuf:"-"), or with a protobuf field number used twice
// in one struct.
func CheckTags(t *testing.T, samples ...any) {
	t.Helper()
	seen := map[reflect.Type]bool{}
	for _, s := range samples {
		checkType(t, reflect.TypeOf(s), seen)
	}
}

func checkType(t *testing.T, typ reflect.Type, seen map[reflect.Type]bool) {
	t.Helper()
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || seen[typ] || !strings.HasPrefix(typ.PkgPath(), "platform.io/client/api/") {
		return
	}
	seen[typ] = true
	if _, custom := reflect.PointerTo(typ).MethodByName("UnmarshalJSON"); custom {
		return
	}
	numbers := map[int]string{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		js, hasJSON := f.Tag.Lookup("json")
		if !hasJSON {
			t.Errorf("%s.%s has no json tag", typ, f.Name)
		}
		pb, hasPB := f.Tag.Lookup("protobuf")
		inline := f.Anonymous && strings.HasPrefix(js, ",inline")
		switch {
		case inline || pb == "-":
		case !hasPB:
			t.Errorf("%s.%s has no protobuf tag", typ, f.Name)
		default:
			parts := strings.Split(pb, ",")
			n, err := strconv.Atoi(parts[1])
			if len(parts) < 4 || err != nil {
				t.Errorf("%s.%s has a malformed protobuf tag %q", typ, f.Name, pb)
			} else if other, dup := numbers[n]; dup {
				t.Errorf("%s.%s reuses protobuf field %d of %s", typ, f.Name, n, other)
			} else {
				numbers[n] = f.Name
			}
		}
		checkType(t, f.Type, seen)
	}
}

// RoundTripJSON decodes doc into a new value of obj's type, encodes it again
// and decodes that, failing t unless both decoded values are equal. It returns
// the first decoded value.
func RoundTripJSON[T any](t *testing.T, doc string) *T {
	t.Helper()
	first := new(T)
	if err := json.Unmarshal([]byte(doc), first); err != nil {
		t.Fatalf("decode: %v", err)
	}
	out, err := json.Marshal(first)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	second := new(T)
	if err := json.Unmarshal(out, second); err != nil {
		t.Fatalf("decode again: %v", err)
	}
	if diff := cmp.Diff(first, second, cmpopts.EquateEmpty(), cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
		t.Errorf("JSON round trip changed the object (-first +second):\n%s", diff)
	}
	return first
}
