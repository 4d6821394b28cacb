package cel

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/validation/field"
)

var root = field.NewPath("spec", "validation", "openAPIV3Schema")

// schema decodes a schema written as JSON.
func schema(t testing.TB, js string) *structural.Schema {
	t.Helper()
	var s structural.Schema
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatalf("schema %s: %v", js, err)
	}
	return &s
}

// object decodes a JSON object into the tree form of the structural
// package: integers as int64, other numbers as float64.
func object(t testing.TB, js string) map[string]any {
	t.Helper()
	if js == "" {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("object %s: %v", js, err)
	}
	return fixNumbers(v).(map[string]any)
}

func fixNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = fixNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = fixNumbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// mustCompile compiles a schema that must compile.
func mustCompile(t testing.TB, js string, opts Options) *Validator {
	t.Helper()
	v, errs := Compile(schema(t, js), root, opts)
	if len(errs) > 0 {
		t.Fatalf("compile: %v", errs)
	}
	return v
}

// errStrings renders errors for comparison.
func errStrings(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func validate(t testing.TB, v *Validator, obj, old string) field.ErrorList {
	t.Helper()
	return v.Validate(context.Background(), field.NewPath(""), object(t, obj), object(t, old))
}
