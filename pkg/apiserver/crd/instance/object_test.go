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
