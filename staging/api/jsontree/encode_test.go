package jsontree

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// stdEncode is what Append must match: encoding/json without HTML escaping.
func stdEncode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func TestAppendMatchesEncodingJSON(t *testing.T) {
	cases := []struct {
		name string
		v    any
	}{
		{"null", nil},
		{"bools", []any{true, false}},
		{"integers", []any{int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64)}},
		{"floats", []any{0.5, -1.25, 1e20, 1e21, 123456789.125, 1e-6, 1e-7, 2.5e-10, -3e300, 1.7976931348623157e308, 5e-324, float64(0)}},
		{"strings", []any{"", "plain", `quote " backslash \ slash /`, "<html> & ampersand", "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
			"héllo wörld 日本", "\u2028 and \u2029", "bad \xff utf8 \xc3", "emoji 😀"}},
		{"objects", map[string]any{"b": int64(1), "a": map[string]any{"z": nil, "y": []any{}}, "é": "x", "": "empty key", "A": true}},
		{"nil slice", []any(nil)},
		{"empty", map[string]any{}},
		{"other types", map[string]any{"n": json.Number("12.50"), "s": struct {
			X int `json:"x"`
		}{3}, "i": 7, "f32": float32(0.1)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := stdEncode(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Append(nil, tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Append: %s\nencoding/json: %s", got, want)
			}
		})
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := Append(nil, []any{f}); err == nil {
			t.Errorf("Append(%v) did not fail", f)
		}
	}
}

// FuzzAppend: for any JSON document, Append of its tree writes what
// encoding/json writes.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x\u2028",null,true]}`, `"\u0000\ud800"`, `1e-7`, `{"":{"":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		if err != nil {
			return
		}
		want, err := stdEncode(v)
		if err != nil {
			return
		}
		got, err := Append(nil, v)
		if err != nil {
			t.Fatalf("Append failed where encoding/json did not: %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Append: %s\nencoding/json: %s", got, want)
		}
	})
}

func BenchmarkAppend(b *testing.B) {
	v, err := Decode([]byte(`{"apiVersion":"example.com/v1","kind":"App","spec":{"replicas":3,"ratio":0.5,"template":{"metadata":{"labels":{"app":"web","tier":"front"}},
		"spec":{"containers":[{"name":"web","image":"registry.example.com/web:1.2.3","ports":[{"containerPort":8080,"protocol":"TCP"}],
		"env":[{"name":"A","value":"one"},{"name":"B","value":"two"}]}]}}}}`))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Append", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			buf, _ = Append(buf[:0], v)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			stdEncode(v)
		}
	})
}

// appender is a type that writes itself, as custom objects do: a tree
// behind a pointer.
type appender struct{ v any }

func (a *appender) AppendJSON(dst []byte) ([]byte, error) { return Append(dst, a.v) }

func (a *appender) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil) }

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	tree := map[string]any{"s": "<b> & \u2028", "n": []any{int64(1), 2.5, nil}, "m": map[string]any{"k": "v"}}
	cases := []struct {
		name string
		v    any
	}{
		{"appender", &appender{tree}},
		{"nested appender", map[string]any{"inner": &appender{tree}, "x": "&"}},
		{"nil appender", (*appender)(nil)},
		{"appender without html", &appender{map[string]any{"a": "plain"}}},
		{"plain struct", struct {
			S string `json:"s"`
		}{"<x>"}},
		{"tree", tree},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Marshal(tc.v, true)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Marshal(escapeHTML): %s\njson.Marshal: %s", got, want)
			}
			if want, err = stdEncode(tc.v); err != nil {
				t.Fatal(err)
			}
			if got, err = Marshal(tc.v, false); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Marshal: %s\nencoding/json without HTML escaping: %s", got, want)
			}
			if got, err = Append(nil, tc.v); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Append: %s\nencoding/json without HTML escaping: %s", got, want)
			}
		})
	}
}

// FuzzMarshal: for any JSON document, Marshal of an Appender of its tree
// writes what json.Marshal and an encoder without HTML escaping write.
func FuzzMarshal(f *testing.F) {
	for _, s := range []string{`{"a":["<&>",1,"x\u2028",null,true]}`, `"\u003c\ud800"`, `{"":{"&":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		if err != nil {
			return
		}
		a := &appender{v}
		for _, escape := range []bool{true, false} {
			want, werr := stdEncode(a)
			if escape {
				want, werr = json.Marshal(a)
			}
			got, err := Marshal(a, escape)
			if (werr == nil) != (err == nil) {
				t.Fatalf("errors differ: encoding/json %v, Marshal %v", werr, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("Marshal(%v): %s\nencoding/json: %s", escape, got, want)
			}
		}
	})
}
