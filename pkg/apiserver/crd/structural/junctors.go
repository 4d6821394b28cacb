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
func (s *Schema) validateJunctors(v *run, name string, obj any) {
	if len(s.AllOf) > 0 {
		failed := false
		for i := range s.AllOf {
			if errs := s.AllOf[i].trial(v, name, obj); len(errs) > 0 {
				v.errs = append(v.errs, errs...)
				failed = true
			}
		}
		if failed {
			v.add(field.TypeInvalid, name, "", fmt.Sprintf("%q must validate all the schemas (allOf)", display(name)))
		}
	}
	if len(s.AnyOf) > 0 {
		valid, best := countValid(v, s.AnyOf, name, obj)
		if valid == 0 {
			v.errs = append(v.errs, best...)
			v.add(field.TypeInvalid, name, "", fmt.Sprintf("%q must validate at least one schema (anyOf)", display(name)))
		}
	}
	if len(s.OneOf) > 0 {
		valid, best := countValid(v, s.OneOf, name, obj)
		switch {
		case valid == 0:
			v.errs = append(v.errs, best...)
			v.add(field.TypeInvalid, name, "", fmt.Sprintf("%q must validate one and only one schema (oneOf). Found none valid", display(name)))
		case valid > 1:
			v.add(field.TypeInvalid, name, "", fmt.Sprintf("%q must validate one and only one schema (oneOf). Found %d valid alternatives", display(name), valid))
		}
	}
	if s.Not != nil && len(s.Not.trial(v, name, obj)) == 0 {
		v.add(field.TypeInvalid, name, "", fmt.Sprintf("%q must not validate the schema (not)", display(name)))
	}
}

// trial validates obj against s on its own and returns the errors.
func (s *Schema) trial(v *run, name string, obj any) field.ErrorList {
	t := run{fld: v.fld}
	s.validate(&t, name, obj)
	return t.errs
}

// countValid counts the schemas obj satisfies and returns the errors of
// the closest failing one (fewest errors), which upstream reports too.
func countValid(v *run, schemas []Schema, name string, obj any) (int, field.ErrorList) {
	valid := 0
	var best field.ErrorList
	for i := range schemas {
		errs := schemas[i].trial(v, name, obj)
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
