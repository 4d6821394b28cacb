package structural

import (
	"fmt"
	"sort"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// Validate checks obj against the schema and returns one error per
// failing check, with upstream's error types and messages: the path inside
// obj is written the way upstream's schema validator writes it
// ("spec.containers[0].name", map values as "spec.labels.key"), under fld.
// A value of the wrong type gets only its type error. Errors are sorted by
// field so the result does not depend on map order.
//
// Validate does not prune or default: callers prune, default, then
// validate, as upstream does on every write.
func (s *Schema) Validate(fld *field.Path, obj any) field.ErrorList {
	v := run{fld: fld}
	s.validate(&v, obj)
	sort.SliceStable(v.errs, func(i, j int) bool { return v.errs[i].Field < v.errs[j].Field })
	return v.errs
}

// run collects the errors of one Validate call, and holds the path of the
// value being checked.
type run struct {
	fld  *field.Path
	errs field.ErrorList
	path path
}

// at renders the error path of the value named name (its path inside the
// validated object).
func (v *run) at(name string) string {
	if v.fld == nil {
		return name
	}
	return join(v.fld, name)
}

func (v *run) add(t field.Type, name string, value any, detail string) {
	v.errs = append(v.errs, &field.Error{Type: t, Field: v.at(name), BadValue: value, Detail: detail})
}

// display is how messages name a value: its path, "." at the root.
func display(name string) string {
	if name == "" {
		return "."
	}
	return name
}

func child(name, key string) string {
	if name == "" {
		return key
	}
	return name + "." + key
}

// validate checks the value obj at name against s and everything below.
func (s *Schema) validate(v *run, obj any) {
	if !s.validType(v, obj) {
		return
	}
	if obj == nil {
		return
	}
	s.validateJunctors(v, obj)
	switch x := obj.(type) {
	case string:
		s.validateString(v, x)
	case map[string]any:
		s.validateObject(v, x)
	case []any:
		s.validateArray(v, x)
	default:
		if n, ok := number(obj); ok {
			s.validateNumber(v, obj, n)
		}
	}
	s.validateEnum(v, obj)
}

// validType checks the type (and null) and reports whether the value's
// other checks should run.
func (s *Schema) validType(v *run, obj any) bool {
	want := s.Type
	if s.IntOrString {
		want = "integer,string"
	}
	if obj == nil {
		if want == "" || s.Nullable {
			return true
		}
		name := v.name()
		v.add(field.TypeTypeInvalid, name, "null", typeMessage(name, want, "null"))
		return false
	}
	switch {
	case s.IntOrString:
		if isInteger(obj) || typeMatches("string", obj) {
			return true
		}
	case want == "" || typeMatches(want, obj):
		return true
	}
	got, name := jsonType(obj), v.name()
	v.add(field.TypeTypeInvalid, name, got, typeMessage(name, want, got))
	return false
}

func typeMessage(name, want, got string) string {
	return fmt.Sprintf("%s in body must be of type %s: %q", display(name), want, got)
}

func (s *Schema) validateObject(v *run, obj map[string]any) {
	n := int64(len(obj))
	if s.MinProperties != nil && n < *s.MinProperties {
		name := v.name()
		v.add(field.TypeInvalid, name, n, fmt.Sprintf("%s in body should have at least %d properties", display(name), *s.MinProperties))
		return
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		v.add(field.TypeTooMany, v.name(), n, atMost(*s.MaxProperties))
		return
	}
	ap := s.AdditionalProperties
	for k, val := range obj {
		if sub, ok := s.Properties[k]; ok {
			if sub != nil {
				v.push(pathElem{key: k})
				sub.validate(v, val)
				v.pop()
			}
			continue
		}
		switch {
		case ap == nil:
		case !ap.Allows:
			if !s.EmbeddedResource || !metaFields[k] {
				name := v.name()
				v.add(field.TypeInvalid, name, k, fmt.Sprintf("%s.%s in body is a forbidden property", display(name), k))
			}
		case ap.Schema != nil:
			v.push(pathElem{key: k})
			ap.Schema.validate(v, val)
			v.pop()
		}
	}
	for _, k := range s.Required {
		if _, ok := obj[k]; !ok {
			v.add(field.TypeRequired, child(v.name(), k), nil, "")
		}
	}
	if s.EmbeddedResource {
		validateEmbedded(v, obj)
	}
}

func (s *Schema) validateArray(v *run, list []any) {
	if s.Items != nil {
		for i, e := range list {
			v.push(pathElem{index: i, isItem: true})
			s.Items.validate(v, e)
			v.pop()
		}
	}
	n := int64(len(list))
	if s.MinItems != nil && n < *s.MinItems {
		name := v.name()
		v.add(field.TypeInvalid, name, n, fmt.Sprintf("%s in body should have at least %d items", display(name), *s.MinItems))
	}
	if s.MaxItems != nil && n > *s.MaxItems {
		v.add(field.TypeTooMany, v.name(), n, atMost(*s.MaxItems))
	}
	if s.UniqueItems && len(duplicates(list)) > 0 {
		name := v.name()
		v.add(field.TypeInvalid, name, "", fmt.Sprintf("%s in body shouldn't contain duplicates", display(name)))
	}
	s.validateListType(v, list)
}

// atMost is upstream's Too many detail.
func atMost(limit int64) string {
	if limit == 1 {
		return "must have at most 1 item"
	}
	return fmt.Sprintf("must have at most %d items", limit)
}
