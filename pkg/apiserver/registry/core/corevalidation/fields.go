package corevalidation

import (
	"fmt"
	"reflect"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// ImmutableFieldMsg is the detail of a change to a field that may not change.
const ImmutableFieldMsg = "field is immutable"

// Immutable reports a change of a field that may not change.
func Immutable(p *field.Path, v, old any) field.ErrorList {
	if !reflect.DeepEqual(v, old) {
		return field.ErrorList{field.Invalid(p, v, ImmutableFieldMsg)}
	}
	return nil
}

// Name checks v with a name function such as validation.IsDNS1123Label.
func Name(p *field.Path, v string, fn validation.NameFunc) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range fn(v) {
		errs = append(errs, field.Invalid(p, v, msg))
	}
	return errs
}

// QualifiedName checks a qualified name such as a label key ("example.com/name").
func QualifiedName(p *field.Path, v string) field.ErrorList {
	return Name(p, v, validation.IsQualifiedName)
}

// LabelValue checks a label value.
func LabelValue(p *field.Path, v string) field.ErrorList {
	return Name(p, v, validation.IsLabelValue)
}

// MaxLength reports a string longer than n characters.
func MaxLength(p *field.Path, v string, n int) field.ErrorList {
	if len(v) > n {
		return field.ErrorList{field.TooLong(p, n)}
	}
	return nil
}

// NonNegative reports a negative number.
func NonNegative(p *field.Path, v int64) field.ErrorList {
	if v < 0 {
		return field.ErrorList{field.Invalid(p, v, "must be greater than or equal to 0")}
	}
	return nil
}

// Find returns the first error of type t at the given field path, or nil;
// tests use it to assert on validation results.
func Find(errs field.ErrorList, t field.Type, path string) *field.Error {
	for _, e := range errs {
		if e.Type == t && e.Field == path {
			return e
		}
	}
	return nil
}

// Expect describes how errs fails to match an expectation: no errors at all
// when t is empty, otherwise an error of type t at path. It returns "" on a
// match; tests use it for table-driven validation cases.
func Expect(errs field.ErrorList, t field.Type, path string) string {
	if t == "" {
		if len(errs) > 0 {
			return fmt.Sprintf("want no errors, got %v", errs)
		}
		return ""
	}
	if Find(errs, t, path) == nil {
		return fmt.Sprintf("want %s error at %s, got %v", t, path, errs)
	}
	return ""
}
