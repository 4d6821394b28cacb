package protobuf_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"platform.io/client/codec/protobuf"
)

// kindNames is the sorted list of kinds: a fuzz input names its kind by an
// index into it, so one target covers every kind.
var kindNames = slices.Sorted(maps.Keys(kinds))

// kindOf returns the name and constructor of the kind an input's index picks.
func kindOf(i uint16) (string, func() protobuf.Message) {
	name := kindNames[int(i)%len(kindNames)]
	return name, kinds[name]
}

// addKindSamples adds every sample document to f's seeds as (kind index,
// bytes), the bytes made by encode.
func addKindSamples(f *testing.F, encode func(protobuf.Message) []byte) {
	for i, name := range kindNames {
		paths, _ := filepath.Glob(filepath.Join(samplesDir, name+"*.json"))
		for _, path := range paths {
			doc, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			obj := kinds[name]()
			if err := json.Unmarshal(doc, obj); err != nil {
				f.Fatalf("%s: %v", path, err)
			}
			f.Add(uint16(i), encode(obj))
		}
	}
}

// FuzzKindsProtobuf decodes arbitrary bytes as the protobuf of any kind:
// that must never panic, and whatever decodes must encode to bytes that
// decode to the same object and encode to the same bytes again.
func FuzzKindsProtobuf(f *testing.F) {
	addKindSamples(f, protobuf.Marshal)
	f.Fuzz(func(t *testing.T, kind uint16, data []byte) {
		name, newObj := kindOf(kind)
		first := newObj()
		if err := first.UnmarshalProto(data); err != nil {
			return
		}
		encoded := protobuf.Marshal(first)
		second := newObj()
		if err := second.UnmarshalProto(encoded); err != nil {
			t.Fatalf("%s: re-decoding % x: %v", name, encoded, err)
		}
		if diff := cmp.Diff(first, second, equalTimes, equalQuantities); diff != "" {
			t.Fatalf("%s: re-decoded object differs (-first +second):\n%s", name, diff)
		}
		if again := protobuf.Marshal(second); !bytes.Equal(again, encoded) {
			t.Fatalf("%s: re-encoding differs:\n% x\n% x", name, encoded, again)
		}
	})
}

// FuzzKindsJSON decodes arbitrary bytes as the JSON of any kind, as the API
// server decodes a request body. Whatever decodes must be storable: its
// protobuf (the stored form) decodes to the same object; and its JSON
// encoding must be stable (decode and encode again gives the same bytes).
func FuzzKindsJSON(f *testing.F) {
	addKindSamples(f, func(m protobuf.Message) []byte {
		b, _ := json.Marshal(m)
		return b
	})
	f.Fuzz(func(t *testing.T, kind uint16, data []byte) {
		name, newObj := kindOf(kind)
		obj := newObj()
		if err := json.Unmarshal(data, obj); err != nil {
			return
		}
		first, err := json.Marshal(obj)
		if err != nil {
			t.Fatalf("%s: encoding a decoded object: %v", name, err)
		}
		again := newObj()
		if err := json.Unmarshal(first, again); err != nil {
			t.Fatalf("%s: re-decoding %s: %v", name, first, err)
		}
		if second, _ := json.Marshal(again); !bytes.Equal(first, second) {
			t.Fatalf("%s: JSON not stable:\n%s\n%s", name, first, second)
		}
		// The stored form: nested TypeMeta is not part of a message, and
		// protobuf cannot tell an empty list or map from none.
		clearTypeMeta(reflect.ValueOf(obj).Elem(), true)
		stored := newObj()
		if err := stored.UnmarshalProto(protobuf.Marshal(obj)); err != nil {
			t.Fatalf("%s: the protobuf of a decoded object does not decode: %v", name, err)
		}
		apiVersion, k := typeMeta(obj)
		setTypeMeta(stored, apiVersion, k)
		if diff := cmp.Diff(obj, stored, equalTimes, equalQuantities, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: the stored form differs (-decoded +stored):\n%s", name, shortDiff(diff))
		}
	})
}

func shortDiff(d string) string {
	if len(d) > 4000 {
		return d[:4000] + "..."
	}
	return strings.TrimSpace(d)
}
