package nodeaffinity

import (
	"errors"
	"fmt"
	"strconv"

	corev1 "platform.io/client/api/core/v1"
)

// Args are the plugin's arguments, as upstream's NodeAffinityArgs.
type Args struct {
	// AddedAffinity is applied to every pod of the profile on top of the
	// pod's own: its required terms filter, its preferred terms score.
	AddedAffinity *corev1.NodeAffinity `json:"addedAffinity,omitempty"`
}

// nameField is the only field matchFields may name.
const nameField = "metadata.name"

// Validate checks the added affinity as the API validates a pod's.
func (a *Args) Validate() error {
	na := a.AddedAffinity
	if na == nil {
		return nil
	}
	var errs []error
	if req := na.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
		if len(req.NodeSelectorTerms) == 0 {
			errs = append(errs, errors.New("addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: must have at least one term"))
		}
		for i := range req.NodeSelectorTerms {
			path := fmt.Sprintf("addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[%d]", i)
			errs = append(errs, validateTerm(path, &req.NodeSelectorTerms[i])...)
		}
	}
	for i, p := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		path := fmt.Sprintf("addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[%d]", i)
		if p.Weight < 1 || p.Weight > 100 {
			errs = append(errs, fmt.Errorf("%s.weight: %d must be in the range 1-100", path, p.Weight))
		}
		errs = append(errs, validateTerm(path+".preference", &p.Preference)...)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%s: invalid args: %w", Name, err)
	}
	return nil
}

func validateTerm(path string, t *corev1.NodeSelectorTerm) []error {
	var errs []error
	for i := range t.MatchExpressions {
		errs = append(errs, validateRequirement(fmt.Sprintf("%s.matchExpressions[%d]", path, i), &t.MatchExpressions[i])...)
	}
	for i, r := range t.MatchFields {
		p := fmt.Sprintf("%s.matchFields[%d]", path, i)
		if r.Key != nameField {
			errs = append(errs, fmt.Errorf("%s.key: %q is not a supported field (only %s)", p, r.Key, nameField))
		}
		if r.Operator != corev1.NodeSelectorOpIn && r.Operator != corev1.NodeSelectorOpNotIn {
			errs = append(errs, fmt.Errorf("%s.operator: %q is not supported for fields (In or NotIn)", p, r.Operator))
		} else if len(r.Values) != 1 {
			errs = append(errs, fmt.Errorf("%s.values: must have exactly one value", p))
		}
	}
	return errs
}

func validateRequirement(path string, r *corev1.NodeSelectorRequirement) []error {
	if r.Key == "" {
		return []error{fmt.Errorf("%s.key: must not be empty", path)}
	}
	switch r.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			return []error{fmt.Errorf("%s.values: must be specified for %s", path, r.Operator)}
		}
	case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			return []error{fmt.Errorf("%s.values: may not be specified for %s", path, r.Operator)}
		}
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if len(r.Values) != 1 {
			return []error{fmt.Errorf("%s.values: must have exactly one value for %s", path, r.Operator)}
		}
		if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			return []error{fmt.Errorf("%s.values[0]: must be an integer for %s: %w", path, r.Operator, err)}
		}
	default:
		return []error{fmt.Errorf("%s.operator: %q is not a valid operator", path, r.Operator)}
	}
	return nil
}
