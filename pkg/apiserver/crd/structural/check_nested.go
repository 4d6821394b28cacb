package structural

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// junctors checks the allOf, anyOf, oneOf and not of the structural node
// s: they may hold value validations only. The two int-or-string shapes
// are exempt (anyOf: [{type: integer}, {type: string}], alone or first in
// an allOf). At the root it also checks, as upstream does there only, that
// everything they name is specified outside them.
func (c *checker) junctors(s *Schema, lvl level, p *field.Path) {
	skipAnyOf := isIntOrStringAnyOf(s.AnyOf)
	skipFirstAllOfAnyOf := len(s.AllOf) > 0 && isIntOrStringAnyOf(s.AllOf[0].AnyOf)
	c.valueJunctors(s, s, skipAnyOf, skipFirstAllOfAnyOf, lvl, p)
	if lvl == rootLevel {
		c.complete(s, s, p, p)
	}
}

// The two schemas of the int-or-string anyOf; compared through pointers,
// which reflect.DeepEqual takes without allocating.
var intOnly, stringOnly = &Schema{Type: "integer"}, &Schema{Type: "string"}

func isIntOrStringAnyOf(list []Schema) bool {
	return len(list) == 2 && list[0].Type == "integer" && list[1].Type == "string" &&
		reflect.DeepEqual(&list[0], intOnly) && reflect.DeepEqual(&list[1], stringOnly)
}

// valueJunctors checks the junctor schemas of v (a structural node or a
// nested schema); enclosing is the structural node their required names
// refer to (nil when there is none).
func (c *checker) valueJunctors(v, enclosing *Schema, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, p *field.Path) {
	if !skipAnyOf {
		for i := range v.AnyOf {
			c.nested(&v.AnyOf[i], enclosing, false, lvl, p.Child("anyOf").Index(i))
		}
	}
	for i := range v.AllOf {
		c.nested(&v.AllOf[i], enclosing, skipFirstAllOfAnyOf && i == 0, lvl, p.Child("allOf").Index(i))
	}
	for i := range v.OneOf {
		c.nested(&v.OneOf[i], enclosing, false, lvl, p.Child("oneOf").Index(i))
	}
	if v.Not != nil {
		c.nested(v.Not, enclosing, false, lvl, p.Child("not"))
	}
}

// nested checks a schema under a junctor: value validations only.
func (c *checker) nested(v, enclosing *Schema, skipAnyOf bool, lvl level, p *field.Path) {
	c.keywords(v, p)
	c.valueJunctors(v, enclosing, skipAnyOf, false, lvl, p)
	var encItems *Schema
	if enclosing != nil {
		encItems = enclosing.Items
		c.required(enclosing, v, p)
	}
	if v.Items != nil {
		c.nested(v.Items, encItems, false, lvl, p.Child("items"))
	}
	for _, k := range slices.Sorted(maps.Keys(v.Properties)) {
		var enc *Schema
		if enclosing != nil {
			enc = enclosing.Properties[k]
		}
		if sub := v.Properties[k]; sub != nil {
			c.nested(sub, enc, false, fieldLevel, p.Child("properties").Key(k))
		}
	}
	c.forbiddenInNested(v, p)
}

// forbiddenInNested reports what a nested schema must not specify.
func (c *checker) forbiddenInNested(v *Schema, p *field.Path) {
	forbid := func(set bool, name, detail string) {
		if set {
			c.add(field.Forbidden(p.Child(name), detail))
		}
	}
	const empty, undefined, falseDetail = "must be empty to be structural", "must be undefined to be structural", "must be false to be structural"
	forbid(v.Type != "", "type", empty)
	forbid(v.AdditionalProperties != nil, "additionalProperties", undefined)
	forbid(v.Default != nil, "default", undefined)
	forbid(v.Title != "", "title", empty)
	forbid(v.Description != "", "description", empty)
	forbid(v.Nullable, "nullable", falseDetail)
	forbid(v.ExternalDocs != nil, "externalDocs", undefined)
	forbid(v.PreserveUnknownFields != nil && *v.PreserveUnknownFields, "x-kubernetes-preserve-unknown-fields", falseDetail)
	forbid(v.EmbeddedResource, "x-kubernetes-embedded-resource", falseDetail)
	forbid(v.IntOrString, "x-kubernetes-int-or-string", falseDetail)
	forbid(len(v.ListMapKeys) > 0, "x-kubernetes-list-map-keys", empty)
	forbid(v.ListType != nil, "x-kubernetes-list-type", undefined)
	forbid(v.MapType != nil, "x-kubernetes-map-type", undefined)
	forbid(len(v.Validations) > 0, "x-kubernetes-validations", empty)
	if _, found := v.Properties["metadata"]; found {
		c.add(field.Forbidden(p.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
}

// complete checks that every property and items the junctors of v name
// is specified in the structural node s too.
func (c *checker) complete(v, s *Schema, sPath, vPath *field.Path) {
	if v.Not != nil {
		c.completeNested(v.Not, s, sPath, vPath.Child("not"))
	}
	for _, j := range []struct {
		name string
		list []Schema
	}{{"allOf", v.AllOf}, {"anyOf", v.AnyOf}, {"oneOf", v.OneOf}} {
		for i := range j.list {
			c.completeNested(&j.list[i], s, sPath, vPath.Child(j.name).Index(i))
		}
	}
}

func (c *checker) completeNested(v, s *Schema, sPath, vPath *field.Path) {
	if s == nil {
		c.add(field.Required(sPath, fmt.Sprintf("because it is defined in %s", vPath)))
		return
	}
	c.complete(v, s, sPath, vPath)
	if v.Items != nil {
		c.completeNested(v.Items, s.Items, sPath.Child("items"), vPath.Child("items"))
	}
	for _, k := range slices.Sorted(maps.Keys(v.Properties)) {
		sub := v.Properties[k]
		if sub == nil {
			continue
		}
		c.completeNested(sub, s.Properties[k], sPath.Child("properties").Key(k), vPath.Child("properties").Key(k))
	}
}
