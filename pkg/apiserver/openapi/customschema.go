package openapi

import (
	"encoding/json"
	"slices"

	"platform.io/platform/pkg/apiserver/crd/structural"
)

// Extensions only custom resources' schemas carry.
const (
	extEmbedded    = "x-kubernetes-embedded-resource"
	extValidations = "x-kubernetes-validations"
)

// customSchema converts the structural schema of a version of a custom
// resource into the definition of its kind, as upstream publishes it:
// the schema's keywords and extensions, with metadata a reference to
// ObjectMeta and apiVersion and kind described as every kind's are.
//
// For swagger 2.0 (v2) it drops what kubectl's v2 model cannot read:
// anyOf, allOf, oneOf, not and nullable (a nullable field loses its type,
// properties and items, and is no longer required), the properties and
// items of a node that preserves unknown fields, and the type of an array
// left without items. A root that preserves unknown fields is an open
// object with no properties at all there, since kubectl's v2 validation
// refuses every field a schema does not list.
func customSchema(s *structural.Schema, v2 bool) *schema {
	if v2 && isTrue(s.PreserveUnknownFields) {
		return &schema{Type: "object"}
	}
	out := convertNode(s, v2)
	addTypeMeta(out)
	return out
}

// addTypeMeta gives an object schema the properties every kind has.
func addTypeMeta(out *schema) {
	if out.Properties == nil {
		out.Properties = map[string]*schema{}
	}
	out.Properties["apiVersion"] = &schema{Type: "string", Description: commonFieldDocs["apiVersion"]}
	out.Properties["kind"] = &schema{Type: "string", Description: commonFieldDocs["kind"]}
	out.Properties["metadata"] = &schema{Ref: metaDef("ObjectMeta"), Description: commonFieldDocs["metadata"]}
}

// convertNode converts one node and, recursively, the nodes below it.
func convertNode(s *structural.Schema, v2 bool) *schema {
	out := &schema{Type: s.Type, Format: s.Format, Description: s.Description, Keywords: keywords(s)}
	preserve := isTrue(s.PreserveUnknownFields)
	if v2 && s.Nullable {
		out.Type = ""
	}
	if !v2 || !(s.Nullable || preserve) {
		if s.Properties != nil {
			out.Properties = make(map[string]*schema, len(s.Properties))
			for name, p := range s.Properties {
				out.Properties[name] = convertNode(p, v2)
			}
		}
		if s.Items != nil {
			out.Items = convertNode(s.Items, v2)
		}
	}
	if v2 && out.Type == "array" && out.Items == nil {
		out.Type = ""
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Schema != nil {
			out.Additional = convertNode(ap.Schema, v2)
		} else {
			out.Keywords["additionalProperties"] = ap.Allows
		}
	}
	out.Required = required(s, v2)
	out.Ext = extensions(s)
	if !v2 {
		out.ExtV3 = v3Only(s)
	}
	if s.EmbeddedResource && !(v2 && preserve) {
		addTypeMeta(out)
		for _, name := range []string{"apiVersion", "kind"} {
			if !slices.Contains(out.Required, name) {
				out.Required = append(out.Required, name)
			}
		}
	}
	return out
}

// required is the node's required list; in v2 without the nullable
// fields, and empty when the values of a map may be null.
func required(s *structural.Schema, v2 bool) []string {
	if !v2 {
		return slices.Clone(s.Required)
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil && ap.Schema.Nullable {
		return nil
	}
	var out []string
	for _, name := range s.Required {
		if p := s.Properties[name]; p == nil || !p.Nullable {
			out = append(out, name)
		}
	}
	return out
}

// keywords are the node's value validations and documentation keywords
// that both formats have.
func keywords(s *structural.Schema) map[string]any {
	m := map[string]any{}
	str := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	num := func(k string, v *float64) {
		if v != nil {
			m[k] = *v
		}
	}
	count := func(k string, v *int64) {
		if v != nil {
			m[k] = *v
		}
	}
	flag := func(k string, v bool) {
		if v {
			m[k] = true
		}
	}
	str("title", s.Title)
	str("pattern", s.Pattern)
	num("maximum", s.Maximum)
	num("minimum", s.Minimum)
	num("multipleOf", s.MultipleOf)
	flag("exclusiveMaximum", s.ExclusiveMaximum)
	flag("exclusiveMinimum", s.ExclusiveMinimum)
	flag("uniqueItems", s.UniqueItems)
	count("maxLength", s.MaxLength)
	count("minLength", s.MinLength)
	count("maxItems", s.MaxItems)
	count("minItems", s.MinItems)
	count("maxProperties", s.MaxProperties)
	count("minProperties", s.MinProperties)
	if s.Default != nil {
		m["default"] = s.Default
	}
	if len(s.Enum) > 0 {
		m["enum"] = s.Enum
	}
	if s.Example != nil {
		m["example"] = s.Example
	}
	if d := s.ExternalDocs; d != nil {
		m["externalDocs"] = jsonValue(d)
	}
	return m
}

// extensions are the node's x-kubernetes extensions.
func extensions(s *structural.Schema) map[string]any {
	m := map[string]any{}
	if isTrue(s.PreserveUnknownFields) {
		m[extPreserve] = true
	}
	if s.EmbeddedResource {
		m[extEmbedded] = true
	}
	if s.IntOrString {
		m[extIntOrString] = true
	}
	if s.ListType != nil {
		m[extListType] = *s.ListType
	}
	if len(s.ListMapKeys) > 0 {
		m[extListMapKeys] = slices.Clone(s.ListMapKeys)
	}
	if s.MapType != nil {
		m[extMapType] = *s.MapType
	}
	if len(s.Validations) > 0 {
		m[extValidations] = jsonValue(s.Validations)
	}
	return m
}

// v3Only are the keywords swagger 2.0 lacks: nullable and the junctors,
// with an int-or-string node's two types spelled out as anyOf (as
// upstream unfolds x-kubernetes-int-or-string).
func v3Only(s *structural.Schema) map[string]any {
	m := map[string]any{}
	if s.Nullable {
		m["nullable"] = true
	}
	allOf := jsonList(s.AllOf)
	anyOf := jsonList(s.AnyOf)
	if s.IntOrString && !intOrStringAnyOf(s.AnyOf) && (len(s.AllOf) == 0 || !intOrStringAnyOf(s.AllOf[0].AnyOf)) {
		both := []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
		if anyOf == nil {
			anyOf = both
		} else {
			allOf = append([]any{map[string]any{"anyOf": both}}, allOf...)
		}
	}
	if allOf != nil {
		m["allOf"] = allOf
	}
	if anyOf != nil {
		m["anyOf"] = anyOf
	}
	if s.OneOf != nil {
		m["oneOf"] = jsonList(s.OneOf)
	}
	if s.Not != nil {
		m["not"] = jsonValue(s.Not)
	}
	return m
}

// intOrStringAnyOf reports whether alts are exactly integer, then string.
func intOrStringAnyOf(alts []structural.Schema) bool {
	return len(alts) == 2 && alts[0].Type == "integer" && alts[1].Type == "string"
}

func jsonList(l []structural.Schema) []any {
	if l == nil {
		return nil
	}
	v, _ := jsonValue(l).([]any)
	return v
}

// jsonValue is v as a JSON tree (the form the documents are marshalled
// from); v is a schema fragment, which always marshals.
func jsonValue(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
}

func isTrue(b *bool) bool { return b != nil && *b }
