package meta

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// stdEncode is what AppendObjectMetaJSON must match: encoding/json with HTML
// escaping off, without the Encoder's newline.
func stdEncode(m *ObjectMeta) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// checkAppendJSON fails t unless AppendObjectMetaJSON writes what encoding/json
// writes for m, or both refuse it; it reports whether they refused it.
func checkAppendJSON(t *testing.T, m *ObjectMeta) bool {
	t.Helper()
	want, wantErr := stdEncode(m)
	got, err := AppendObjectMetaJSON([]byte("prefix"), m)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("AppendObjectMetaJSON error %v, encoding/json error %v", err, wantErr)
	}
	if err != nil {
		return true
	}
	if !bytes.HasPrefix(got, []byte("prefix")) {
		t.Fatalf("AppendObjectMetaJSON dropped dst: %q", got)
	}
	if got = got[len("prefix"):]; !bytes.Equal(got, want) {
		t.Errorf("AppendObjectMetaJSON wrote\n%s\nencoding/json writes\n%s", got, want)
	}
	return false
}

func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	yes, no := true, false
	grace := int64(30)
	zero := int64(0)
	created := NewTime(time.Date(2026, 11, 27, 16, 50, 46, 123456789, time.FixedZone("x", 3600)))
	deleted := NewTime(time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC))
	far := NewTime(time.Date(12345, 1, 2, 3, 4, 5, 0, time.UTC))
	tests := []struct {
		name    string
		meta    ObjectMeta
		wantErr bool
	}{
		{name: "empty: creationTimestamp is null, the rest omitted"},
		{name: "every string field", meta: ObjectMeta{Name: "a", GenerateName: "a-", Namespace: "ns", SelfLink: "/x", UID: "u-1", ResourceVersion: "42"}},
		{name: "only a later field, no leading comma", meta: ObjectMeta{ResourceVersion: "7"}},
		{name: "generation and timestamps", meta: ObjectMeta{Generation: -3, CreationTimestamp: created, DeletionTimestamp: &deleted, DeletionGracePeriodSeconds: &grace}},
		{name: "zero deletion timestamp and grace are written", meta: ObjectMeta{DeletionTimestamp: &Time{}, DeletionGracePeriodSeconds: &zero}},
		{name: "year past 9999", meta: ObjectMeta{CreationTimestamp: far}},
		{name: "empty maps and slices omitted", meta: ObjectMeta{Labels: map[string]string{}, Annotations: map[string]string{}, OwnerReferences: []OwnerReference{}, Finalizers: []string{}, ManagedFields: []ManagedFieldsEntry{}}},
		{name: "maps sorted, escaped", meta: ObjectMeta{
			Labels:      map[string]string{"b": "2", "a": "1", "app.example.com/tier": "front", "": ""},
			Annotations: map[string]string{"z<&>": "v\u2028\x00\b\f\n\"\\", "bad\xff": "\xe2\x80", "k": `{"json":[1, 2]}`},
		}},
		{name: "many labels, more than the key buffer", meta: ObjectMeta{Labels: map[string]string{
			"k01": "", "k02": "", "k03": "", "k04": "", "k05": "", "k06": "", "k07": "", "k08": "", "k09": "",
			"k10": "", "k11": "", "k12": "", "k13": "", "k14": "", "k15": "", "k16": "", "k17": "", "k18": "",
		}}},
		{name: "owner references", meta: ObjectMeta{OwnerReferences: []OwnerReference{
			{},
			{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u", Controller: &yes, BlockOwnerDeletion: &no},
			{APIVersion: "v1", Kind: "Node", Name: "n", UID: "u2", BlockOwnerDeletion: &yes},
		}}},
		{name: "finalizers", meta: ObjectMeta{Finalizers: []string{"orphan", "", "example.com/<x>"}}},
		{name: "managed fields", meta: ObjectMeta{ManagedFields: []ManagedFieldsEntry{
			{},
			{Manager: "kubectl", Operation: "Apply", APIVersion: "v1", Time: &created, FieldsType: "FieldsV1", FieldsV1: &FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`)}, Subresource: "status"},
			{Time: &Time{}, FieldsV1: &FieldsV1{}},
			{Subresource: "scale"},
		}}},
		{name: "fieldsV1 compacted", meta: ObjectMeta{ManagedFields: []ManagedFieldsEntry{
			{FieldsV1: &FieldsV1{Raw: []byte(" {\n\t\"f:spec\" : { \"f:a b\":{ } } ,\"k:{\\\"x\\\":1}\":[ 1 , 2.50 , true ,null] } \r\n")}},
		}}},
		{name: "fieldsV1 not a JSON object, kept", meta: ObjectMeta{ManagedFields: []ManagedFieldsEntry{{FieldsV1: &FieldsV1{Raw: []byte(`"<\u2028>"`)}}}}},
		{name: "fieldsV1 empty raw refused", meta: ObjectMeta{ManagedFields: []ManagedFieldsEntry{{FieldsV1: &FieldsV1{Raw: []byte{}}}}}, wantErr: true},
		{name: "fieldsV1 broken refused", meta: ObjectMeta{ManagedFields: []ManagedFieldsEntry{{FieldsV1: &FieldsV1{Raw: []byte(`{"a":}`)}}}}, wantErr: true},
		{name: "fieldsV1 trailing value refused", meta: ObjectMeta{ManagedFields: []ManagedFieldsEntry{{FieldsV1: &FieldsV1{Raw: []byte(`{} {}`)}}}}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if refused := checkAppendJSON(t, &tc.meta); refused != tc.wantErr {
				t.Errorf("refused %v, want %v", refused, tc.wantErr)
			}
		})
	}
}

// FuzzAppendJSON decodes arbitrary JSON into ObjectMeta (fieldsV1 kept
// as given, whitespace and all) and sets a raw fieldsV1 and a creation
// time directly, then requires AppendObjectMetaJSON to write encoding/json's bytes.
func FuzzAppendJSON(f *testing.F) {
	f.Add([]byte(`{"name":"a","namespace":"b","uid":"u","resourceVersion":"1","generation":2,"creationTimestamp":"2026-11-27T16:50:46Z","labels":{"b":"1","a":"2"},"annotations":{"x":"<&>\u2028"}}`), []byte(nil), int64(0))
	f.Add([]byte(`{"deletionTimestamp":"2026-11-27T16:50:46+01:00","deletionGracePeriodSeconds":0,"finalizers":["orphan",""],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":false}]}`), []byte(`{"f:a":{}}`), int64(1))
	f.Add([]byte(`{"managedFields":[{"manager":"m","operation":"Update","time":"2026-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{ "f:spec" : {"f:x":{}} },"subresource":"status"},{"fieldsV1":null},{}]}`), []byte(" [1,\n2] "), int64(-62135596800))
	f.Add([]byte(`{"name":"\ud800\udc00\u0000\b\f","labels":{}}`), []byte(`{`), int64(253402300800))
	f.Add([]byte(`{"managedFields":[{"fieldsV1":"\u2028"}]}`), []byte{}, int64(1e12))
	f.Fuzz(func(t *testing.T, doc, raw []byte, sec int64) {
		var m ObjectMeta
		if err := json.Unmarshal(doc, &m); err != nil {
			return
		}
		checkAppendJSON(t, &m)
		if sec != 0 {
			m.CreationTimestamp = NewTime(time.Unix(sec, 0))
		}
		if raw != nil {
			m.ManagedFields = append(m.ManagedFields, ManagedFieldsEntry{FieldsV1: &FieldsV1{Raw: raw}})
		}
		checkAppendJSON(t, &m)
	})
}

// BenchmarkObjectMetaJSON: a typical custom object's metadata (one
// managedFields entry of about 600 bytes) written by AppendObjectMetaJSON and by
// encoding/json.
func BenchmarkObjectMetaJSON(b *testing.B) {
	created := NewTime(time.Date(2026, 11, 27, 16, 50, 46, 0, time.UTC))
	m := &ObjectMeta{
		Name: "web-7d4f9", Namespace: "prod", UID: "5f0c7e1a-3b2d-4c8e-9a61-0d2b7c4e8f13", ResourceVersion: "123456",
		CreationTimestamp: created,
		Labels:            map[string]string{"app": "web", "tier": "front", "app.kubernetes.io/version": "1.2.3"},
		Annotations:       map[string]string{"example.com/owner": "team-a", "example.com/revision": "17"},
		ManagedFields: []ManagedFieldsEntry{{
			Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "example.com/v1", Time: &created, FieldsType: "FieldsV1",
			FieldsV1: &FieldsV1{Raw: []byte(`{"f:metadata":{"f:annotations":{".":{},"f:example.com/owner":{},"f:example.com/revision":{}},` +
				`"f:labels":{".":{},"f:app":{},"f:app.kubernetes.io/version":{},"f:tier":{}}},"f:spec":{".":{},"f:replicas":{},` +
				`"f:selector":{},"f:template":{".":{},"f:metadata":{".":{},"f:labels":{".":{},"f:app":{},"f:tier":{}}},` +
				`"f:spec":{".":{},"f:containers":{".":{},"k:{\"name\":\"web\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"A\"}":{".":{},` +
				`"f:name":{},"f:value":{}},"k:{\"name\":\"B\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:name":{},` +
				`"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},` +
				`"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}}}}}}}}}`)},
		}},
	}
	b.Logf("fieldsV1 %d bytes", len(m.ManagedFields[0].FieldsV1.Raw))
	b.Run("AppendObjectMetaJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = AppendObjectMetaJSON(buf[:0], m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			buf.Reset()
			if err := enc.Encode(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// checkIsCompactJSON fails t if isCompactJSON says yes to b when
// json.Compact would refuse or change it; it returns isCompactJSON's answer.
func checkIsCompactJSON(t *testing.T, b []byte) bool {
	t.Helper()
	got := isCompactJSON(b)
	var buf bytes.Buffer
	err := json.Compact(&buf, b)
	if got && (err != nil || !bytes.Equal(buf.Bytes(), b)) {
		t.Errorf("isCompactJSON(%q) = true; json.Compact gives %q, %v", b, buf.Bytes(), err)
	}
	return got
}

func TestIsCompactJSON(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`{}`, true}, {`[]`, true}, {`""`, true}, {`0`, true}, {`-0.5e+10`, true}, {`1E3`, true}, {`true`, true}, {`false`, true}, {`null`, true},
		{`{"a":{".":{},"k:{\"x\":1}":[1,-2.25,"\u00e9\/\b\f\n\r\t\\"]}}`, true},
		{"\"\xff\xe2\x80\xa8\"", true}, // bytes kept, as json.Compact keeps them
		{``, false}, {` {}`, false}, {`{} `, false}, {`{ }`, false}, {`{"a": 1}`, false}, {`[1, 2]`, false}, {"{\n}", false},
		{`{"a":1,}`, false}, {`[1,]`, false}, {`{"a"}`, false}, {`{1:2}`, false}, {`{"a":1`, false}, {`[`, false}, {`{} {}`, false},
		{`01`, false}, {`-`, false}, {`1.`, false}, {`.5`, false}, {`1e`, false}, {`1e+`, false}, {`+1`, false}, {`tru`, false}, {`nul`, false}, {`True`, false},
		{`"a`, false}, {"\"\x1f\"", false}, {`"\x"`, false}, {`"\u12"`, false}, {`"\u12g4"`, false}, {`"\`, false},
		{strings.Repeat("[", maxCompactDepth+1) + strings.Repeat("]", maxCompactDepth+1), false}, // too deep for the fast path only
		{strings.Repeat("[", maxCompactDepth) + strings.Repeat("]", maxCompactDepth), true},
	}
	for _, tc := range tests {
		if got := checkIsCompactJSON(t, []byte(tc.in)); got != tc.want {
			t.Errorf("isCompactJSON(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// FuzzIsCompactJSON: isCompactJSON never says yes to what json.Compact
// refuses or changes, and says yes to what json.Compact writes (when
// not too deeply nested).
func FuzzIsCompactJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,-2.5e-3,true,false,null,"\u00e9\n"]}`, `{ "a" : 1 }`, `[1,]`, `01`, `"\q"`, "\"\xff\"", `{"a":{"b":{"c":[[[]]]}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkIsCompactJSON(t, b)
		var buf bytes.Buffer
		if json.Compact(&buf, b) != nil || bytes.Count(b, []byte("["))+bytes.Count(b, []byte("{")) > maxCompactDepth {
			return
		}
		if !isCompactJSON(buf.Bytes()) {
			t.Errorf("isCompactJSON(%q) = false for json.Compact's output", buf.Bytes())
		}
	})
}

// TestEmbeddersInheritNoAppendJSON: every built-in type embeds ObjectMeta,
// and encoders call a value's AppendJSON when it has one (jsontree's
// Appender), so an AppendJSON of ObjectMeta's would be promoted to them
// and make them write only their metadata.
func TestEmbeddersInheritNoAppendJSON(t *testing.T) {
	type appender interface {
		AppendJSON(dst []byte) ([]byte, error)
	}
	embedder := &struct {
		TypeMeta
		ObjectMeta `json:"metadata"`
	}{}
	if _, ok := any(embedder).(appender); ok {
		t.Error("a type embedding ObjectMeta has an AppendJSON method")
	}
}
