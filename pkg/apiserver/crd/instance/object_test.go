package instance

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRoundTrip(t *testing.T) {
	cases := []struct {
		name  string
		split bool
		doc   string
	}{
		{"status in content", false, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a","labels":{"x":"y"},"creationTimestamp":null},"spec":{"n":3,"f":1.5,"l":[true,null,"s"]},"status":{"ok":true}}`},
		{"status split", true, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a","creationTimestamp":null},"spec":{"big":9007199254740993},"status":{"ok":true}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := &Object{SplitStatus: tc.split}
			if err := json.Unmarshal([]byte(tc.doc), o); err != nil {
				t.Fatal(err)
			}
			if o.Name != "a" || o.Kind != "Widget" {
				t.Errorf("metadata or kind lost: %+v", o)
			}
			if _, inContent := o.Content["status"]; inContent == tc.split || (o.Status != nil) != tc.split {
				t.Errorf("status placed wrongly: content %v, status %v", o.Content, o.Status)
			}
			got, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			json.Unmarshal(got, &a)
			json.Unmarshal([]byte(tc.doc), &b)
			if diff := cmp.Diff(b, a); diff != "" {
				t.Errorf("round trip changed the document (-want +got):\n%s", diff)
			}
			// The tree form is the decoded JSON form, numbers included.
			tree, err := o.UnstructuredContent()
			if err != nil {
				t.Fatal(err)
			}
			want, err := DecodeValue(got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, any(tree)); diff != "" {
				t.Errorf("UnstructuredContent differs from the decoded JSON (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNumbers(t *testing.T) {
	o := &Object{}
	if err := json.Unmarshal([]byte(`{"spec":{"i":9007199254740993,"f":2.5,"e":1e3}}`), o); err != nil {
		t.Fatal(err)
	}
	spec := o.Content["spec"].(map[string]any)
	if spec["i"] != int64(9007199254740993) || spec["f"] != 2.5 || spec["e"] != 1000.0 {
		t.Errorf("numbers decoded as %#v", spec)
	}
}

func TestRefusesNonObjects(t *testing.T) {
	for _, doc := range []string{`[]`, `"x"`, `null`, `{"kind":3}`, `{"metadata":{"name":5}}`} {
		if err := json.Unmarshal([]byte(doc), &Object{}); err == nil {
			t.Errorf("%s decoded without error", doc)
		}
	}
}

// TestDecodeJSONRefusesBrokenDocuments: DecodeJSON checks what it reads
// (callers skip json.Valid for it) and leaves the object alone when the
// document is broken.
func TestDecodeJSONRefusesBrokenDocuments(t *testing.T) {
	for _, doc := range []string{`{"metadata":{"name":"a"}`, `{"spec":[1,]}`, `{"spec":01}`, `{"metadata":{}} {}`, `{"spec":"\q"}`, ``} {
		o := &Object{SplitStatus: true, Content: map[string]any{"kept": true}}
		if err := o.DecodeJSON([]byte(doc)); err == nil {
			t.Errorf("DecodeJSON(%q) accepted a broken document: %+v", doc, o)
		}
		if o.Content["kept"] != true || !o.SplitStatus {
			t.Errorf("DecodeJSON(%q) changed the object: %+v", doc, o)
		}
	}
}

// BenchmarkObject: reading and writing a typical custom object, through
// the package's own paths (what the API server calls) and through
// encoding/json's handling of a Marshaler and Unmarshaler.
func BenchmarkObject(b *testing.B) {
	doc := []byte(`{"apiVersion":"example.com/v1","kind":"App","metadata":{"name":"web","namespace":"prod","labels":{"app":"web","tier":"front"}},
		"spec":{"replicas":3,"ratio":0.5,"template":{"metadata":{"labels":{"app":"web","tier":"front"}},
		"spec":{"containers":[{"name":"web","image":"registry.example.com/web:1.2.3","ports":[{"containerPort":8080,"protocol":"TCP"}],
		"env":[{"name":"A","value":"one"},{"name":"B","value":"two"}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"}}}]}}},"status":{"ready":2}}`)
	o := &Object{SplitStatus: true}
	if err := o.DecodeJSON(doc); err != nil {
		b.Fatal(err)
	}
	b.Run("DecodeJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := (&Object{SplitStatus: true}).DecodeJSON(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := json.Unmarshal(doc, &Object{SplitStatus: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = o.AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(o); err != nil {
				b.Fatal(err)
			}
		}
	})
}
