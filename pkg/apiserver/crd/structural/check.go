package structural

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// level is where a node sits: the root, a list's items, or an object's
// field (properties and additionalProperties).
type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// Check reports why s is not an acceptable CRD schema: upstream's
// structural-schema rules (every node typed unless
// x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields says
// otherwise, only value validations inside allOf/anyOf/oneOf/not, and
// everything those name also specified outside them, metadata at the root
// limited to name and generateName, embedded resources and int-or-string
// well formed) and the CRD API's schema rules (types, mutually exclusive
// properties and additionalProperties, list and map types, valid patterns,
// defaults that validate and carry no unknown fields). fld is the path of
// the schema itself, e.g. spec.versions[0].schema.openAPIV3Schema; errors
// are sorted as upstream sorts them.
//
// Beyond upstream, a required name must be a property unless the node
// preserves unknown fields or allows additional properties: such an
// object could never be both valid and pruned.
func (s *Schema) Check(fld *field.Path) field.ErrorList {
	if s == nil {
		return field.ErrorList{field.Required(fld, "a schema is required")}
	}
	c := checker{root: s}
	c.node(s, rootLevel, fld)
	if len(c.errs) == 0 {
		// Like upstream, defaults are checked only against a sound schema.
		c.defaults(s, fld, true, false)
	}
	sort.SliceStable(c.errs, func(i, j int) bool { return c.errs[i].Error() < c.errs[j].Error() })
	return c.errs
}

// checker collects the errors of one Check call.
type checker struct {
	root *Schema
	errs field.ErrorList
}

func (c *checker) add(err *field.Error) { c.errs = append(c.errs, err) }

// node checks the structural node s at p, and everything below it.
func (c *checker) node(s *Schema, lvl level, p *field.Path) {
	if s == nil {
		return
	}
	if s.Type == "array" && s.Items == nil {
		c.add(field.Required(p.Child("items"), "must be specified"))
	}
	c.node(s.Items, itemLevel, p.Child("items"))
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		c.node(s.Properties[k], fieldLevel, p.Child("properties").Key(k))
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			c.add(field.Forbidden(p.Child("additionalProperties"), "must not be used at the root"))
		}
		c.node(s.AdditionalProperties.Schema, fieldLevel, p.Child("additionalProperties"))
	}
	c.keywords(s, p)
	c.extensions(s, p)
	c.types(s, lvl, p)
	c.metadata(s, lvl, p)
	c.listType(s, p)
	c.required(s, s, p)
	c.junctors(s, lvl, p)
}

// keywords checks the CRD API's rules on the keywords of any node,
// structural or nested.
func (c *checker) keywords(s *Schema, p *field.Path) {
	switch s.Type {
	case "", "array", "boolean", "integer", "number", "object", "string":
	case "null":
		c.add(field.Forbidden(p.Child("type"), "type cannot be set to null"))
	default:
		c.add(field.NotSupported(p.Child("type"), s.Type, []string{"array", "boolean", "integer", "number", "object", "string"}))
	}
	if s.UniqueItems {
		c.add(field.Forbidden(p.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := s.AdditionalProperties; ap != nil && len(s.Properties) > 0 && (!ap.Allows || ap.Schema != nil) {
		c.add(field.Forbidden(p.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
	}
	if s.PreserveUnknownFields != nil && !*s.PreserveUnknownFields {
		c.add(field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	if s.Pattern != "" {
		if _, err := compilePattern(s.Pattern); err != nil {
			c.add(field.Invalid(p.Child("pattern"), s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	for _, b := range []struct {
		name string
		v    *int64
	}{{"maxLength", s.MaxLength}, {"minLength", s.MinLength}, {"maxItems", s.MaxItems}, {"minItems", s.MinItems}, {"maxProperties", s.MaxProperties}, {"minProperties", s.MinProperties}} {
		if b.v != nil && *b.v < 0 {
			c.add(field.Invalid(p.Child(b.name), *b.v, "must be greater than or equal to 0"))
		}
	}
	if s.MultipleOf != nil && *s.MultipleOf <= 0 {
		c.add(field.Invalid(p.Child("multipleOf"), *s.MultipleOf, "must be greater than 0"))
	}
}

// extensions checks the combinations of the x-kubernetes extensions.
func (c *checker) extensions(s *Schema, p *field.Path) {
	preserve := s.PreserveUnknownFields != nil && *s.PreserveUnknownFields
	if s.IntOrString && preserve {
		c.add(field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.IntOrString && s.EmbeddedResource {
		c.add(field.Invalid(p.Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.EmbeddedResource && s.AdditionalProperties != nil {
		c.add(field.Forbidden(p.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if s.EmbeddedResource && !preserve && len(s.Properties) == 0 {
		c.add(field.Required(p.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
}

// types checks that the node has the type its level and extensions need.
func (c *checker) types(s *Schema, lvl level, p *field.Path) {
	preserve := s.PreserveUnknownFields != nil && *s.PreserveUnknownFields
	switch {
	case s.EmbeddedResource && s.Type == "":
		c.add(field.Required(p.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
	case s.EmbeddedResource && s.Type != "object":
		c.add(field.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
	case s.Type == "" && !s.IntOrString && !preserve:
		c.add(field.Required(p.Child("type"), [...]string{
			rootLevel:  "must not be empty at the root",
			itemLevel:  "must not be empty for specified array items",
			fieldLevel: "must not be empty for specified object fields",
		}[lvl]))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		c.add(field.Invalid(p.Child("type"), s.Type, "must be object at the root"))
	}
}

// metadata checks apiVersion, kind and metadata where the node is a
// resource (the root or an embedded resource), and limits the root's
// metadata schema to name and generateName.
func (c *checker) metadata(s *Schema, lvl level, p *field.Path) {
	resource := lvl == rootLevel || s.EmbeddedResource
	props := p.Child("properties")
	for _, k := range []string{"apiVersion", "kind"} {
		if sub, ok := s.Properties[k]; ok && sub != nil && resource && sub.Type != "string" {
			c.add(field.Invalid(props.Key(k).Child("type"), sub.Type, "must be string"))
		}
	}
	m, ok := s.Properties["metadata"]
	if !ok || m == nil {
		return
	}
	mp := props.Key("metadata")
	if resource && m.Type != "object" {
		c.add(field.Invalid(mp.Child("type"), m.Type, "must be object"))
	}
	if lvl != rootLevel {
		return
	}
	rest := *m
	rest.Type, rest.Default = "", nil
	_, name := m.Properties["name"]
	_, generateName := m.Properties["generateName"]
	if n := len(m.Properties); (name && generateName && n == 2) || ((name || generateName) && n == 1) {
		rest.Properties = nil
	}
	if !reflect.DeepEqual(rest, Schema{}) {
		c.add(field.Forbidden(mp, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
	}
	if m.Default != nil {
		c.add(field.Forbidden(mp.Child("default"), "must not be set for metadata at the root"))
	}
}

// required checks that the names s (or a junctor schema inside it,
// nested) requires are properties of s, unless s keeps unknown fields.
func (c *checker) required(s, nested *Schema, p *field.Path) {
	if len(nested.Required) == 0 {
		return
	}
	preserve := s.PreserveUnknownFields != nil && *s.PreserveUnknownFields
	if preserve || (s.AdditionalProperties != nil && s.AdditionalProperties.Allows) {
		return
	}
	for i, k := range nested.Required {
		if _, ok := s.Properties[k]; ok || ((s == c.root || s.EmbeddedResource) && metaFields[k]) {
			continue
		}
		c.add(field.Invalid(p.Child("required").Index(i), k, "must be the name of a property, or the schema must preserve unknown fields"))
	}
}
