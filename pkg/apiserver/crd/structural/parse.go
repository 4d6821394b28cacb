package structural

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"platform.io/client/api/jsontree"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// MaxDepth is how deeply schema nodes may nest (through properties, items,
// additionalProperties and the junctors). Real CRDs stay far below it; it
// keeps a hostile schema from exhausting the stack of every walk over it.
const MaxDepth = 128

// ParseError lists the keywords that made a schema document unacceptable,
// each at its path inside the schema ("properties[spec].$ref").
type ParseError struct {
	Errs field.ErrorList
}

func (e *ParseError) Error() string {
	msgs := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		msgs[i] = err.Error()
	}
	return "structural: " + strings.Join(msgs, ", ")
}

// Under returns the errors with their paths placed under fld, the path of
// the schema itself (spec.versions[0].schema.openAPIV3Schema).
func (e *ParseError) Under(fld *field.Path) field.ErrorList {
	out := make(field.ErrorList, len(e.Errs))
	for i, err := range e.Errs {
		c := *err
		c.Field = join(fld, err.Field)
		out[i] = &c
	}
	return out
}

// join places a relative path rendered by field.Path under base.
func join(base *field.Path, rel string) string {
	if base == nil {
		return rel
	}
	switch {
	case rel == "":
		return base.String()
	case rel[0] == '[':
		return base.String() + rel
	}
	return base.String() + "." + rel
}

// Parse decodes an openAPIV3Schema document. Keywords the CRD API does not
// accept ($ref, definitions, dependencies, patternProperties,
// additionalItems, id, items as an array) and unknown keywords are refused
// with a *ParseError; numbers in default, enum and example become int64 or
// float64 as in the package's JSON trees. Parse does not check the schema
// is structural: Check does.
func Parse(data []byte) (*Schema, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("structural: decoding the schema: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("structural: decoding the schema: trailing data after the schema object")
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("structural: the schema must be a JSON object, not %s", jsonType(raw))
	}
	var errs field.ErrorList
	walkKeywords(obj, nil, 0, &errs)
	if len(errs) > 0 {
		return nil, &ParseError{Errs: errs}
	}
	var s Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("structural: decoding the schema: %w", err)
	}
	fillValues(&s, obj)
	return &s, nil
}

// unsupported are the JSONSchemaProps keywords the CRD API refuses.
var unsupported = map[string]string{
	"id":                "id is not supported",
	"$ref":              "$ref is not supported",
	"definitions":       "definitions is not supported",
	"dependencies":      "dependencies is not supported",
	"patternProperties": "patternProperties is not supported",
	"additionalItems":   "additionalItems is not supported",
}

// scalarKeywords are the accepted keywords whose values json.Unmarshal
// checks on its own.
var scalarKeywords = map[string]bool{
	"$schema": true, "description": true, "type": true, "format": true, "title": true,
	"default": true, "maximum": true, "exclusiveMaximum": true, "minimum": true,
	"exclusiveMinimum": true, "maxLength": true, "minLength": true, "pattern": true,
	"maxItems": true, "minItems": true, "uniqueItems": true, "multipleOf": true,
	"enum": true, "maxProperties": true, "minProperties": true, "required": true,
	"externalDocs": true, "example": true, "nullable": true,
	"x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-embedded-resource": true,
	"x-kubernetes-int-or-string": true, "x-kubernetes-list-map-keys": true,
	"x-kubernetes-list-type": true, "x-kubernetes-map-type": true,
}

var ruleKeywords = map[string]bool{
	"rule": true, "message": true, "messageExpression": true, "reason": true,
	"fieldPath": true, "optionalOldSelf": true,
}

// walkKeywords reports unsupported and unknown keywords of the schema node
// raw at p and of every node below it.
func walkKeywords(raw map[string]any, p *field.Path, depth int, errs *field.ErrorList) {
	if depth > MaxDepth {
		*errs = append(*errs, field.Forbidden(p, fmt.Sprintf("must not nest schemas more than %d deep", MaxDepth)))
		return
	}
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		v := raw[k]
		kp := p.Child(k)
		if msg, bad := unsupported[k]; bad {
			*errs = append(*errs, field.Forbidden(kp, msg))
			continue
		}
		switch k {
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				*errs = append(*errs, field.Invalid(kp, jsonType(v), "must be an object of schemas"))
				continue
			}
			for _, name := range slices.Sorted(maps.Keys(props)) {
				walkSchema(props[name], kp.Key(name), depth, errs)
			}
		case "items":
			if _, isList := v.([]any); isList {
				*errs = append(*errs, field.Forbidden(kp, "items must be a schema object and not an array"))
				continue
			}
			walkSchema(v, kp, depth, errs)
		case "not":
			walkSchema(v, kp, depth, errs)
		case "additionalProperties":
			if _, isBool := v.(bool); !isBool {
				walkSchema(v, kp, depth, errs)
			}
		case "allOf", "anyOf", "oneOf":
			list, ok := v.([]any)
			if !ok {
				*errs = append(*errs, field.Invalid(kp, jsonType(v), "must be a list of schemas"))
				continue
			}
			for i, e := range list {
				walkSchema(e, kp.Index(i), depth, errs)
			}
		case "x-kubernetes-validations":
			walkRules(v, kp, errs)
		default:
			if !scalarKeywords[k] {
				*errs = append(*errs, field.Forbidden(kp, "unknown field"))
			}
		}
	}
}

func walkSchema(v any, p *field.Path, depth int, errs *field.ErrorList) {
	if v == nil {
		return // null is an absent schema
	}
	obj, ok := v.(map[string]any)
	if !ok {
		*errs = append(*errs, field.Invalid(p, jsonType(v), "must be a schema object"))
		return
	}
	walkKeywords(obj, p, depth+1, errs)
}

func walkRules(v any, p *field.Path, errs *field.ErrorList) {
	list, ok := v.([]any)
	if !ok {
		*errs = append(*errs, field.Invalid(p, jsonType(v), "must be a list of rules"))
		return
	}
	for i, e := range list {
		rule, ok := e.(map[string]any)
		if !ok {
			*errs = append(*errs, field.Invalid(p.Index(i), jsonType(e), "must be a rule object"))
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(rule)) {
			if !ruleKeywords[k] {
				*errs = append(*errs, field.Forbidden(p.Index(i).Child(k), "unknown field"))
			}
		}
	}
}

// fillValues replaces the default, enum and example values json.Unmarshal
// decoded (every number a float64) by the raw document's, with integers as
// int64, so a large integer default keeps its precision.
func fillValues(s *Schema, raw map[string]any) {
	if v, ok := raw["default"]; ok {
		s.Default = jsontree.Numbers(v)
	}
	if v, ok := raw["example"]; ok {
		s.Example = jsontree.Numbers(v)
	}
	if v, ok := raw["enum"].([]any); ok {
		s.Enum = jsontree.Numbers(v).([]any)
	}
	if props, ok := raw["properties"].(map[string]any); ok {
		for name, sub := range s.Properties {
			if r, ok := props[name].(map[string]any); ok && sub != nil {
				fillValues(sub, r)
			}
		}
	}
	fillChild(s.Items, raw["items"])
	fillChild(s.Not, raw["not"])
	if s.AdditionalProperties != nil {
		fillChild(s.AdditionalProperties.Schema, raw["additionalProperties"])
	}
	for _, j := range []struct {
		list []Schema
		key  string
	}{{s.AllOf, "allOf"}, {s.AnyOf, "anyOf"}, {s.OneOf, "oneOf"}} {
		rl, _ := raw[j.key].([]any)
		for i := range j.list {
			if i < len(rl) {
				fillChild(&j.list[i], rl[i])
			}
		}
	}
}

func fillChild(s *Schema, raw any) {
	if r, ok := raw.(map[string]any); ok && s != nil {
		fillValues(s, r)
	}
}
