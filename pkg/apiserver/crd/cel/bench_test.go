package cel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// typical is a custom resource schema of the usual shape: a spec with
// bounds, a label map, a list-map of containers, and a few rules
// including a transition rule.
const typical = `{"type":"object","properties":{"spec":{"type":"object",
	"x-kubernetes-validations":[
		{"rule":"self.minReplicas <= self.replicas","message":"minReplicas must not exceed replicas"},
		{"rule":"!has(self.paused) || !self.paused || self.replicas == oldSelf.replicas","message":"paused resources keep their size"}],
	"properties":{
		"replicas":{"type":"integer","x-kubernetes-validations":[{"rule":"self <= 100"}]},
		"minReplicas":{"type":"integer"},
		"paused":{"type":"boolean"},
		"selector":{"type":"object","maxProperties":16,"additionalProperties":{"type":"string","maxLength":63},
			"x-kubernetes-validations":[{"rule":"self.all(k, k.size() <= 63)"}]},
		"containers":{"type":"array","maxItems":16,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"items":{"type":"object","required":["name"],"properties":{
				"name":{"type":"string","maxLength":63},
				"image":{"type":"string","maxLength":256},
				"ports":{"type":"array","maxItems":8,"items":{"type":"integer"}}},
				"x-kubernetes-validations":[{"rule":"self.image.startsWith('registry.example/')","messageExpression":"'image ' + self.image + ' is not from the registry'"},
					{"rule":"self.ports.all(p, p > 0 && p < 65536)"}]}}}}}}`

const typicalObject = `{"apiVersion":"example.io/v1","kind":"App","metadata":{"name":"a"},"spec":{
	"replicas":3,"minReplicas":1,"paused":false,"selector":{"app":"a","tier":"web"},
	"containers":[{"name":"web","image":"registry.example/web:1","ports":[80,443]},
		{"name":"sidecar","image":"registry.example/proxy:2","ports":[15001]}]}}`

func BenchmarkValidate(b *testing.B) {
	v := mustCompile(b, typical, Options{})
	obj := object(b, typicalObject)
	// An update that changes the replicas, so that most rules run.
	old := object(b, strings.Replace(typicalObject, `"replicas":3`, `"replicas":2`, 1))
	ctx := context.Background()
	cases := []struct {
		name string
		old  map[string]any
	}{
		{"create", nil},
		{"update", old},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if errs := v.Validate(ctx, field.NewPath(""), obj, c.old); len(errs) != 0 {
					b.Fatal(errs)
				}
			}
		})
	}
}

func BenchmarkCompile(b *testing.B) {
	s := schema(b, typical)
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := Compile(s, root, Options{}); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

// TestTypicalSchema checks that the benchmark's schema validates what it
// should, so the benchmark measures working rules.
func TestTypicalSchema(t *testing.T) {
	v := mustCompile(t, typical, Options{})
	if errs := validate(t, v, typicalObject, typicalObject); len(errs) != 0 {
		t.Fatalf("%v", errStrings(errs))
	}
	bad := `{"spec":{"replicas":300,"minReplicas":400,"containers":[{"name":"x","image":"docker.io/x","ports":[0]}]}}`
	want := []string{
		`spec: Invalid value: "object": minReplicas must not exceed replicas`,
		`spec.containers[0]: Invalid value: "object": image docker.io/x is not from the registry`,
		`spec.containers[0]: Invalid value: "object": failed rule: self.ports.all(p, p > 0 && p < 65536)`,
		`spec.replicas: Invalid value: "integer": failed rule: self <= 100`,
	}
	got := errStrings(validate(t, v, bad, ""))
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("error %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// TestValidateConcurrently runs one Validator from several goroutines, as
// the API server does for concurrent writes (run with -race).
func TestValidateConcurrently(t *testing.T) {
	v := mustCompile(t, typical, Options{})
	good, old := object(t, typicalObject), object(t, typicalObject)
	bad := object(t, `{"spec":{"replicas":300,"minReplicas":1}}`)
	done := make(chan field.ErrorList)
	for i := 0; i < 8; i++ {
		obj := good
		if i%2 == 1 {
			obj = bad
		}
		go func() { done <- v.Validate(context.Background(), field.NewPath(""), obj, old) }()
	}
	var failed int
	for i := 0; i < 8; i++ {
		if len(<-done) > 0 {
			failed++
		}
	}
	if failed != 4 {
		t.Fatalf("%d of 8 validations failed, want the 4 of the bad object", failed)
	}
}

// large is a schema of depth levels, each object with width properties:
// a string, an integer with a rule, a bounded list of objects, and the
// next level, so rules sit at every depth and under lists.
func large(depth, width int) string {
	var b strings.Builder
	var level func(d int)
	level = func(d int) {
		b.WriteString(`{"type":"object","x-kubernetes-validations":[{"rule":"!has(self.n0) || self.n0 >= 0"}],"properties":{`)
		for i := 0; i < width; i++ {
			fmt.Fprintf(&b, `"s%d":{"type":"string","maxLength":64},`, i)
			fmt.Fprintf(&b, `"n%d":{"type":"integer","x-kubernetes-validations":[{"rule":"self < 1000","message":"too big"}]},`, i)
			fmt.Fprintf(&b, `"l%d":{"type":"array","maxItems":4,"items":{"type":"object","properties":{"k":{"type":"string","maxLength":8}},"x-kubernetes-validations":[{"rule":"self.k != ''"}]}},`, i)
		}
		b.WriteString(`"next":`)
		if d == 0 {
			b.WriteString(`{"type":"string"}`)
		} else {
			level(d - 1)
		}
		b.WriteString(`}}`)
	}
	level(depth)
	return b.String()
}

// BenchmarkCompileLarge compiles a schema of some hundred KB with a few
// hundred rules.
func BenchmarkCompileLarge(b *testing.B) {
	js := large(10, 10)
	s := schema(b, js)
	b.ReportAllocs()
	var v *Validator
	for b.Loop() {
		var errs field.ErrorList
		if v, errs = Compile(s, root, Options{}); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
	b.ReportMetric(float64(len(js)), "schema-bytes")
	b.ReportMetric(float64(v.rules), "rules")
}
