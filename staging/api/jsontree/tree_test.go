package jsontree

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`{"a":1,"b":[2.5,-0,-0.0,9223372036854775807,9223372036854775808],"c":null,"d":"x"}`,
			map[string]any{"a": int64(1), "b": []any{2.5, int64(0), float64(0), int64(9223372036854775807), 9223372036854775808.0}, "c": nil, "d": "x"}},
		{`1e3`, float64(1000)},
		{`[true]`, []any{true}},
	}
	for _, tc := range tests {
		got, err := Decode([]byte(tc.in))
		if err != nil {
			t.Fatalf("Decode(%s): %v", tc.in, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Decode(%s) (-want +got):\n%s", tc.in, diff)
		}
	}
	if _, err := Decode([]byte(`{`)); err == nil {
		t.Error("Decode of a truncated object succeeded")
	}
}

func TestDeepCopy(t *testing.T) {
	orig := map[string]any{"m": map[string]any{"k": "v"}, "l": []any{map[string]any{"x": int64(1)}}}
	c := DeepCopy(orig).(map[string]any)
	c["m"].(map[string]any)["k"] = "changed"
	c["l"].([]any)[0].(map[string]any)["x"] = int64(2)
	if orig["m"].(map[string]any)["k"] != "v" || orig["l"].([]any)[0].(map[string]any)["x"] != int64(1) {
		t.Errorf("the copy shares values with the original: %v", orig)
	}
}

func TestField(t *testing.T) {
	tree := map[string]any{"spec": map[string]any{"replicas": int64(3), "list": []any{int64(1)}}}
	tests := []struct {
		path []string
		want any
		ok   bool
	}{
		{[]string{"spec", "replicas"}, int64(3), true},
		{nil, tree, true},
		{[]string{"spec", "missing"}, nil, false},
		{[]string{"spec", "list", "0"}, nil, false},
		{[]string{"spec", "replicas", "x"}, nil, false},
	}
	for _, tc := range tests {
		got, ok := Field(tree, tc.path...)
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("Field(%v) = %v, %v; want %v, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}
