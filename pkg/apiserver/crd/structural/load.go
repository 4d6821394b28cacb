package structural

import (
	"errors"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// Load parses an openAPIV3Schema document and checks it, with every
// problem as a field error under fld, the path of the schema in its CRD
// (spec.versions[0].schema.openAPIV3Schema): what a CRD write reports.
// The schema is returned only when there is no error.
func Load(data []byte, fld *field.Path) (*Schema, field.ErrorList) {
	s, err := Parse(data)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return nil, pe.Under(fld)
		}
		return nil, field.ErrorList{field.Invalid(fld, "", err.Error())}
	}
	if errs := s.Check(fld); len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}
