package structural

import (
	"slices"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// listType checks x-kubernetes-list-type, x-kubernetes-list-map-keys and
// x-kubernetes-map-type as the CRD API does.
func (c *checker) listType(s *Schema, p *field.Path) {
	if s.MapType != nil {
		if s.Type != "object" {
			c.needType(s, p, "object", "must be object if x-kubernetes-map-type is specified")
		}
		if *s.MapType != "atomic" && *s.MapType != "granular" {
			c.add(field.NotSupported(p.Child("x-kubernetes-map-type"), *s.MapType, []string{"atomic", "granular"}))
		}
	}
	if s.ListType == nil {
		if len(s.ListMapKeys) > 0 {
			c.add(field.Forbidden(p.Child("x-kubernetes-list-map-keys"), "must not be specified if x-kubernetes-list-type is not map"))
		}
		return
	}
	lt := *s.ListType
	switch lt {
	case "atomic", "set", "map":
	default:
		c.add(field.NotSupported(p.Child("x-kubernetes-list-type"), lt, []string{"atomic", "set", "map"}))
	}
	if s.Type != "array" {
		c.needType(s, p, "array", "must be array if x-kubernetes-list-type is specified")
	}
	if lt != "map" && len(s.ListMapKeys) > 0 {
		c.add(field.Forbidden(p.Child("x-kubernetes-list-map-keys"), "must not be specified if x-kubernetes-list-type is not map"))
	}
	switch lt {
	case "set":
		c.setItems(s, p)
	case "map":
		c.mapItems(s, p)
	}
}

func (c *checker) needType(s *Schema, p *field.Path, want, detail string) {
	if s.Type == "" {
		c.add(field.Required(p.Child("type"), detail))
		return
	}
	c.add(field.Invalid(p.Child("type"), s.Type, detail))
}

// setItems checks that a set's items are atomic (scalars, atomic lists or
// atomic maps), so that items compare as wholes.
func (c *checker) setItems(s *Schema, p *field.Path) {
	is := s.Items
	if is == nil {
		return
	}
	ip := p.Child("items")
	switch is.Type {
	case "array":
		if is.ListType != nil && *is.ListType != "atomic" {
			c.add(field.Invalid(ip.Child("x-kubernetes-list-type"), *is.ListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
		}
	case "object":
		if is.MapType == nil || *is.MapType != "atomic" {
			var got any
			if is.MapType != nil {
				got = *is.MapType
			}
			c.add(field.Invalid(ip.Child("x-kubernetes-map-type"), got, "must be atomic as item of a list with x-kubernetes-list-type=set"))
		}
	}
}

// mapItems checks a list-type=map: keys given, items objects, keys scalar
// properties that are required or defaulted and not nullable.
func (c *checker) mapItems(s *Schema, p *field.Path) {
	if len(s.ListMapKeys) == 0 {
		c.add(field.Required(p.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
	}
	is := s.Items
	if is == nil {
		c.add(field.Required(p.Child("items"), "must have a schema if x-kubernetes-list-type is map"))
		return
	}
	ip := p.Child("items")
	if is.Type != "object" {
		c.add(field.Invalid(ip.Child("type"), is.Type, "must be object if parent array's x-kubernetes-list-type is map"))
		return
	}
	seen := map[string]bool{}
	for _, k := range s.ListMapKeys {
		if seen[k] {
			c.add(field.Invalid(p.Child("x-kubernetes-list-map-keys"), s.ListMapKeys, "must not contain duplicate entries"))
		}
		seen[k] = true
		ks, ok := is.Properties[k]
		if !ok || ks == nil {
			c.add(field.Invalid(p.Child("x-kubernetes-list-map-keys"), s.ListMapKeys, "entries must all be names of item properties"))
			continue
		}
		kp := ip.Child("properties").Key(k)
		if ks.Type == "array" || ks.Type == "object" {
			c.add(field.Invalid(kp.Child("type"), ks.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
		}
		if ks.Default == nil && !slices.Contains(is.Required, k) {
			c.add(field.Required(kp.Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
		}
		if ks.Nullable {
			c.add(field.Forbidden(kp.Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
		}
	}
}
