package instance

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"platform.io/client/api/jsontree"
	"platform.io/client/api/meta"
)

// richMeta is metadata with every field set, in the forms that need care.
func richMeta() meta.ObjectMeta {
	yes, no := true, false
	grace := int64(0)
	created := meta.NewTime(time.Date(2026, 11, 27, 16, 50, 46, 0, time.FixedZone("x", -7200)))
	deleted := meta.NewTime(time.Date(2026, 11, 28, 1, 2, 3, 0, time.UTC))
	return meta.ObjectMeta{
		Name: "web-1", GenerateName: "web-", Namespace: "prod", SelfLink: "/apis/example.com/v1/x",
		UID: "5f0c7e1a-3b2d", ResourceVersion: "42", Generation: 3,
		CreationTimestamp: created, DeletionTimestamp: &deleted, DeletionGracePeriodSeconds: &grace,
		Labels:      map[string]string{"app": "web", "a<b>": "x&y", "sep": "\u2028\u2029"},
		Annotations: map[string]string{"note": "line\nbreak\ttab\x00\b\f", "bad": "\xff\xe2\x80", "json": `{"a": [1, 2]}`},
		OwnerReferences: []meta.OwnerReference{
			{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "u1", Controller: &yes, BlockOwnerDeletion: &no},
			{APIVersion: "v1", Kind: "Node", Name: "n", UID: "u2"},
		},
		Finalizers: []string{"example.com/cleanup", "foregroundDeletion"},
		ManagedFields: []meta.ManagedFieldsEntry{
			{Manager: "kubectl", Operation: "Apply", APIVersion: "example.com/v1", Time: &created, FieldsType: "FieldsV1",
				FieldsV1: &meta.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:n":{}},"k:{\"a\":1.50}":{}}`)}},
			{Manager: "ctl", Operation: "Update", Time: &meta.Time{}, FieldsType: "FieldsV1",
				FieldsV1: &meta.FieldsV1{Raw: []byte(" {\n \"f:status\" : { \"f:ok\": {} } }\n")}, Subresource: "status"},
			{Manager: "none", FieldsV1: &meta.FieldsV1{}},
		},
	}
}

// reflectedTree is what UnstructuredContent's metadata must equal: the
// decoded encoding/json encoding of m.
func reflectedTree(m *meta.ObjectMeta) (any, error) {
	b, err := json.Marshal(m) // reflects: AppendJSON is jsontree's hook, not encoding/json's
	if err != nil {
		return nil, err
	}
	return DecodeValue(b)
}

// checkMetadataTree fails t unless metadataTree(m) is the decoded
// encoding/json encoding of m, or both refuse m; it reports a refusal.
func checkMetadataTree(t *testing.T, m *meta.ObjectMeta) bool {
	t.Helper()
	want, wantErr := reflectedTree(m)
	got, err := metadataTree(m)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("metadataTree error %v, encoding/json error %v", err, wantErr)
	}
	if err != nil {
		return true
	}
	if diff := cmp.Diff(want, any(got)); diff != "" {
		t.Errorf("metadataTree differs from the decoded encoding (-want +got):\n%s", diff)
	}
	return false
}

func TestMetadataTree(t *testing.T) {
	tests := []struct {
		name    string
		meta    meta.ObjectMeta
		wantErr bool
	}{
		{name: "empty"},
		{name: "every field", meta: richMeta()},
		{name: "zero deletion timestamp is null", meta: meta.ObjectMeta{DeletionTimestamp: &meta.Time{}}},
		{name: "empty maps and slices omitted", meta: meta.ObjectMeta{Labels: map[string]string{}, OwnerReferences: []meta.OwnerReference{}, Finalizers: []string{}, ManagedFields: []meta.ManagedFieldsEntry{}}},
		{name: "invalid UTF-8, a replacement a byte", meta: meta.ObjectMeta{Name: "a\xe2\x80b", Finalizers: []string{"\xff"}, OwnerReferences: []meta.OwnerReference{{Kind: "\xc3"}}}},
		// "\xe0" and "\xff" read back as "\ufffd", as "\ufffd" itself does;
		// the last written, in sorted byte order ("\xe0" < "\xef\xbf\xbd" <
		// "\xff"), wins.
		{name: "keys colliding after replacement, last wins", meta: meta.ObjectMeta{
			Labels:      map[string]string{"\xe0": "first", "\ufffd": "second", "\xff": "third", "ok": "1"},
			Annotations: map[string]string{"\xe0": "first", "\ufffd": "second"},
		}},
		{name: "fieldsV1 not an object", meta: meta.ObjectMeta{ManagedFields: []meta.ManagedFieldsEntry{{FieldsV1: &meta.FieldsV1{Raw: []byte(` [1, 2.0, "x"] `)}}}}},
		{name: "fieldsV1 broken refused", meta: meta.ObjectMeta{ManagedFields: []meta.ManagedFieldsEntry{{FieldsV1: &meta.FieldsV1{Raw: []byte(`{"a":`)}}}}, wantErr: true},
		{name: "fieldsV1 trailing value refused", meta: meta.ObjectMeta{ManagedFields: []meta.ManagedFieldsEntry{{FieldsV1: &meta.FieldsV1{Raw: []byte(`{} {}`)}}}}, wantErr: true},
		{name: "fieldsV1 empty refused", meta: meta.ObjectMeta{ManagedFields: []meta.ManagedFieldsEntry{{FieldsV1: &meta.FieldsV1{Raw: []byte{}}}}}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if refused := checkMetadataTree(t, &tc.meta); refused != tc.wantErr {
				t.Errorf("refused %v, want %v", refused, tc.wantErr)
			}
			o := &Object{ObjectMeta: tc.meta, Content: map[string]any{"spec": "s"}}
			tree, err := o.UnstructuredContent()
			if (err != nil) != tc.wantErr {
				t.Fatalf("UnstructuredContent error %v", err)
			}
			if err == nil {
				if v, ok := o.Field([]string{"metadata"}); !ok || !cmp.Equal(v, tree["metadata"]) {
					t.Errorf("Field(metadata) = %v, %v; UnstructuredContent has %v", v, ok, tree["metadata"])
				}
			}
		})
	}
}

// FuzzMetadataTree: for metadata decoded from arbitrary JSON (fieldsV1
// kept as given), metadataTree is the decoded encoding/json encoding.
func FuzzMetadataTree(f *testing.F) {
	for _, s := range []string{
		`{"name":"a","generation":2,"creationTimestamp":"2026-11-27T16:50:46Z","labels":{"b":"1","a":"2"},"annotations":{"x":"<&>\u2028"}}`,
		`{"deletionTimestamp":"2026-11-27T16:50:46+01:00","deletionGracePeriodSeconds":-1,"finalizers":["orphan",""],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":false}]}`,
		`{"managedFields":[{"manager":"m","time":"2026-01-02T03:04:05Z","fieldsV1":{ "f:spec" : {"f:x":{}, "n": [1e3, -0, 0.5]} },"subresource":"status"},{"fieldsV1":null},{}]}`,
		`{"name":"\ud800\u0000","labels":{"\ufffd":"a"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var m meta.ObjectMeta
		if json.Unmarshal(doc, &m) != nil {
			return
		}
		checkMetadataTree(t, &m)
	})
}

// A custom object's encoding, with its metadata written by
// ObjectMeta.AppendJSON, is byte for byte what encoding/json writes when
// it reflects over the metadata, with HTML escaping and without.
func TestObjectEncodingMatchesReflection(t *testing.T) {
	objects := map[string]*Object{
		"rich metadata, status split": {
			TypeMeta:   meta.TypeMeta{APIVersion: "example.com/v1", Kind: "App"},
			ObjectMeta: richMeta(), Content: map[string]any{"spec": map[string]any{"html": "<b>", "n": int64(1)}},
			Status: map[string]any{"ok": true}, SplitStatus: true,
		},
		"empty metadata": {Content: map[string]any{}},
	}
	for name, o := range objects {
		t.Run(name, func(t *testing.T) {
			ref := o.top(&o.ObjectMeta) // encoding/json reflects over it, not knowing AppendJSON
			want, err := json.Marshal(ref)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jsontree.Marshal(o, true)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("jsontree.Marshal(o, true):\n%s\nencoding/json:\n%s", got, want)
			}
			if std, err := json.Marshal(o); err != nil || !bytes.Equal(std, want) {
				t.Errorf("json.Marshal(o) = %s, %v; want\n%s", std, err, want)
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(ref); err != nil {
				t.Fatal(err)
			}
			if got, err = jsontree.Marshal(o, false); err != nil || !bytes.Equal(got, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))) {
				t.Errorf("jsontree.Marshal(o, false) = %s, %v; want\n%s", got, err, buf.Bytes())
			}
		})
	}
}

// BenchmarkMetadataTree: the metadata tree the field manager reads on
// every write, built from the fields and (as before) by encoding the
// metadata with encoding/json and decoding the result.
func BenchmarkMetadataTree(b *testing.B) {
	m := richMeta()
	b.Run("metadataTree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := metadataTree(&m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode+decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := reflectedTree(&m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
