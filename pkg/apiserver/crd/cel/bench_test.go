package cel

import (
	"context"
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
