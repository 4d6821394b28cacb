package structural

import "platform.io/client/api/jsontree"

// ApplyDefaults applies the schema's defaults to obj in place, as upstream does
// on every write and every read from storage:
//
//   - a property that is absent, or null where the property is not
//     nullable, gets a deep copy of its default (so objects never share a
//     default's maps or slices);
//   - a null list item or map value whose schema is not nullable gets the
//     items' or additionalProperties' default;
//   - defaults nest: a defaulted object gets its own properties' defaults;
//   - a null property or map value that is not nullable and has no default
//     is removed, as upstream's pruning of non-nullable nulls does.
//
// Defaults under allOf/anyOf/oneOf/not are never applied (Check forbids
// them).
//
// (It is not called Default because the schema's default keyword is the
// field of that name.)
func (s *Schema) ApplyDefaults(obj map[string]any) {
	if s == nil || obj == nil {
		return
	}
	s.defaultValue(obj)
}

func (s *Schema) defaultValue(v any) {
	switch x := v.(type) {
	case map[string]any:
		s.defaultObject(x)
	case []any:
		if s.Items == nil {
			return
		}
		for i := range x {
			if x[i] == nil && s.Items.Default != nil && !s.Items.Nullable {
				x[i] = jsontree.DeepCopy(s.Items.Default)
			}
			s.Items.defaultValue(x[i])
		}
	}
}

func (s *Schema) defaultObject(x map[string]any) {
	for k, p := range s.Properties {
		if p == nil || p.Default == nil {
			continue
		}
		if _, found := x[k]; !found {
			x[k] = jsontree.DeepCopy(p.Default)
		}
	}
	var ap *Schema
	if s.AdditionalProperties != nil {
		ap = s.AdditionalProperties.Schema
	}
	for k, val := range x {
		sub, isProp := s.Properties[k]
		if !isProp {
			if ap == nil {
				continue
			}
			sub = ap
		}
		if sub == nil {
			continue
		}
		if val == nil && !sub.Nullable { // null where null is not allowed: as if absent
			if sub.Default == nil {
				delete(x, k)
				continue
			}
			x[k] = jsontree.DeepCopy(sub.Default)
		}
		sub.defaultValue(x[k])
	}
}
