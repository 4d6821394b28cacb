package podspec

import (
	"strconv"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

func validateTolerations(ts []corev1.Toleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range ts {
		ip := p.Index(i)
		if t.Key != "" {
			errs = append(errs, checkName(validation.IsQualifiedName, t.Key, ip.Child("key"), true)...)
		} else if t.Operator != corev1.TolerationOpExists {
			errs = append(errs, field.Invalid(ip.Child("operator"), t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		switch t.Operator {
		case corev1.TolerationOpEqual, "":
			errs = append(errs, checkName(validation.IsLabelValue, t.Value, ip.Child("value"), false)...)
		case corev1.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, field.Invalid(ip.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		default:
			errs = append(errs, field.NotSupported(ip.Child("operator"), t.Operator,
				[]corev1.TolerationOperator{corev1.TolerationOpEqual, corev1.TolerationOpExists}))
		}
		if t.TolerationSeconds != nil && t.Effect != corev1.TaintEffectNoExecute {
			errs = append(errs, field.Invalid(ip.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		errs = append(errs, optionalEnum(t.Effect, ip.Child("effect"), corev1.TaintEffectNoSchedule,
			corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute)...)
	}
	return errs
}

func validateAffinity(a *corev1.Affinity, p *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	if na := a.NodeAffinity; na != nil {
		np := p.Child("nodeAffinity")
		if req := na.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
			rp := np.Child("requiredDuringSchedulingIgnoredDuringExecution")
			if len(req.NodeSelectorTerms) == 0 {
				errs = append(errs, field.Required(rp.Child("nodeSelectorTerms"), "must have at least one node selector term"))
			}
			for i, t := range req.NodeSelectorTerms {
				errs = append(errs, validateNodeSelectorTerm(t, rp.Child("nodeSelectorTerms").Index(i))...)
			}
		}
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			ip := np.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			errs = append(errs, checkWeight(t.Weight, ip.Child("weight"))...)
			errs = append(errs, validateNodeSelectorTerm(t.Preference, ip.Child("preference"))...)
		}
	}
	if pa := a.PodAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution,
			pa.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("podAffinity"))...)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		errs = append(errs, validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution,
			pa.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("podAntiAffinity"))...)
	}
	return errs
}

func checkWeight(w int32, p *field.Path) field.ErrorList {
	if w < 1 || w > 100 {
		return field.ErrorList{field.Invalid(p, w, "must be in the range 1-100")}
	}
	return nil
}

func validateNodeSelectorTerm(t corev1.NodeSelectorTerm, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, r := range t.MatchExpressions {
		ip := p.Child("matchExpressions").Index(i)
		errs = append(errs, checkName(validation.IsQualifiedName, r.Key, ip.Child("key"), true)...)
		errs = append(errs, validateNodeSelectorValues(r, ip)...)
	}
	for i, r := range t.MatchFields {
		ip := p.Child("matchFields").Index(i)
		if r.Key != "metadata.name" {
			errs = append(errs, field.NotSupported(ip.Child("key"), r.Key, []string{"metadata.name"}))
		}
		if r.Operator != corev1.NodeSelectorOpIn && r.Operator != corev1.NodeSelectorOpNotIn {
			errs = append(errs, field.NotSupported(ip.Child("operator"), r.Operator,
				[]corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}))
		} else if len(r.Values) != 1 {
			errs = append(errs, field.Required(ip.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
		}
	}
	return errs
}

// validateNodeSelectorValues checks the values of a requirement against its operator.
func validateNodeSelectorValues(r corev1.NodeSelectorRequirement, p *field.Path) field.ErrorList {
	vp := p.Child("values")
	switch r.Operator {
	case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			return field.ErrorList{field.Required(vp, "must be specified when `operator` is 'In' or 'NotIn'")}
		}
		var errs field.ErrorList
		for i, v := range r.Values {
			errs = append(errs, checkName(validation.IsLabelValue, v, vp.Index(i), false)...)
		}
		return errs
	case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			return field.ErrorList{field.Forbidden(vp, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")}
		}
	case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
		if len(r.Values) != 1 {
			return field.ErrorList{field.Required(vp, "must be specified single value when `operator` is 'Lt' or 'Gt'")}
		}
		if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			return field.ErrorList{field.Invalid(vp.Index(0), r.Values[0], "must be an integer when `operator` is 'Lt' or 'Gt'")}
		}
	default:
		return field.ErrorList{field.NotSupported(p.Child("operator"), r.Operator, []corev1.NodeSelectorOperator{
			corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn, corev1.NodeSelectorOpExists,
			corev1.NodeSelectorOpDoesNotExist, corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt})}
	}
	return nil
}

func validatePodAffinityTerms(req []corev1.PodAffinityTerm, pref []corev1.WeightedPodAffinityTerm, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range req {
		errs = append(errs, validatePodAffinityTerm(t, p.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
	}
	for i, w := range pref {
		ip := p.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
		errs = append(errs, checkWeight(w.Weight, ip.Child("weight"))...)
		errs = append(errs, validatePodAffinityTerm(w.PodAffinityTerm, ip.Child("podAffinityTerm"))...)
	}
	return errs
}

func validatePodAffinityTerm(t corev1.PodAffinityTerm, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.TopologyKey == "" {
		errs = append(errs, field.Required(p.Child("topologyKey"), "can not be empty"))
	} else {
		errs = append(errs, checkName(validation.IsQualifiedName, t.TopologyKey, p.Child("topologyKey"), true)...)
	}
	errs = append(errs, ValidateLabelSelector(t.LabelSelector, p.Child("labelSelector"))...)
	errs = append(errs, ValidateLabelSelector(t.NamespaceSelector, p.Child("namespaceSelector"))...)
	for i, ns := range t.Namespaces {
		errs = append(errs, checkName(validation.IsDNS1123Label, ns, p.Child("namespaces").Index(i), true)...)
	}
	for i, k := range t.MatchLabelKeys {
		errs = append(errs, checkName(validation.IsQualifiedName, k, p.Child("matchLabelKeys").Index(i), true)...)
	}
	for i, k := range t.MismatchLabelKeys {
		errs = append(errs, checkName(validation.IsQualifiedName, k, p.Child("mismatchLabelKeys").Index(i), true)...)
	}
	return errs
}

// ValidateLabelSelector checks a label selector: label keys and values, and
// each expression's operator against its values. A nil selector is valid.
func ValidateLabelSelector(ls *meta.LabelSelector, p *field.Path) field.ErrorList {
	if ls == nil {
		return nil
	}
	errs := validation.Labels(ls.MatchLabels, p.Child("matchLabels"))
	for i, r := range ls.MatchExpressions {
		ip := p.Child("matchExpressions").Index(i)
		errs = append(errs, checkName(validation.IsQualifiedName, r.Key, ip.Child("key"), true)...)
		vp := ip.Child("values")
		switch r.Operator {
		case meta.LabelSelectorOpIn, meta.LabelSelectorOpNotIn:
			if len(r.Values) == 0 {
				errs = append(errs, field.Required(vp, "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case meta.LabelSelectorOpExists, meta.LabelSelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				errs = append(errs, field.Forbidden(vp, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, field.NotSupported(ip.Child("operator"), r.Operator, []meta.LabelSelectorOperator{
				meta.LabelSelectorOpIn, meta.LabelSelectorOpNotIn, meta.LabelSelectorOpExists, meta.LabelSelectorOpDoesNotExist}))
		}
		for j, v := range r.Values {
			errs = append(errs, checkName(validation.IsLabelValue, v, vp.Index(j), false)...)
		}
	}
	return errs
}

func validateTopologySpread(cs []corev1.TopologySpreadConstraint, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[[2]string]bool{}
	for i, c := range cs {
		ip := p.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(ip.Child("maxSkew"), c.MaxSkew, "must be greater than zero"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(ip.Child("topologyKey"), "can not be empty"))
		} else {
			errs = append(errs, checkName(validation.IsQualifiedName, c.TopologyKey, ip.Child("topologyKey"), true)...)
		}
		errs = append(errs, enum(c.WhenUnsatisfiable, ip.Child("whenUnsatisfiable"), corev1.DoNotSchedule, corev1.ScheduleAnyway)...)
		if m := c.MinDomains; m != nil {
			if *m <= 0 {
				errs = append(errs, field.Invalid(ip.Child("minDomains"), *m, "must be greater than zero"))
			} else if c.WhenUnsatisfiable != corev1.DoNotSchedule {
				errs = append(errs, field.Invalid(ip.Child("minDomains"), *m, "can only use minDomains if whenUnsatisfiable=DoNotSchedule"))
			}
		}
		key := [2]string{c.TopologyKey, string(c.WhenUnsatisfiable)}
		if seen[key] {
			errs = append(errs, field.Duplicate(ip, key[0]+"/"+key[1]))
		}
		seen[key] = true
		if pol := c.NodeAffinityPolicy; pol != nil {
			errs = append(errs, enum(*pol, ip.Child("nodeAffinityPolicy"), corev1.NodeInclusionPolicyHonor, corev1.NodeInclusionPolicyIgnore)...)
		}
		if pol := c.NodeTaintsPolicy; pol != nil {
			errs = append(errs, enum(*pol, ip.Child("nodeTaintsPolicy"), corev1.NodeInclusionPolicyHonor, corev1.NodeInclusionPolicyIgnore)...)
		}
		errs = append(errs, ValidateLabelSelector(c.LabelSelector, ip.Child("labelSelector"))...)
		for j, k := range c.MatchLabelKeys {
			errs = append(errs, checkName(validation.IsQualifiedName, k, ip.Child("matchLabelKeys").Index(j), true)...)
		}
	}
	return errs
}
