package service

import (
	"fmt"
	"net"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry/core/corevalidation"
	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

var (
	ipFamilies       = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
	ipFamilyPolicies = []corev1.IPFamilyPolicy{corev1.IPFamilyPolicyPreferDualStack,
		corev1.IPFamilyPolicyRequireDualStack, corev1.IPFamilyPolicySingleStack}
	ipModes = []corev1.LoadBalancerIPMode{corev1.LoadBalancerIPModeProxy, corev1.LoadBalancerIPModeVIP}
)

// validateClusterIPs checks clusterIP, clusterIPs, ipFamilies and
// ipFamilyPolicy of a service that is not an ExternalName.
func validateClusterIPs(s *corev1.Service, spec *field.Path) field.ErrorList {
	if s.Spec.Type == corev1.ServiceTypeExternalName {
		return nil
	}
	var errs field.ErrorList
	ipsPath, famPath := spec.Child("clusterIPs"), spec.Child("ipFamilies")
	ips := s.Spec.ClusterIPs
	switch {
	case s.Spec.ClusterIP != "" && len(ips) == 0:
		errs = append(errs, field.Required(ipsPath, ""))
	case s.Spec.ClusterIP != "" && ips[0] != s.Spec.ClusterIP:
		errs = append(errs, field.Invalid(ipsPath, ips, "first value must match `clusterIP`"))
	case s.Spec.ClusterIP == "" && len(ips) > 0:
		errs = append(errs, field.Invalid(ipsPath, ips, "must be empty when `clusterIP` is not specified"))
	}
	seen := map[corev1.IPFamily]bool{}
	for i, f := range s.Spec.IPFamilies {
		if !contains(ipFamilies, f) {
			errs = append(errs, field.NotSupported(famPath.Index(i), f, ipFamilies))
		} else if seen[f] {
			errs = append(errs, field.Duplicate(famPath.Index(i), f))
		}
		seen[f] = true
	}
	errs = append(errs, validatePolicy(s, spec.Child("ipFamilyPolicy"))...)
	badIPs := false
	for i, ip := range ips {
		if i == 0 && ip == corev1.ClusterIPNone {
			if len(ips) > 1 {
				badIPs = true
				errs = append(errs, field.Invalid(ipsPath, ips, "'None' must be the first and only value"))
			}
			continue
		}
		ipErrs := corevalidation.IP(ipsPath.Index(i), ip)
		badIPs = badIPs || len(ipErrs) > 0
		errs = append(errs, ipErrs...)
	}
	if len(ips) > 2 {
		errs = append(errs, field.Invalid(ipsPath, ips, "may hold at most 2 values"))
	}
	if badIPs {
		return errs
	}
	if len(ips) == 2 && !corevalidation.IsDualStackIPs(ips) {
		errs = append(errs, field.Invalid(ipsPath, ips, "may hold at most one IP per IP family"))
	}
	if !isHeadless(s) {
		for i := 0; i < len(ips) && i < len(s.Spec.IPFamilies); i++ {
			if want := s.Spec.IPFamilies[i]; contains(ipFamilies, want) && corevalidation.FamilyOf(ips[i]) != want {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ips[i], fmt.Sprintf("must be an %s address, as `ipFamilies[%d]` says", want, i)))
			}
		}
	}
	return errs
}

// validatePolicy checks ipFamilyPolicy against its allowed values and
// against the number of families and IPs asked for.
func validatePolicy(s *corev1.Service, p *field.Path) field.ErrorList {
	policy := s.Spec.IPFamilyPolicy
	if policy == nil {
		return nil
	}
	if !contains(ipFamilyPolicies, *policy) {
		return field.ErrorList{field.NotSupported(p, *policy, ipFamilyPolicies)}
	}
	if *policy != corev1.IPFamilyPolicySingleStack {
		return nil
	}
	if len(s.Spec.IPFamilies) > 1 {
		return field.ErrorList{field.Invalid(p, *policy, "must be 'RequireDualStack' or 'PreferDualStack' when `ipFamilies` holds two families")}
	}
	if len(s.Spec.ClusterIPs) > 1 {
		return field.ErrorList{field.Invalid(p, *policy, "must be 'RequireDualStack' or 'PreferDualStack' when `clusterIPs` holds two addresses")}
	}
	return nil
}

// validateUpdate checks a service update, on the main resource and on /status.
func validateUpdate(s, old *corev1.Service) field.ErrorList {
	spec := field.NewPath("spec")
	errs := validateClusterIPsUpdate(s, old, spec)
	errs = append(errs, validateIPFamiliesUpdate(s, old, spec)...)
	if old.Spec.Type == corev1.ServiceTypeLoadBalancer && s.Spec.Type == corev1.ServiceTypeLoadBalancer &&
		!equalPtr(s.Spec.LoadBalancerClass, old.Spec.LoadBalancerClass) {
		errs = append(errs, field.Invalid(spec.Child("loadBalancerClass"), s.Spec.LoadBalancerClass, "may not change once set"))
	}
	if needsHealthCheck(old) && needsHealthCheck(s) && s.Spec.HealthCheckNodePort != old.Spec.HealthCheckNodePort {
		errs = append(errs, field.Forbidden(spec.Child("healthCheckNodePort"), corevalidation.ImmutableFieldMsg))
	}
	errs = append(errs, validate(s)...)
	return append(errs, validateLoadBalancerStatus(s, field.NewPath("status", "loadBalancer"))...)
}

// validateClusterIPsUpdate lets a service gain or drop a secondary cluster
// IP but never change one, unless it becomes or stops being an ExternalName.
func validateClusterIPsUpdate(s, old *corev1.Service, spec *field.Path) field.ErrorList {
	if !needsClusterIP(s) || !needsClusterIP(old) || (isHeadless(s) && isHeadless(old)) {
		return nil
	}
	p, ips, oldIPs := spec.Child("clusterIPs"), s.Spec.ClusterIPs, old.Spec.ClusterIPs
	var errs field.ErrorList
	switch {
	case len(ips) == len(oldIPs):
		for i := range oldIPs {
			if ips[i] != oldIPs[i] {
				errs = append(errs, field.Invalid(p.Index(i), ips, "may not change once set"))
			}
		}
	case len(ips) < len(oldIPs):
		if len(ips) == 0 {
			return field.ErrorList{field.Invalid(p.Index(0), ips, "the primary cluster IP can not be unset")}
		}
		if ips[0] != oldIPs[0] {
			errs = append(errs, field.Invalid(p.Index(0), ips, "may not change once set"))
		}
		if policyOf(s) != corev1.IPFamilyPolicySingleStack {
			errs = append(errs, field.Invalid(spec.Child("ipFamilyPolicy"), s.Spec.IPFamilyPolicy, "must be 'SingleStack' to release the secondary cluster IP"))
		}
	case len(oldIPs) > 0 && ips[0] != oldIPs[0]:
		errs = append(errs, field.Invalid(p.Index(0), ips, "may not change once set"))
	}
	return errs
}

// validateIPFamiliesUpdate applies the same rule to ipFamilies; headless
// services may change families freely.
func validateIPFamiliesUpdate(s, old *corev1.Service, spec *field.Path) field.ErrorList {
	if !needsClusterIP(s) || !needsClusterIP(old) || isHeadless(s) || isHeadless(old) {
		return nil
	}
	p, fams, oldFams := spec.Child("ipFamilies"), s.Spec.IPFamilies, old.Spec.IPFamilies
	switch {
	case len(fams) == len(oldFams):
		for i := range oldFams {
			if fams[i] != oldFams[i] {
				return field.ErrorList{field.Invalid(p.Index(i), fams, "may not change once set")}
			}
		}
	case len(fams) < len(oldFams):
		if len(fams) == 0 {
			return field.ErrorList{field.Invalid(p.Index(0), fams, "the primary IP family can not be unset")}
		}
		var errs field.ErrorList
		if fams[0] != oldFams[0] {
			errs = append(errs, field.Invalid(p.Index(0), fams, "may not change once set"))
		}
		if policyOf(s) != corev1.IPFamilyPolicySingleStack {
			errs = append(errs, field.Invalid(spec.Child("ipFamilyPolicy"), s.Spec.IPFamilyPolicy, "must be 'SingleStack' to release the secondary IP family"))
		}
		return errs
	case len(oldFams) > 0 && fams[0] != oldFams[0]:
		return field.ErrorList{field.Invalid(p.Index(0), fams, "may not change once set")}
	}
	return nil
}

// validateLoadBalancerStatus checks the ingress points a load-balancer
// controller reports.
func validateLoadBalancerStatus(s *corev1.Service, p *field.Path) field.ErrorList {
	ingress := s.Status.LoadBalancer.Ingress
	ip := p.Child("ingress")
	if len(ingress) > 0 && s.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return field.ErrorList{field.Forbidden(ip, "may only be used when `spec.type` is 'LoadBalancer'")}
	}
	var errs field.ErrorList
	for i, ing := range ingress {
		pp := ip.Index(i)
		if ing.IP != "" {
			errs = append(errs, corevalidation.IP(pp.Child("ip"), ing.IP)...)
		}
		switch {
		case ing.IPMode != nil && ing.IP == "":
			errs = append(errs, field.Forbidden(pp.Child("ipMode"), "may not be set when `ip` is not set"))
		case ing.IPMode != nil && !contains(ipModes, *ing.IPMode):
			errs = append(errs, field.NotSupported(pp.Child("ipMode"), *ing.IPMode, ipModes))
		}
		if ing.Hostname != "" {
			errs = append(errs, corevalidation.Name(pp.Child("hostname"), ing.Hostname, validation.IsDNS1123Subdomain)...)
			if net.ParseIP(ing.Hostname) != nil {
				errs = append(errs, field.Invalid(pp.Child("hostname"), ing.Hostname, "must be a DNS name, not an IP address"))
			}
		}
	}
	return errs
}
