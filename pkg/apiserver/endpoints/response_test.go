package endpoints

import (
	"bytes"
	"encoding/json"
	"testing"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
)

// encodeJSON writes a custom object, which writes itself, byte for byte
// as a json.Encoder without HTML escaping does, pretty or not.
func TestEncodeJSONCustomObject(t *testing.T) {
	obj := &instance.Object{
		TypeMeta:    meta.TypeMeta{APIVersion: "example.com/v1", Kind: "App"},
		ObjectMeta:  meta.ObjectMeta{Name: "a", Namespace: "n", Labels: map[string]string{"x": "<y>"}},
		Content:     map[string]any{"spec": map[string]any{"html": "<b> & </b>", "n": []any{int64(1), 2.5, nil}, "sep": "\u2028"}},
		Status:      map[string]any{"ok": true},
		SplitStatus: true,
	}
	for _, pretty := range []bool{false, true} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if pretty {
			enc.SetIndent("", "  ")
		}
		if err := enc.Encode(obj); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := encodeJSON(&got, obj, pretty); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("pretty %v:\n%s\nencoding/json:\n%s", pretty, got.Bytes(), want.Bytes())
		}
	}
}
