package crd

import (
	"encoding/json"
	"fmt"

	apiextv1 "platform.io/client/api/apiextensions/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/crd/instance"
	"platform.io/platform/pkg/apiserver/crd/structural"
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
// storage) and validate.
type schemaRules struct {
	s *structural.Schema
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

// validate checks obj against the schema, one error per failing field.
func (r schemaRules) validate(o *instance.Object) field.ErrorList {
	return r.s.Validate(nil, tree(o))
}
