package crd

import (
	"context"
	"encoding/json"
	"fmt"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/cel"
	"platform.io/platform/pkg/apiserver/crd/instance"
	"platform.io/platform/pkg/apiserver/crd/structural"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// loadSchema returns the structural schema of version v.
func loadSchema(v *apiextv1.CustomResourceDefinitionVersion) (*structural.Schema, error) {
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("version %s has no schema", v.Name)
	}
	data, err := json.Marshal(v.Schema.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	s, errs := structural.Load(data, field.NewPath("spec", "versions").Key(v.Name).Child("schema", "openAPIV3Schema"))
	if len(errs) > 0 {
		return nil, fmt.Errorf("version %s: %s", v.Name, errs[0].Error())
	}
	return s, nil
}

// schemaRules are what a version's schema does to its objects: prune
// unknown fields, apply defaults (on every write and every read from
// storage) and validate, by the schema and then by its CEL rules.
type schemaRules struct {
	s     *structural.Schema
	rules *cel.Validator
}

// newSchemaRules compiles the CEL rules of s; the definition's validation
// has already refused rules that do not compile.
func newSchemaRules(s *structural.Schema) (schemaRules, error) {
	rules, errs := cel.Compile(s, nil, cel.Options{})
	if len(errs) > 0 {
		return schemaRules{}, fmt.Errorf("validation rules: %s", errs[0].Error())
	}
	return schemaRules{s: s, rules: rules}, nil
}

// tree returns the object as one JSON tree without its metadata, whose
// values are the object's own (changes to nested values are changes to
// the object).
func tree(o *instance.Object) map[string]any {
	m := make(map[string]any, len(o.Content)+3)
	for k, v := range o.Content {
		m[k] = v
	}
	if o.SplitStatus && o.Status != nil {
		m["status"] = o.Status
	}
	if o.APIVersion != "" {
		m["apiVersion"] = o.APIVersion
	}
	if o.Kind != "" {
		m["kind"] = o.Kind
	}
	return m
}

// setTree replaces the object's fields other than metadata with m's.
func setTree(o *instance.Object, m map[string]any) {
	content := make(map[string]any, len(m))
	o.Status = nil
	for k, v := range m {
		switch {
		case k == "apiVersion" || k == "kind" || k == "metadata":
		case k == "status" && o.SplitStatus:
			o.Status = v
		default:
			content[k] = v
		}
	}
	o.Content = content
}

// prune removes the fields the schema does not name and returns their paths.
func (r schemaRules) prune(obj meta.Object) []string {
	o := obj.(*instance.Object)
	m := tree(o)
	removed := r.s.Prune(m, true)
	if len(removed) > 0 {
		setTree(o, m)
	}
	return removed
}

// normalize prunes and defaults obj.
func (r schemaRules) normalize(o *instance.Object) {
	m := tree(o)
	r.s.Prune(m, true)
	r.s.ApplyDefaults(m)
	setTree(o, m)
}

// validate checks obj (an update of old, when old is not nil) against the
// schema, one error per failing field, then, when the schema found
// nothing, against the CEL rules, as upstream skips the rules of an object
// of the wrong shape. The rules stop at their runtime cost budget or when
// ctx, the request's, is done, whichever comes first.
func (r schemaRules) validate(ctx context.Context, o, old *instance.Object) field.ErrorList {
	obj := tree(o)
	if errs := r.s.Validate(nil, obj); len(errs) > 0 {
		return errs
	}
	var prev map[string]any
	if old != nil {
		prev = tree(old)
	}
	return r.rules.Validate(ctx, nil, obj, prev)
}

// strategy is the strategy of a custom version: Typed's parts, with
// validation by the schema and its rules in the request's context.
type strategy struct {
	registry.Typed[instance.Object]
	rules schemaRules
}

var _ registry.Strategy = strategy{}

func (s strategy) Validate(ctx context.Context, obj meta.Object) field.ErrorList {
	return s.rules.validate(ctx, obj.(*instance.Object), nil)
}

func (s strategy) ValidateUpdate(ctx context.Context, obj, old meta.Object) field.ErrorList {
	return s.rules.validate(ctx, obj.(*instance.Object), old.(*instance.Object))
}
