package limitrange

import (
	"fmt"
	"slices"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// Resource is the limitranges row of the registry. kubectl shows it with
// the default columns, Name and Created At, as upstream does.
func Resource() *registry.Resource {
	return &registry.Resource{
		Group: "", Version: "v1", Name: "limitranges", Singular: "limitrange", Kind: "LimitRange",
		ShortNames: []string{"limits"},
		Namespaced: true,
		New:        func() meta.Object { return &corev1.LimitRange{} },
		Strategy: registry.Typed[corev1.LimitRange]{
			ValidateFunc:       Validate,
			ValidateUpdateFunc: func(lr, _ *corev1.LimitRange) field.ErrorList { return Validate(lr) },
		},
	}
}

// Validate checks a limit range as upstream does.
func Validate(lr *corev1.LimitRange) field.ErrorList {
	var errs field.ErrorList
	seen := map[corev1.LimitType]bool{}
	p := field.NewPath("spec", "limits")
	for i := range lr.Spec.Limits {
		item := &lr.Spec.Limits[i]
		ip := p.Index(i)
		if seen[item.Type] {
			errs = append(errs, field.Duplicate(ip.Child("type"), string(item.Type)))
		}
		seen[item.Type] = true
		errs = append(errs, validateItem(item, ip)...)
	}
	return errs
}

// validateItem checks one item: names and quantities of every list, what
// the item's type allows, and the order of min, defaults and max.
func validateItem(item *corev1.LimitRangeItem, p *field.Path) field.ErrorList {
	lists := []struct {
		name string
		l    corev1.ResourceList
	}{
		{"max", item.Max}, {"min", item.Min}, {"default", item.Default},
		{"defaultRequest", item.DefaultRequest}, {"maxLimitRequestRatio", item.MaxLimitRequestRatio},
	}
	var errs field.ErrorList
	var names []corev1.ResourceName
	for _, l := range lists {
		for _, k := range sortedNames(l.l) {
			kp := p.Child(l.name).Key(string(k))
			errs = append(errs, resourceName(item.Type, k, kp)...)
			errs = append(errs, corevalidation.ResourceQuantity(kp, k, l.l[k])...)
			if !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
	}
	switch item.Type {
	case corev1.LimitTypePod:
		if len(item.Default) > 0 {
			errs = append(errs, field.Forbidden(p.Child("default"), "may not be specified when `type` is 'Pod'"))
		}
		if len(item.DefaultRequest) > 0 {
			errs = append(errs, field.Forbidden(p.Child("defaultRequest"), "may not be specified when `type` is 'Pod'"))
		}
	case corev1.LimitTypePersistentVolumeClaim:
		_, hasMin := item.Min[corev1.ResourceStorage]
		_, hasMax := item.Max[corev1.ResourceStorage]
		if !hasMin && !hasMax {
			errs = append(errs, field.Required(p.Child("limits"), "either minimum or maximum storage value is required, but neither was provided"))
		}
	}
	slices.Sort(names)
	for _, k := range names {
		errs = append(errs, validateOrder(item, k, p)...)
	}
	return errs
}

// validateOrder checks, for resource k, min <= defaultRequest <= default
// <= max and the ratio, with upstream's messages.
func validateOrder(item *corev1.LimitRangeItem, k corev1.ResourceName, p *field.Path) field.ErrorList {
	minQ, hasMin := item.Min[k]
	maxQ, hasMax := item.Max[k]
	defQ, hasDef := item.Default[k]
	reqQ, hasReq := item.DefaultRequest[k]
	ratio, hasRatio := item.MaxLimitRequestRatio[k]
	at := func(list string) *field.Path { return p.Child(list).Key(string(k)) }
	var errs field.ErrorList
	bad := func(cond bool, list string, v resource.Quantity, format string, a, b resource.Quantity) {
		if cond {
			errs = append(errs, field.Invalid(at(list), v.String(), fmt.Sprintf(format, a.String(), b.String())))
		}
	}
	bad(hasMin && hasMax && minQ.Cmp(maxQ) > 0, "min", minQ, "min value %s is greater than max value %s", minQ, maxQ)
	bad(hasReq && hasMin && minQ.Cmp(reqQ) > 0, "defaultRequest", reqQ, "min value %s is greater than default request value %s", minQ, reqQ)
	bad(hasReq && hasMax && reqQ.Cmp(maxQ) > 0, "defaultRequest", reqQ, "default request value %s is greater than max value %s", reqQ, maxQ)
	bad(hasReq && hasDef && reqQ.Cmp(defQ) > 0, "defaultRequest", reqQ, "default request value %s is greater than default limit value %s", reqQ, defQ)
	bad(hasDef && hasMin && minQ.Cmp(defQ) > 0, "default", minQ, "min value %s is greater than default value %s", minQ, defQ)
	bad(hasDef && hasMax && defQ.Cmp(maxQ) > 0, "default", maxQ, "default value %s is greater than max value %s", defQ, maxQ)
	if hasRatio && ratio.Cmp(resource.MustParse("1")) < 0 {
		errs = append(errs, field.Invalid(at("maxLimitRequestRatio"), ratio.String(), fmt.Sprintf("ratio %s is less than 1", ratio.String())))
	}
	if hasRatio && hasMin && hasMax && minQ.Sign() > 0 {
		most := float64(maxQ.MilliValue()) / float64(minQ.MilliValue())
		if ratio.AsApproximateFloat64() > most {
			errs = append(errs, field.Invalid(at("maxLimitRequestRatio"), ratio.String(), fmt.Sprintf("ratio %s is greater than max/min = %f", ratio.String(), most)))
		}
	}
	return errs
}

// resourceName checks a resource name for the item's type: a container
// resource for Container and Pod, any qualified name otherwise.
func resourceName(t corev1.LimitType, k corev1.ResourceName, p *field.Path) field.ErrorList {
	switch t {
	case corev1.LimitTypeContainer, corev1.LimitTypePod:
		return corevalidation.ContainerResourceName(p, k)
	}
	return corevalidation.ResourceName(p, k)
}

func sortedNames(l corev1.ResourceList) []corev1.ResourceName {
	out := make([]corev1.ResourceName, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
