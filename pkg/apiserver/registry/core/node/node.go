package node

import (
	"slices"
	"strconv"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the nodes row of the registry.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "nodes", Singular: "node", Kind: "Node",
		ShortNames: []string{"no"},
		New:        func() meta.Object { return &corev1.Node{} },
		HasStatus:  true,
		// The node agent registers its node with status already filled in.
		KeepStatusOnCreate: true,
		Strategy: registry.Typed[corev1.Node]{
			DefaultFunc:          setDefaults,
			PrepareForCreateFunc: prepareForCreate,
			PrepareForUpdateFunc: prepareForUpdate,
			ValidateFunc:         validate,
			ValidateUpdateFunc:   validateUpdate,
		},
		SelectableFields: func(obj meta.Object) map[string]string {
			n := obj.(*corev1.Node)
			return map[string]string{"spec.unschedulable": strconv.FormatBool(n.Spec.Unschedulable)}
		},
		Table: tableColumns,
	}
}

// setDefaults keeps spec.podCIDR and spec.podCIDRs in step (podCIDRs wins, as
// it does when upstream converts between versions) and defaults
// status.allocatable to a copy of status.capacity.
func setDefaults(n *corev1.Node) {
	switch {
	case len(n.Spec.PodCIDRs) > 0:
		n.Spec.PodCIDR = n.Spec.PodCIDRs[0]
	case n.Spec.PodCIDR != "":
		n.Spec.PodCIDRs = []string{n.Spec.PodCIDR}
	}
	if n.Status.Allocatable == nil && n.Status.Capacity != nil {
		n.Status.Allocatable = make(corev1.ResourceList, len(n.Status.Capacity))
		for k, v := range n.Status.Capacity {
			n.Status.Allocatable[k] = v
		}
	}
}

// prepareForCreate drops the configuration source of the removed dynamic
// node agent configuration feature.
func prepareForCreate(n *corev1.Node) {
	n.Spec.ConfigSource = nil
	n.Status.Config = nil
}

// prepareForUpdate keeps a configuration source only on nodes already using one.
func prepareForUpdate(n, old *corev1.Node) {
	if old.Spec.ConfigSource == nil {
		n.Spec.ConfigSource = nil
	}
}

// validate checks a new node.
func validate(n *corev1.Node) field.ErrorList {
	errs := validateTaints(n.Spec.Taints, field.NewPath("spec", "taints"))
	return append(errs, validatePodCIDRs(n.Spec.PodCIDRs, field.NewPath("spec", "podCIDRs"))...)
}

// validateUpdate checks a node update, on the main resource and on /status.
func validateUpdate(n, old *corev1.Node) field.ErrorList {
	errs := validate(n)
	spec := field.NewPath("spec")
	if len(old.Spec.PodCIDRs) > 0 && !slices.Equal(n.Spec.PodCIDRs, old.Spec.PodCIDRs) {
		errs = append(errs, field.Forbidden(spec.Child("podCIDRs"), "may only be set once: it can change from empty to a value, but not after"))
	}
	if old.Spec.ProviderID != "" && n.Spec.ProviderID != old.Spec.ProviderID {
		errs = append(errs, field.Forbidden(spec.Child("providerID"), "may only be set once: it can change from empty to a value, but not after"))
	}
	if n.Spec.DoNotUseExternalID != old.Spec.DoNotUseExternalID {
		errs = append(errs, field.Forbidden(spec.Child("externalID"), "may not be updated"))
	}
	return append(errs, validateAddresses(n.Status.Addresses, field.NewPath("status", "addresses"))...)
}

var taintEffects = []corev1.TaintEffect{corev1.TaintEffectNoExecute, corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule}

// validateTaints checks each taint and that no two share a key and effect.
func validateTaints(taints []corev1.Taint, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	type keyEffect struct {
		key    string
		effect corev1.TaintEffect
	}
	seen := map[keyEffect]bool{}
	for i, t := range taints {
		ip := p.Index(i)
		errs = append(errs, corevalidation.QualifiedName(ip.Child("key"), t.Key)...)
		errs = append(errs, corevalidation.LabelValue(ip.Child("value"), t.Value)...)
		switch t.Effect {
		case "":
			errs = append(errs, field.Required(ip.Child("effect"), ""))
		case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
		default:
			errs = append(errs, field.NotSupported(ip.Child("effect"), t.Effect, taintEffects))
		}
		k := keyEffect{t.Key, t.Effect}
		if seen[k] {
			dup := field.Duplicate(ip, t)
			dup.Detail = "taints must be unique by key and effect"
			errs = append(errs, dup)
		}
		seen[k] = true
	}
	return errs
}

// validatePodCIDRs checks that every range is a CIDR, that there is at most
// one per IP family, and that none repeats.
func validatePodCIDRs(cidrs []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, c := range cidrs {
		errs = append(errs, corevalidation.CIDR(p.Index(i), c)...)
	}
	if len(errs) > 0 || len(cidrs) < 2 {
		return errs
	}
	seen := map[string]bool{}
	for i, c := range cidrs {
		if seen[c] {
			errs = append(errs, field.Duplicate(p.Index(i), c))
		}
		seen[c] = true
	}
	if !corevalidation.IsDualStackCIDRs(cidrs) {
		errs = append(errs, field.Invalid(p, cidrs, "may hold at most one CIDR per IP family"))
	}
	return errs
}

// validateAddresses rejects repeated entries in status.addresses.
func validateAddresses(addrs []corev1.NodeAddress, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[corev1.NodeAddress]bool{}
	for i, a := range addrs {
		if seen[a] {
			errs = append(errs, field.Duplicate(p.Index(i), a))
		}
		seen[a] = true
	}
	return errs
}
