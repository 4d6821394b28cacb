package applyschema

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"platform.io/platform/pkg/apiserver/crd/structural"
)

// Shared are the named types every custom kind's schema refers to, built
// once by the server from the built-in kinds' definitions.
type Shared struct {
	// ObjectMeta names the type of metadata.
	ObjectMeta string
	// Deduced names the open type whose maps merge key by key and whose
	// lists and scalars are replaced whole: values a schema does not
	// describe (x-kubernetes-preserve-unknown-fields).
	Deduced string
	// Untyped names the open type replaced whole.
	Untyped string
	// Types defines them and every type they refer to.
	Types []smdschema.TypeDef
}

// Build returns the parseable type of the objects of a custom version
// whose structural schema is s, as the named type name. The shared types
// are referred to, not copied: they are immutable once built.
func Build(name string, s *structural.Schema, shared *Shared) (typed.ParseableType, error) {
	c := converter{shared: shared}
	root, err := c.object(s, preserves(s), true)
	if err != nil {
		return typed.ParseableType{}, err
	}
	types := make([]smdschema.TypeDef, 0, len(shared.Types)+1)
	types = append(types, shared.Types...)
	types = append(types, smdschema.TypeDef{Name: name, Atom: smdschema.Atom{Map: root}})
	return typed.ParseableType{Schema: &smdschema.Schema{Types: types}, TypeRef: smdschema.TypeRef{NamedType: &name}}, nil
}

type converter struct {
	shared *Shared
}

func preserves(s *structural.Schema) bool {
	return s != nil && s.PreserveUnknownFields != nil && *s.PreserveUnknownFields
}

// ref is the type of a value of schema s. preserve says an ancestor keeps
// unknown fields, which upstream's converter carries down to every
// object below it.
func (c *converter) ref(s *structural.Schema, preserve bool) (smdschema.TypeRef, error) {
	if s == nil {
		return c.named(c.shared.Deduced, nil), nil
	}
	preserve = preserve || preserves(s)
	var atom smdschema.Atom
	switch {
	case s.IntOrString:
		atom.Scalar = ptr(smdschema.Untyped)
	case s.Type == "object":
		m, err := c.object(s, preserve, s.EmbeddedResource)
		if err != nil {
			return smdschema.TypeRef{}, err
		}
		atom.Map = m
	case s.Type == "array":
		l, err := c.list(s, preserve)
		if err != nil {
			return smdschema.TypeRef{}, err
		}
		atom.List = l
	case s.Type == "string":
		atom.Scalar = ptr(smdschema.String)
	case s.Type == "integer", s.Type == "number":
		atom.Scalar = ptr(smdschema.Numeric)
	case s.Type == "boolean":
		atom.Scalar = ptr(smdschema.Boolean)
	case s.Type == "":
		// Any value (x-kubernetes-preserve-unknown-fields without a
		// type): a scalar, a list or an object.
		if len(s.Properties) == 0 && s.Items == nil && s.AdditionalProperties == nil && !s.EmbeddedResource {
			return c.named(c.shared.Deduced, s), nil
		}
		m, err := c.object(s, preserve, s.EmbeddedResource)
		if err != nil {
			return smdschema.TypeRef{}, err
		}
		l, err := c.list(s, preserve)
		if err != nil {
			return smdschema.TypeRef{}, err
		}
		atom = smdschema.Atom{Scalar: ptr(smdschema.Untyped), List: l, Map: m}
	default:
		return smdschema.TypeRef{}, fmt.Errorf("applyschema: no merge type for schema type %q", s.Type)
	}
	return smdschema.TypeRef{Inlined: atom, Nullable: s.Nullable}, nil
}

func (c *converter) named(name string, s *structural.Schema) smdschema.TypeRef {
	n := name
	return smdschema.TypeRef{NamedType: &n, Nullable: s != nil && s.Nullable}
}

// object is the map type of an object: its properties as fields,
// additionalProperties (or unknown fields it keeps) as the element type.
// A resource (the root, an embedded resource) always has apiVersion,
// kind and metadata, whatever its properties say of them.
func (c *converter) object(s *structural.Schema, preserve, resource bool) (*smdschema.Map, error) {
	m := &smdschema.Map{}
	if s == nil {
		s = &structural.Schema{}
	}
	if s.MapType != nil && *s.MapType == "atomic" {
		m.ElementRelationship = smdschema.Atomic
	}
	props := s.Properties
	if resource {
		props = maps.Clone(props)
		if props == nil {
			props = map[string]*structural.Schema{}
		}
		props["apiVersion"] = &structural.Schema{Type: "string"}
		props["kind"] = &structural.Schema{Type: "string"}
		delete(props, "metadata")
		m.Fields = append(m.Fields, smdschema.StructField{Name: "metadata", Type: c.named(c.shared.ObjectMeta, nil)})
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := props[name]
		ref, err := c.ref(p, preserve)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		m.Fields = append(m.Fields, smdschema.StructField{Name: name, Type: ref, Default: p.Default})
	}
	slices.SortFunc(m.Fields, func(a, b smdschema.StructField) int { return cmp.Compare(a.Name, b.Name) })
	ap := s.AdditionalProperties
	switch {
	case ap != nil && ap.Schema != nil:
		ref, err := c.ref(ap.Schema, preserve)
		if err != nil {
			return nil, fmt.Errorf("additionalProperties: %w", err)
		}
		m.ElementType = ref
	case ap != nil && ap.Allows, ap == nil && (preserve || len(m.Fields) == 0):
		// Keys the schema does not name: kept as sent, merged key by
		// key. An object without properties is open, as upstream reads
		// OpenAPI.
		m.ElementType = c.named(c.shared.Deduced, nil)
	}
	return m, nil
}

// list is the list type of an array: atomic unless its
// x-kubernetes-list-type is set or map.
func (c *converter) list(s *structural.Schema, preserve bool) (*smdschema.List, error) {
	l := &smdschema.List{ElementRelationship: smdschema.Atomic}
	if s.Items == nil {
		l.ElementType = c.named(c.shared.Untyped, nil)
	} else {
		ref, err := c.ref(s.Items, preserve)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		l.ElementType = ref
	}
	if s.ListType != nil {
		switch *s.ListType {
		case "set":
			l.ElementRelationship = smdschema.Associative
		case "map":
			l.ElementRelationship = smdschema.Associative
			l.Keys = slices.Clone(s.ListMapKeys)
		}
	}
	return l, nil
}

func ptr[T any](v T) *T { return &v }
