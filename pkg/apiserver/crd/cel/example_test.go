package cel_test

import (
	"context"
	"encoding/json"
	"fmt"

	"platform.io/platform/pkg/apiserver/crd/cel"
	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// The API server compiles a version's schema once, when the CRD is
// created or changed, and validates each write with the Validator.
func Example() {
	var s structural.Schema
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"spec":{"type":"object",
		"x-kubernetes-validations":[{"rule":"self.min <= self.max","messageExpression":"'min ' + string(self.min) + ' exceeds max'"}],
		"properties":{"min":{"type":"integer"},"max":{"type":"integer"},
			"mode":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"mode is immutable"}]}}}}}`), &s)
	v, errs := cel.Compile(&s, field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"), cel.Options{})
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	obj := map[string]any{"spec": map[string]any{"min": int64(5), "max": int64(3), "mode": "b"}}
	old := map[string]any{"spec": map[string]any{"min": int64(1), "max": int64(3), "mode": "a"}}
	for _, err := range v.Validate(context.Background(), nil, obj, old) {
		fmt.Println(err)
	}
	// Output:
	// spec: Invalid value: "object": min 5 exceeds max
	// spec.mode: Invalid value: "string": mode is immutable
}
