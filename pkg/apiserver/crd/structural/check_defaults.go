package structural

import (
	"maps"
	"slices"

	"platform.io/client/api/jsontree"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// defaults checks every default of the structural tree at s: it must
// validate against its own schema, carry no field pruning would remove,
// and, in an embedded resource, hold valid apiVersion, kind and metadata.
// Like upstream it does not follow additionalProperties, where a default
// is never applied. resource says s is the root or an embedded resource;
// insideMeta says s is apiVersion, kind or metadata of one, or below.
func (c *checker) defaults(s *Schema, p *field.Path, resource, insideMeta bool) {
	if s == nil {
		return
	}
	if s.EmbeddedResource {
		resource, insideMeta = true, false
	}
	if s.Default != nil {
		c.checkDefault(s, p.Child("default"), insideMeta)
	}
	c.defaults(s.Items, p.Child("items"), false, insideMeta)
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		c.defaults(s.Properties[k], p.Child("properties").Key(k), false, insideMeta || (resource && metaFields[k]))
	}
}

func (c *checker) checkDefault(s *Schema, p *field.Path, insideMeta bool) {
	if !insideMeta {
		pruned := jsontree.DeepCopy(s.Default)
		if m, ok := pruned.(map[string]any); ok {
			s.Prune(m, s.EmbeddedResource)
		} else if l, ok := pruned.([]any); ok {
			s.pruneList(l)
		}
		if !equal(pruned, s.Default) {
			c.add(field.Invalid(p, s.Default, "must not have unknown fields"))
		}
	}
	c.errs = append(c.errs, s.Validate(p, s.Default)...)
}

// pruneList prunes the items of a list by the list's schema.
func (s *Schema) pruneList(l []any) {
	var p pruning
	s.prune(&p, l)
}
