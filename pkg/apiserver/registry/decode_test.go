package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
)

var storedCustomSeeds = []string{
	`{"apiVersion":"example.com/v1","kind":"App","metadata":{"name":"a","namespace":"n","labels":{"x":"y"}},"spec":{"n":[1,2.5,"s"]},"status":{"ok":true}}`,
	" {\"metadata\":{\"name\":\"a\"}}\n", `{}`, `{"metadata":null,"spec":null}`, `{"metadata":5}`, `{"kind":1}`,
	`{"metadata":{"name":"a"}} x`, `{"spec":{"a":01}}`, `{"spec":`, `[]`, `null`, `{"a":"\ud800"}`, `{"metadata":{"name":"a"},"metadata":{"uid":"u"}}`,
}

// decodeStored reads a stored custom object (which checks what it reads)
// as encoding/json does, errors included.
func TestDecodeStoredCustomObject(t *testing.T) {
	for _, s := range storedCustomSeeds {
		checkDecodeStored(t, []byte(s))
	}
}

func FuzzDecodeStored(f *testing.F) {
	for _, s := range storedCustomSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkDecodeStored)
}

func checkDecodeStored(t *testing.T, data []byte) {
	got, want := &instance.Object{SplitStatus: true}, &instance.Object{SplitStatus: true}
	err, werr := decodeStored(data, got), json.Unmarshal(data, want)
	if fmt.Sprint(err) != fmt.Sprint(werr) {
		t.Fatalf("decodeStored(%q): error %v, encoding/json's %v", data, err, werr)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeStored(%q) = %+v, encoding/json gives %+v", data, got, want)
	}
}

// storedJSONMetadata reads the metadata of a stored JSON value as
// decoding the whole value would.
func TestStoredJSONMetadata(t *testing.T) {
	for _, s := range []string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"n","labels":{"x":"y"}},"data":{"k":"v"}}`,
		`{"spec":{"metadata":{"name":"inner"}},"metadata":{"name":"outer"},"status":[1,{"metadata":2}]}`,
		` { "metadata" : { "name" : "a" } } `, `{}`, `{"metadata":null}`,
	} {
		got, err := storedJSONMetadata([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		var want struct {
			Metadata meta.ObjectMeta `json:"metadata"`
		}
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*got, want.Metadata) {
			t.Errorf("metadata of %s: %+v, want %+v", s, *got, want.Metadata)
		}
	}
	for _, s := range []string{`{"metadata":{"name":"a"}`, `{"metadata":5}`, `{"a":tru,"metadata":{}}`} {
		if m, err := storedJSONMetadata([]byte(s)); err == nil {
			t.Errorf("metadata of %s: %+v, want an error", s, m)
		}
	}
}

// A custom object is stored (HTML-escaped, as json.Marshal writes) and
// rendered (unescaped, as the list and watch encoders write) byte for byte
// as encoding/json writes it, without encoding/json's pass over it.
func TestEncodeCustomObject(t *testing.T) {
	obj := &instance.Object{
		TypeMeta:   meta.TypeMeta{APIVersion: "example.com/v1", Kind: "App"},
		ObjectMeta: meta.ObjectMeta{Name: "a", Annotations: map[string]string{"note": "a < b && c > d"}},
		Content:    map[string]any{"spec": map[string]any{"html": "<b>&</b>", "sep": "\u2028\u2029"}},
	}
	s := &Store{Resource: &Resource{New: func() meta.Object { return &instance.Object{} }}, mediaType: MediaTypeJSON}
	got, err := s.encode(t.Context(), obj) // sets the storage version's type
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("stored:\n%s\njson.Marshal:\n%s", got, want)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		t.Fatal(err)
	}
	if got, err = Encode(obj, JSON); err != nil {
		t.Fatal(err)
	}
	if want := bytes.TrimSuffix(buf.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
		t.Errorf("rendered:\n%s\nencoding/json:\n%s", got, want)
	}
}
