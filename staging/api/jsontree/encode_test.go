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
