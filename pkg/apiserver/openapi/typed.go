package openapi

import (
	"fmt"
	"reflect"
	"sort"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// Extensions that say how server-side apply merges a list or a map.
const (
	extListType    = "x-kubernetes-list-type"
	extListMapKeys = "x-kubernetes-list-map-keys"
	extMapType     = "x-kubernetes-map-type"
)

// Names of the two open types every typed schema carries, as upstream's
// converter names them: deduced (maps merge key by key, lists and scalars
// are replaced whole) and untyped (replaced whole).
const (
	DeducedType = "__untyped_deduced_"
	UntypedType = "__untyped_atomic_"
)

// TypedSchema is the structured-merge-diff form of the served kinds'
// schema: the same definitions the OpenAPI documents carry, with list and
// map merge semantics from their x-kubernetes extensions (patch strategy
// and merge key where no list type is given, as upstream's converter does).
type TypedSchema struct {
	schema *smdschema.Schema
	kinds  map[meta.GroupVersionKind]string
}

// BuildTypedSchema converts the definitions of rows' kinds, once, at start.
func BuildTypedSchema(rows []*registry.Resource) (*TypedSchema, error) {
	d := newDefinitions()
	ts := &TypedSchema{schema: &smdschema.Schema{}, kinds: map[meta.GroupVersionKind]string{}}
	for _, r := range rows {
		if r.Virtual != nil {
			continue
		}
		kind, _, err := d.defineKind(r)
		if err != nil {
			return nil, err
		}
		ts.kinds[r.GroupVersionKind()] = kind
		if r.Scale != nil {
			// The body of scale subresources, for apply on them.
			scale, err := d.defineScale()
			if err != nil {
				return nil, err
			}
			ts.kinds[scaleGVK()] = scale
		}
	}
	names := make([]string, 0, len(d.defs))
	for name := range d.defs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		atom, err := typedAtom(d.defs[name])
		if err != nil {
			return nil, fmt.Errorf("openapi: typed schema of %s: %w", name, err)
		}
		ts.schema.Types = append(ts.schema.Types, smdschema.TypeDef{Name: name, Atom: atom})
	}
	ts.schema.Types = append(ts.schema.Types, openTypes()...)
	return ts, nil
}

// ObjectMetaTypes returns the typed definitions of ObjectMeta, of every
// definition it refers to and of the two open types (DeducedType,
// UntypedType), with the name of ObjectMeta's: what the typed schema of a
// custom kind, built from its own schema, shares with the built-in kinds.
func ObjectMetaTypes() (string, []smdschema.TypeDef, error) {
	d := newDefinitions()
	name, err := d.define(reflect.TypeFor[meta.ObjectMeta]())
	if err != nil {
		return "", nil, err
	}
	var types []smdschema.TypeDef
	for _, def := range sortedDefs(d.closure([]string{name})) {
		atom, err := typedAtom(d.defs[def])
		if err != nil {
			return "", nil, fmt.Errorf("openapi: typed schema of %s: %w", def, err)
		}
		types = append(types, smdschema.TypeDef{Name: def, Atom: atom})
	}
	return name, append(types, openTypes()...), nil
}

// Type returns the parseable type of gvk; ok is false for a kind with no
// schema (a virtual resource), which callers handle as deduced.
func (t *TypedSchema) Type(gvk meta.GroupVersionKind) (typed.ParseableType, bool) {
	name, ok := t.kinds[gvk]
	if !ok {
		return typed.DeducedParseableType, false
	}
	return typed.ParseableType{Schema: t.schema, TypeRef: smdschema.TypeRef{NamedType: &name}}, true
}

// ScaleType returns the parseable type of autoscaling/v1 Scale, the body
// of scale subresources; ok is false when no row has one.
func (t *TypedSchema) ScaleType() (typed.ParseableType, bool) {
	return t.Type(scaleGVK())
}

func scaleGVK() meta.GroupVersionKind {
	return meta.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
}

// openTypes are the deduced and untyped definitions.
func openTypes() []smdschema.TypeDef {
	untyped, deduced := UntypedType, DeducedType
	return []smdschema.TypeDef{
		{Name: UntypedType, Atom: smdschema.Atom{
			Scalar: ptr(smdschema.Untyped),
			List:   &smdschema.List{ElementType: smdschema.TypeRef{NamedType: &untyped}, ElementRelationship: smdschema.Atomic},
			Map:    &smdschema.Map{ElementType: smdschema.TypeRef{NamedType: &untyped}, ElementRelationship: smdschema.Atomic},
		}},
		{Name: DeducedType, Atom: smdschema.Atom{
			Scalar: ptr(smdschema.Untyped),
			List:   &smdschema.List{ElementType: smdschema.TypeRef{NamedType: &untyped}, ElementRelationship: smdschema.Atomic},
			Map:    &smdschema.Map{ElementType: smdschema.TypeRef{NamedType: &deduced}, ElementRelationship: smdschema.Separable},
		}},
	}
}

func ptr[T any](v T) *T { return &v }

// typedRef is the reference to s at a use site.
func typedRef(s *schema) (smdschema.TypeRef, error) {
	if s.Ref != "" {
		name := s.Ref
		return smdschema.TypeRef{NamedType: &name}, nil
	}
	if isOpen(s) {
		name := DeducedType
		return smdschema.TypeRef{NamedType: &name}, nil
	}
	atom, err := typedAtom(s)
	if err != nil {
		return smdschema.TypeRef{}, err
	}
	return smdschema.TypeRef{Inlined: atom}, nil
}

// isOpen reports whether s says nothing of its content: an object kept
// as sent, an interface, or an object with neither fields nor values.
func isOpen(s *schema) bool {
	if s.Ext[extPreserve] == true {
		return true
	}
	switch s.Type {
	case "":
		return len(s.OneOf) == 0
	case "object":
		return s.Properties == nil && s.Additional == nil
	}
	return false
}

// typedAtom converts one inline schema.
func typedAtom(s *schema) (smdschema.Atom, error) {
	if isOpen(s) {
		// A named definition with open content: the deduced type's atom.
		return openTypes()[1].Atom, nil
	}
	if len(s.OneOf) > 0 {
		return smdschema.Atom{Scalar: ptr(smdschema.Untyped)}, nil
	}
	switch s.Type {
	case "object":
		return typedMap(s)
	case "array":
		return typedList(s)
	case "string":
		return smdschema.Atom{Scalar: ptr(smdschema.String)}, nil
	case "integer", "number":
		return smdschema.Atom{Scalar: ptr(smdschema.Numeric)}, nil
	case "boolean":
		return smdschema.Atom{Scalar: ptr(smdschema.Boolean)}, nil
	}
	return smdschema.Atom{}, fmt.Errorf("no typed form for schema type %q", s.Type)
}

func typedMap(s *schema) (smdschema.Atom, error) {
	m := &smdschema.Map{}
	if s.Ext[extMapType] == "atomic" {
		m.ElementRelationship = smdschema.Atomic
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ref, err := typedRef(s.Properties[name])
		if err != nil {
			return smdschema.Atom{}, fmt.Errorf("%s: %w", name, err)
		}
		m.Fields = append(m.Fields, smdschema.StructField{Name: name, Type: ref})
	}
	if s.Additional != nil {
		ref, err := typedRef(s.Additional)
		if err != nil {
			return smdschema.Atom{}, err
		}
		m.ElementType = ref
	}
	return smdschema.Atom{Map: m}, nil
}

func typedList(s *schema) (smdschema.Atom, error) {
	if s.Items == nil {
		return smdschema.Atom{}, fmt.Errorf("array without items")
	}
	elem, err := typedRef(s.Items)
	if err != nil {
		return smdschema.Atom{}, err
	}
	rel, keys := listRelationship(s.Ext)
	return smdschema.Atom{List: &smdschema.List{ElementType: elem, ElementRelationship: rel, Keys: keys}}, nil
}

// listRelationship reads a list's merge semantics: x-kubernetes-list-type
// when given, else a merge patch strategy (keyed by its merge key, or a
// set of scalars without one), else atomic.
func listRelationship(ext map[string]any) (smdschema.ElementRelationship, []string) {
	switch ext[extListType] {
	case "atomic":
		return smdschema.Atomic, nil
	case "set":
		return smdschema.Associative, nil
	case "map":
		keys, _ := ext[extListMapKeys].([]string)
		return smdschema.Associative, keys
	}
	switch ext[extPatchStrategy] {
	case "merge", "merge,retainKeys":
		if key, ok := ext[extPatchMergeKey].(string); ok && key != "" {
			return smdschema.Associative, []string{key}
		}
		return smdschema.Associative, nil
	}
	return smdschema.Atomic, nil
}
