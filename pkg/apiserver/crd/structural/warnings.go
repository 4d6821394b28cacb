package structural

import (
	"fmt"
	"maps"
	"slices"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// Warnings returns what Check accepts but a CRD author likely did not
// mean, as upstream warns on a CRD write: formats it does not recognize
// (they check nothing). fld is the path of the schema itself.
func (s *Schema) Warnings(fld *field.Path) []string {
	var out []string
	s.warn(fld, &out)
	return out
}

func (s *Schema) warn(p *field.Path, out *[]string) {
	if s == nil {
		return
	}
	if s.Format != "" && !knownFormat(s.Type, s.Format) {
		*out = append(*out, fmt.Sprintf("%s: unrecognized format %q", p.Child("format"), s.Format))
	}
	s.Items.warn(p.Child("items"), out)
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		s.Properties[k].warn(p.Child("properties").Key(k), out)
	}
	if s.AdditionalProperties != nil {
		s.AdditionalProperties.Schema.warn(p.Child("additionalProperties"), out)
	}
	for _, j := range []struct {
		name string
		list []Schema
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i := range j.list {
			j.list[i].warn(p.Child(j.name).Index(i), out)
		}
	}
	s.Not.warn(p.Child("not"), out)
}
