package openapi

import "sort"

// Extension names the Kubernetes tooling reads.
const (
	extGVK           = "x-kubernetes-group-version-kind"
	extAction        = "x-kubernetes-action"
	extPatchStrategy = "x-kubernetes-patch-strategy"
	extPatchMergeKey = "x-kubernetes-patch-merge-key"
	extIntOrString   = "x-kubernetes-int-or-string"
	extPreserve      = "x-kubernetes-preserve-unknown-fields"
)

// Reference prefixes of the two document formats.
const (
	refV2 = "#/definitions/"
	refV3 = "#/components/schemas/"
)

// schema is a format-neutral JSON schema; v2 and v3 render it.
type schema struct {
	// Ref names a definition; a schema with Ref has no type of its own.
	Ref         string
	Type        string
	Format      string
	Description string
	Properties  map[string]*schema
	Required    []string
	Items       *schema
	Additional  *schema
	// OneOf lists alternative primitive types; only v3 can say so, v2
	// renders Type and Format instead.
	OneOf []string
	// Keywords holds other JSON schema keywords both formats share
	// (default, enum, maximum, pattern, ...), as custom resources'
	// schemas carry them.
	Keywords map[string]any
	// Ext holds extensions of both formats, ExtV3 those of v3 only (and
	// keywords v2 lacks: nullable, anyOf, ...).
	Ext   map[string]any
	ExtV3 map[string]any
}

func (s *schema) setExt(name string, v any) {
	if s.Ext == nil {
		s.Ext = map[string]any{}
	}
	s.Ext[name] = v
}

// refs calls fn with every definition s refers to, directly or nested.
func (s *schema) refs(fn func(string)) {
	if s == nil {
		return
	}
	if s.Ref != "" {
		fn(s.Ref)
	}
	for _, p := range s.Properties {
		p.refs(fn)
	}
	s.Items.refs(fn)
	s.Additional.refs(fn)
}

// v2 renders s as a swagger 2.0 schema object.
func (s *schema) v2() map[string]any {
	m := map[string]any{}
	if s.Ref != "" {
		m["$ref"] = refV2 + s.Ref
	}
	put(m, "type", s.Type)
	put(m, "format", s.Format)
	s.common(m, (*schema).v2)
	return m
}

// v3 renders s as an OpenAPI 3.0 schema object. A reference with siblings
// is wrapped in allOf, since 3.0 ignores the siblings of $ref.
func (s *schema) v3() map[string]any {
	m := map[string]any{}
	if s.Ref != "" {
		ref := map[string]any{"$ref": refV3 + s.Ref}
		if s.Description == "" && len(s.Keywords) == 0 && len(s.Ext) == 0 && len(s.ExtV3) == 0 {
			return ref
		}
		m["allOf"] = []any{ref}
	}
	if len(s.OneOf) > 0 {
		var alts []any
		for _, t := range s.OneOf {
			alts = append(alts, map[string]any{"type": t})
		}
		m["oneOf"] = alts
	} else {
		put(m, "type", s.Type)
	}
	put(m, "format", s.Format)
	s.common(m, (*schema).v3)
	for k, v := range s.ExtV3 {
		m[k] = v
	}
	return m
}

// common renders what both formats share, nesting with render.
func (s *schema) common(m map[string]any, render func(*schema) map[string]any) {
	put(m, "description", s.Description)
	if s.Properties != nil {
		props := map[string]any{}
		for name, p := range s.Properties {
			props[name] = render(p)
		}
		m["properties"] = props
	}
	if len(s.Required) > 0 {
		req := append([]string(nil), s.Required...)
		sort.Strings(req)
		m["required"] = req
	}
	if s.Items != nil {
		m["items"] = render(s.Items)
	}
	if s.Additional != nil {
		m["additionalProperties"] = render(s.Additional)
	}
	for k, v := range s.Keywords {
		m[k] = v
	}
	for k, v := range s.Ext {
		m[k] = v
	}
}

func put(m map[string]any, key, value string) {
	if value != "" {
		m[key] = value
	}
}
