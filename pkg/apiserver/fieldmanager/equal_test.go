package fieldmanager

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// podSample is the sample pod the codec tests share.
const podSample = "../../../staging/codec/protobuf/testdata/objects/core/v1/Pod.json"

func TestEqualTreesAsDeepEqual(t *testing.T) {
	nan := math.NaN()
	now := time.Unix(1700000000, 5)
	type inner struct {
		S []string
		M map[string]int
		P *int
		I any
		f float64
	}
	one, two := 1, 2
	shared := []string{"a"}
	cases := []struct {
		name string
		a, b any
	}{
		{"nil and empty slice", []string(nil), []string{}},
		{"nil and empty map", map[string]int(nil), map[string]int{}},
		{"equal slices", []string{"a", "b"}, []string{"a", "b"}},
		{"slices of other lengths", []string{"a"}, []string{"a", "b"}},
		{"one slice twice", shared, shared},
		{"bytes", []byte("ab"), []byte("ab")},
		{"other bytes", []byte("ab"), []byte("ac")},
		{"maps", map[string]int{"a": 1}, map[string]int{"a": 1}},
		{"maps with other values", map[string]int{"a": 1}, map[string]int{"a": 2}},
		{"maps with other keys", map[string]int{"a": 1}, map[string]int{"b": 1}},
		{"pointers to equal values", &one, func() *int { v := 1; return &v }()},
		{"pointers to other values", &one, &two},
		{"nil and non-nil pointer", (*int)(nil), &one},
		{"NaN", nan, nan},
		{"NaN in a struct", inner{f: nan}, inner{f: nan}},
		{"unexported fields differ", inner{f: 1}, inner{f: 2}},
		{"interfaces of other types", inner{I: 1}, inner{I: int64(1)}},
		{"interfaces of one type", inner{I: "x"}, inner{I: "x"}},
		{"nil interface and value", inner{}, inner{I: 0}},
		{"nested", inner{S: []string{"a"}, M: map[string]int{"a": 1}, P: &one}, inner{S: []string{"a"}, M: map[string]int{"a": 1}, P: &one}},
		{"nested, a map differs", inner{M: map[string]int{"a": 1}}, inner{M: map[string]int{"a": 3}}},
		{"times", meta.NewTime(now), meta.NewTime(now)},
		{"times in other locations", meta.NewTime(now), meta.NewTime(now.UTC())},
		{"funcs, nil", (func())(nil), (func())(nil)},
		{"arrays", [2]int{1, 2}, [2]int{1, 3}},
		{"other types", 1, "1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := reflect.DeepEqual(c.a, c.b)
			if got := equalTrees(reflect.ValueOf(c.a), reflect.ValueOf(c.b)); got != want {
				t.Errorf("equalTrees = %v, reflect.DeepEqual = %v", got, want)
			}
		})
	}
}

// FuzzEqualTrees holds equalTrees to reflect.DeepEqual on pods and on
// untyped JSON decoded from two documents.
func FuzzEqualTrees(f *testing.F) {
	// Small seeds: the fuzzer minimizes each input it finds new, which
	// takes long on a whole sample pod.
	pod := `{"metadata":{"name":"p","labels":{"a":"b"}},"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}],` +
		`"resources":{"limits":{"cpu":"1"}}}],"nodeSelector":{"x":"y"}},"status":{"phase":"Running"}}`
	f.Add(pod, pod)
	f.Add(pod, `{"metadata":{"name":"p","labels":{"a":"c"}},"spec":{"containers":[{"name":"c"}]}}`)
	f.Add(`{"spec":{"containers":[]}}`, `{"spec":{"containers":null}}`)
	f.Add(`{"a":[1,"x",{"b":null}]}`, `{"a":[1,"x",{"b":false}]}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, newValue := range []func() any{func() any { return &corev1.Pod{} }, func() any { var v any; return &v }} {
			va, vb := newValue(), newValue()
			if json.Unmarshal([]byte(a), va) != nil || json.Unmarshal([]byte(b), vb) != nil {
				continue
			}
			for _, pair := range [][2]any{{va, vb}, {va, va}, {vb, vb}} {
				want := reflect.DeepEqual(pair[0], pair[1])
				if got := equalTrees(reflect.ValueOf(pair[0]), reflect.ValueOf(pair[1])); got != want {
					t.Fatalf("equalTrees = %v, reflect.DeepEqual = %v for %s and %s", got, want, a, b)
				}
			}
		}
	})
}

func BenchmarkEqualTrees(b *testing.B) {
	raw, err := os.ReadFile(filepath.Clean(podSample))
	if err != nil {
		b.Fatal(err)
	}
	x, y := &corev1.Pod{}, &corev1.Pod{}
	if json.Unmarshal(raw, x) != nil || json.Unmarshal(raw, y) != nil {
		b.Fatal("sample pod does not decode")
	}
	b.Run("equalTrees", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			equalTrees(reflect.ValueOf(&x.Spec).Elem(), reflect.ValueOf(&y.Spec).Elem())
		}
	})
	b.Run("reflect.DeepEqual", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			reflect.DeepEqual(&x.Spec, &y.Spec)
		}
	})
}
