package structural

import (
	"fmt"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// validateJunctors checks allOf, anyOf, oneOf and not. Their schemas hold
// value validations only (Check forbids types and structure in them), and
// apply to the value at the same path. Messages are upstream's; upstream
// reports them at the root path "<nil>", they are placed here at the
// value's own path.
func (s *Schema) validateJunctors(v *run, obj any) {
	if len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.Not == nil {
		return
	}
	if len(s.AllOf) > 0 {
		failed := false
		for i := range s.AllOf {
			if errs := s.AllOf[i].trial(v, obj); len(errs) > 0 {
				v.errs = append(v.errs, errs...)
				failed = true
			}
		}
		if failed {
			v.add(field.TypeInvalid, v.name(), "", fmt.Sprintf("%q must validate all the schemas (allOf)", display(v.name())))
		}
	}
	// An int-or-string value passed its type check, which is what the
	// anyOf of integer and string says.
	if len(s.AnyOf) > 0 && !(s.IntOrString && isIntOrStringAnyOf(s.AnyOf)) {
		valid, best := countValid(v, s.AnyOf, obj)
		if valid == 0 {
			v.errs = append(v.errs, best...)
			v.add(field.TypeInvalid, v.name(), "", fmt.Sprintf("%q must validate at least one schema (anyOf)", display(v.name())))
		}
	}
	if len(s.OneOf) > 0 {
		valid, best := countValid(v, s.OneOf, obj)
		switch {
		case valid == 0:
			v.errs = append(v.errs, best...)
			v.add(field.TypeInvalid, v.name(), "", fmt.Sprintf("%q must validate one and only one schema (oneOf). Found none valid", display(v.name())))
		case valid > 1:
			v.add(field.TypeInvalid, v.name(), "", fmt.Sprintf("%q must validate one and only one schema (oneOf). Found %d valid alternatives", display(v.name()), valid))
		}
	}
	if s.Not != nil && len(s.Not.trial(v, obj)) == 0 {
		v.add(field.TypeInvalid, v.name(), "", fmt.Sprintf("%q must not validate the schema (not)", display(v.name())))
	}
}

// trial validates obj against s on its own and returns the errors.
func (s *Schema) trial(v *run, obj any) field.ErrorList {
	t := run{fld: v.fld, path: v.path}
	s.validate(&t, obj)
	return t.errs
}

// countValid counts the schemas obj satisfies and returns the errors of
// the closest failing one (fewest errors), which upstream reports too.
func countValid(v *run, schemas []Schema, obj any) (int, field.ErrorList) {
	valid := 0
	var best field.ErrorList
	for i := range schemas {
		errs := schemas[i].trial(v, obj)
		if len(errs) == 0 {
			valid++
			continue
		}
		if best == nil || len(errs) < len(best) {
			best = errs
		}
	}
	return valid, best
}
