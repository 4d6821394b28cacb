package openapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	appsv1 "platform.io/client/api/apps/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
)

// definitions collects the named schemas reachable from the served types.
type definitions struct {
	defs map[string]*schema
	// types remembers which Go type each definition came from, to catch
	// two types that would share a name.
	types map[string]reflect.Type
	// gvks lists the kinds each definition is served as.
	gvks map[string][]meta.GroupVersionKind
}

func newDefinitions() *definitions {
	return &definitions{defs: map[string]*schema{}, types: map[string]reflect.Type{}, gvks: map[string][]meta.GroupVersionKind{}}
}

var (
	intOrStringType = reflect.TypeFor[intstr.IntOrString]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	marshalerType   = reflect.TypeFor[json.Marshaler]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// customTypes are the types with their own JSON form, by the schema of that form.
var customTypes = map[reflect.Type]func() *schema{
	reflect.TypeFor[meta.Time]():      func() *schema { return &schema{Type: "string", Format: "date-time"} },
	reflect.TypeFor[meta.MicroTime](): func() *schema { return &schema{Type: "string", Format: "date-time"} },
	reflect.TypeFor[meta.Duration]():  func() *schema { return &schema{Type: "string"} },
	reflect.TypeFor[meta.FieldsV1]():  func() *schema { return &schema{Type: "object"} },
	reflect.TypeFor[appsv1.RawExtension](): func() *schema {
		return &schema{Type: "object", Ext: map[string]any{extPreserve: true}}
	},
	reflect.TypeFor[resource.Quantity](): func() *schema {
		return &schema{Type: "string", OneOf: []string{"string", "number"}}
	},
	intOrStringType: func() *schema {
		return &schema{Type: "string", Format: "int-or-string", OneOf: []string{"integer", "string"},
			ExtV3: map[string]any{extIntOrString: true}}
	},
}

// use returns a fresh schema for a value of type t at a use site: a
// reference for named structs and custom types, an inline schema otherwise.
func (d *definitions) use(t reflect.Type) (*schema, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, ok := customTypes[t]; ok || (t.Kind() == reflect.Struct && t.Name() != "") {
		name, err := d.define(t)
		if err != nil {
			return nil, err
		}
		return &schema{Ref: name}, nil
	}
	if t == rawMessageType || hasCustomJSON(t) {
		return &schema{Ext: map[string]any{extPreserve: true}}, nil
	}
	switch t.Kind() {
	case reflect.Struct:
		return d.structSchema(t)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return &schema{Type: "string", Format: "byte"}, nil
		}
		items, err := d.use(t.Elem())
		if err != nil {
			return nil, err
		}
		return &schema{Type: "array", Items: items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return &schema{Type: "object"}, nil
		}
		values, err := d.use(t.Elem())
		if err != nil {
			return nil, err
		}
		return &schema{Type: "object", Additional: values}, nil
	case reflect.Interface:
		return &schema{}, nil
	}
	if s := scalar(t.Kind()); s != nil {
		return s, nil
	}
	return nil, fmt.Errorf("openapi: no schema for Go type %s", t)
}

// hasCustomJSON reports whether t encodes itself, so its fields say nothing.
func hasCustomJSON(t reflect.Type) bool {
	return t.Implements(marshalerType) || reflect.PointerTo(t).Implements(unmarshalerType)
}

// scalar is the schema of a basic kind, or nil.
func scalar(k reflect.Kind) *schema {
	switch k {
	case reflect.String:
		return &schema{Type: "string"}
	case reflect.Bool:
		return &schema{Type: "boolean"}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		return &schema{Type: "integer", Format: "int32"}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return &schema{Type: "integer", Format: "int64"}
	case reflect.Float32:
		return &schema{Type: "number", Format: "float"}
	case reflect.Float64:
		return &schema{Type: "number", Format: "double"}
	}
	return nil
}

// define adds the definition of the named type t, once, and returns its name.
func (d *definitions) define(t reflect.Type) (string, error) {
	name := defName(t)
	if prev, ok := d.types[name]; ok {
		if prev != t {
			return "", fmt.Errorf("openapi: %s and %s would share the definition %s", prev, t, name)
		}
		return name, nil
	}
	d.types[name] = t
	var s *schema
	var err error
	switch {
	case customTypes[t] != nil:
		s = customTypes[t]()
	case hasCustomJSON(t):
		s = &schema{Ext: map[string]any{extPreserve: true}}
	default:
		s, err = d.structSchema(t)
	}
	if err != nil {
		return "", err
	}
	s.Description = docs[docKey(t)]
	d.defs[name] = s
	return name, nil
}

// structSchema is the object schema of a struct's JSON fields.
func (d *definitions) structSchema(t reflect.Type) (*schema, error) {
	s := &schema{Type: "object", Properties: map[string]*schema{}}
	if err := d.addFields(s, t); err != nil {
		return nil, err
	}
	return s, nil
}

// addFields adds t's fields to s as encoding/json sees them: fields of
// embedded structs without a JSON name are flattened, and a field declared
// directly wins over a flattened one of the same name.
func (d *definitions) addFields(s *schema, t reflect.Type) error {
	var inline []reflect.Type
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, ok := jsonName(f)
		if !ok {
			continue
		}
		if name == "" {
			inline = append(inline, derefType(f.Type))
			continue
		}
		p, err := d.property(t, f, opts)
		if err != nil {
			return err
		}
		s.Properties[name] = p
		if isRequired(f, opts) {
			s.Required = append(s.Required, name)
		}
	}
	for _, it := range inline {
		sub := &schema{Properties: map[string]*schema{}}
		if err := d.addFields(sub, it); err != nil {
			return err
		}
		for name, p := range sub.Properties {
			if _, taken := s.Properties[name]; !taken {
				s.Properties[name] = p
			}
		}
		s.Required = append(s.Required, sub.Required...)
	}
	return nil
}

// jsonName returns a field's JSON name ("" for a flattened embedded struct)
// and tag options; ok is false for fields JSON skips.
func jsonName(f reflect.StructField) (name, opts string, ok bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", "", false
	}
	name, opts, _ = strings.Cut(tag, ",")
	embeddedStruct := f.Anonymous && derefType(f.Type).Kind() == reflect.Struct
	if !f.IsExported() && !embeddedStruct {
		return "", "", false
	}
	if name == "" && !embeddedStruct {
		name = f.Name
	}
	return name, opts, true
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// property is the schema of field f of struct owner, with its doc and patch tags.
func (d *definitions) property(owner reflect.Type, f reflect.StructField, opts string) (*schema, error) {
	p, err := d.use(f.Type)
	if err != nil {
		return nil, err
	}
	if hasOpt(opts, "string") && p.Ref == "" && p.Type != "" && p.Type != "object" && p.Type != "array" {
		p.Type, p.Format = "string", ""
	}
	p.Description = docs[docKey(owner)+"."+f.Name]
	if p.Description == "" && p.Ref != "" {
		p.Description = firstParagraph(docs[docKey(derefType(f.Type))])
	}
	if v := f.Tag.Get("patchStrategy"); v != "" {
		p.setExt(extPatchStrategy, v)
	}
	if v := f.Tag.Get("patchMergeKey"); v != "" {
		p.setExt(extPatchMergeKey, v)
	}
	// Server-side apply's merge semantics, where the patch strategy does
	// not already say them: listType (atomic, set, map) with listMapKeys
	// (comma separated), and mapType (atomic, granular).
	if v := f.Tag.Get("listType"); v != "" {
		p.setExt(extListType, v)
	}
	if v := f.Tag.Get("listMapKeys"); v != "" {
		p.setExt(extListMapKeys, strings.Split(v, ","))
	}
	if v := f.Tag.Get("mapType"); v != "" {
		p.setExt(extMapType, v)
	}
	return p, nil
}

// isRequired keeps "required" minimal: only non-pointer scalars (and
// IntOrString) whose JSON tag always writes them.
func isRequired(f reflect.StructField, opts string) bool {
	if hasOpt(opts, "omitempty") || hasOpt(opts, "omitzero") || f.Anonymous {
		return false
	}
	if f.Type == intOrStringType {
		return true
	}
	return scalar(f.Type.Kind()) != nil && !hasCustomJSON(f.Type)
}

func hasOpt(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

func firstParagraph(s string) string {
	p, _, _ := strings.Cut(s, "\n\n")
	return p
}
