package appsvalidation

import (
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

var selectorOperators = []meta.LabelSelectorOperator{
	meta.LabelSelectorOpIn, meta.LabelSelectorOpNotIn,
	meta.LabelSelectorOpExists, meta.LabelSelectorOpDoesNotExist,
}

// LabelSelector checks the structure of a label selector: label keys and
// values, expression operators, and values present exactly for In and NotIn.
func LabelSelector(sel *meta.LabelSelector, p *field.Path) field.ErrorList {
	if sel == nil {
		return nil
	}
	errs := validation.Labels(sel.MatchLabels, p.Child("matchLabels"))
	for i, expr := range sel.MatchExpressions {
		ep := p.Child("matchExpressions").Index(i)
		for _, msg := range validation.IsQualifiedName(expr.Key) {
			errs = append(errs, field.Invalid(ep.Child("key"), expr.Key, msg))
		}
		switch expr.Operator {
		case meta.LabelSelectorOpIn, meta.LabelSelectorOpNotIn:
			if len(expr.Values) == 0 {
				errs = append(errs, field.Required(ep.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case meta.LabelSelectorOpExists, meta.LabelSelectorOpDoesNotExist:
			if len(expr.Values) > 0 {
				errs = append(errs, field.Forbidden(ep.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, field.NotSupported(ep.Child("operator"), expr.Operator, selectorOperators))
		}
		for j, v := range expr.Values {
			for _, msg := range validation.IsLabelValue(v) {
				errs = append(errs, field.Invalid(ep.Child("values").Index(j), v, msg))
			}
		}
	}
	return errs
}

// Selector checks a workload's spec.selector, which must be set, valid and
// select something; kind names the workload in messages ("deployment").
// It returns the parsed selector, nil when the selector is unusable.
func Selector(sel *meta.LabelSelector, kind string, p *field.Path) (labels.Selector, field.ErrorList) {
	if sel == nil {
		return nil, field.ErrorList{field.Required(p, "")}
	}
	errs := LabelSelector(sel, p)
	if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		errs = append(errs, field.Invalid(p, sel, "empty selector is invalid for "+kind))
	}
	parsed, err := labels.FromLabelSelector(sel)
	if err != nil {
		if len(errs) == 0 {
			errs = append(errs, field.Invalid(p, sel, "invalid label selector: "+err.Error()))
		}
		return nil, errs
	}
	return parsed, errs
}

// SelectorString renders a selector in the label-selector string syntax,
// as the scale subresource reports it; nil or invalid selectors give "".
func SelectorString(sel *meta.LabelSelector) string {
	if sel == nil {
		return ""
	}
	parsed, err := labels.FromLabelSelector(sel)
	if err != nil {
		return ""
	}
	return parsed.String()
}
