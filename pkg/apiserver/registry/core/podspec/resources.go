package podspec

import (
	"fmt"
	"slices"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// The quantity operations validation needs, in one place.
func quantitySign(q resource.Quantity) int       { return q.Sign() }
func quantityCmp(a, b resource.Quantity) int     { return a.Cmp(b) }
func quantityString(q resource.Quantity) string  { return q.String() }
func sortedNames(l corev1.ResourceList) []string { return sortedKeys(l) }

func sortedKeys[V any](m map[corev1.ResourceName]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, string(k))
	}
	slices.Sort(keys)
	return keys
}

const hugePagesPrefix = "hugepages-"

// isNativeResource reports whether a resource name belongs to the platform:
// unprefixed, or in the platform.io domain.
func isNativeResource(name string) bool {
	return !strings.Contains(name, "/") || strings.Contains(name, "platform.io/")
}

// overcommitAllowed reports whether a request may be below its limit; it
// may not for huge pages and for extended resources.
func overcommitAllowed(name string) bool {
	return isNativeResource(name) && !strings.HasPrefix(name, hugePagesPrefix)
}

// validateContainerResourceName checks the name of a container resource:
// cpu, memory, ephemeral-storage, huge pages, or a domain-qualified name.
func validateContainerResourceName(name string, p *field.Path) field.ErrorList {
	return corevalidation.ContainerResourceName(p, corev1.ResourceName(name))
}

// validateResourceList checks names and that no quantity is negative.
func validateResourceList(l corev1.ResourceList, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, name := range sortedNames(l) {
		kp := p.Key(name)
		errs = append(errs, validateContainerResourceName(name, kp)...)
		if q := l[corev1.ResourceName(name)]; quantitySign(q) < 0 {
			errs = append(errs, field.Invalid(kp, quantityString(q), "must be greater than or equal to 0"))
		}
	}
	return errs
}

// validateRequirements checks requests and limits: every request at most
// its limit, and equal to it where overcommit is not allowed.
func validateRequirements(r *corev1.ResourceRequirements, p *field.Path) field.ErrorList {
	lp, rp := p.Child("limits"), p.Child("requests")
	errs := validateResourceList(r.Limits, lp)
	errs = append(errs, validateResourceList(r.Requests, rp)...)
	for _, name := range sortedNames(r.Requests) {
		req := r.Requests[corev1.ResourceName(name)]
		lim, hasLim := r.Limits[corev1.ResourceName(name)]
		kp := rp.Key(name)
		switch {
		case hasLim && quantityCmp(req, lim) > 0:
			errs = append(errs, field.Invalid(kp, quantityString(req),
				fmt.Sprintf("must be less than or equal to %s limit of %s", name, quantityString(lim))))
		case hasLim && !overcommitAllowed(name) && quantityCmp(req, lim) != 0:
			errs = append(errs, field.Invalid(kp, quantityString(req),
				fmt.Sprintf("must be equal to %s limit of %s", name, quantityString(lim))))
		case !hasLim && !overcommitAllowed(name):
			errs = append(errs, field.Required(lp, "Limit must be set for non overcommitable resources"))
		}
	}
	claims := map[string]bool{}
	for i, c := range r.Claims {
		cp := p.Child("claims").Index(i)
		errs = append(errs, checkName(validation.IsDNS1123Label, c.Name, cp.Child("name"), true)...)
		key := c.Name + "/" + c.Request
		if claims[key] {
			errs = append(errs, field.Duplicate(cp, key))
		}
		claims[key] = true
	}
	return errs
}
