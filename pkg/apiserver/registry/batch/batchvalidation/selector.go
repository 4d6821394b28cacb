package batchvalidation

import (
	"bytes"
	"encoding/json"

	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// ValidateLabelSelector checks the keys, operators and values of a label selector.
func ValidateLabelSelector(s *meta.LabelSelector, p *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	errs := validation.Labels(s.MatchLabels, p.Child("matchLabels"))
	for i, r := range s.MatchExpressions {
		ip := p.Child("matchExpressions").Index(i)
		switch r.Operator {
		case meta.LabelSelectorOpIn, meta.LabelSelectorOpNotIn:
			if len(r.Values) == 0 {
				errs = append(errs, field.Required(ip.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case meta.LabelSelectorOpExists, meta.LabelSelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				errs = append(errs, field.Forbidden(ip.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, field.Invalid(ip.Child("operator"), string(r.Operator), "not a valid selector operator"))
		}
		for _, msg := range validation.IsQualifiedName(r.Key) {
			errs = append(errs, field.Invalid(ip.Child("key"), r.Key, msg))
		}
		for j, v := range r.Values {
			for _, msg := range validation.IsLabelValue(v) {
				errs = append(errs, field.Invalid(ip.Child("values").Index(j), v, msg))
			}
		}
	}
	return errs
}

// SelectorMatches reports whether a valid selector selects the label set;
// ok is false when the selector cannot be converted (already reported by
// ValidateLabelSelector).
func SelectorMatches(s *meta.LabelSelector, set map[string]string) (matches, ok bool) {
	sel, err := labels.FromLabelSelector(s)
	if err != nil {
		return false, false
	}
	return sel.Matches(labels.Set(set)), true
}

// SemanticEqual compares two API values by their JSON form, so that a nil
// and an empty list or map, which encode alike, count as equal.
func SemanticEqual(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
