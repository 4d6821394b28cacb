package endpoints

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
)

// encodeJSON writes a custom object, which writes itself, byte for byte
// as a json.Encoder without HTML escaping does, pretty or not.
func TestEncodeJSONCustomObject(t *testing.T) {
	yes := true
	grace := int64(30)
	created := meta.NewTime(time.Date(2026, 11, 27, 16, 50, 46, 0, time.UTC))
	obj := &instance.Object{
		TypeMeta: meta.TypeMeta{APIVersion: "example.com/v1", Kind: "App"},
		ObjectMeta: meta.ObjectMeta{
			Name: "a", Namespace: "n", UID: "u", ResourceVersion: "7", Generation: 2,
			CreationTimestamp: created, DeletionTimestamp: &created, DeletionGracePeriodSeconds: &grace,
			Labels: map[string]string{"x": "<y>", "b": "1"}, Annotations: map[string]string{"note": "a & b\u2028"},
			OwnerReferences: []meta.OwnerReference{{APIVersion: "v1", Kind: "K", Name: "o", UID: "ou", Controller: &yes}},
			Finalizers:      []string{"example.com/f"},
			ManagedFields: []meta.ManagedFieldsEntry{{Manager: "m", Operation: "Update", Time: &created, FieldsType: "FieldsV1",
				FieldsV1: &meta.FieldsV1{Raw: []byte("{ \"f:spec\": {\"f:html\": {}} }")}}},
		},
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

// encodeJSON writes a built-in object, whose embedded ObjectMeta must lend
// it no AppendJSON, whole: what encoding/json writes for it.
func TestEncodeJSONBuiltinObject(t *testing.T) {
	obj := &corev1.ConfigMap{
		TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: meta.ObjectMeta{Name: "a", Namespace: "n", Labels: map[string]string{"x": "<y>"}},
		Data:       map[string]string{"k": "v"},
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := encodeJSON(&got, obj, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("encodeJSON wrote\n%s\nencoding/json writes\n%s", got.Bytes(), want.Bytes())
	}
}
