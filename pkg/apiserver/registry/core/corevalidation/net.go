package corevalidation

import (
	"net"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// IP checks that s is an IPv4 or IPv6 address in canonical textual form
// (no zone, no leading zeros in IPv4 octets).
func IP(p *field.Path, s string) field.ErrorList {
	if net.ParseIP(s) == nil {
		return field.ErrorList{field.Invalid(p, s, "must be a valid IP address, such as 10.9.8.7 or 2001:db8::ffff")}
	}
	return nil
}

// CIDR checks that s is an IP network in prefix notation.
func CIDR(p *field.Path, s string) field.ErrorList {
	if _, _, err := net.ParseCIDR(s); err != nil {
		return field.ErrorList{field.Invalid(p, s, "must be a valid CIDR value, such as 10.9.8.0/24 or 2001:db8::/64")}
	}
	return nil
}

// NonSpecialIP rejects addresses that cannot name a remote backend: the
// unspecified address, loopback and link-local ranges. s must already be a
// valid IP; an unparsable one is reported as invalid.
func NonSpecialIP(p *field.Path, s string) field.ErrorList {
	ip := net.ParseIP(s)
	if ip == nil {
		return IP(p, s)
	}
	var errs field.ErrorList
	if ip.IsUnspecified() {
		errs = append(errs, field.Invalid(p, s, "may not be the unspecified address ("+s+")"))
	}
	if ip.IsLoopback() {
		errs = append(errs, field.Invalid(p, s, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
	}
	if ip.IsLinkLocalUnicast() {
		errs = append(errs, field.Invalid(p, s, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
	}
	if ip.IsLinkLocalMulticast() {
		errs = append(errs, field.Invalid(p, s, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
	}
	return errs
}

// IsIPv6 reports whether s is an IPv6 address (an IPv4-mapped address is not).
func IsIPv6(s string) bool {
	ip := net.ParseIP(s)
	return ip != nil && ip.To4() == nil
}

// FamilyOf returns the IP family of an address, or IPFamilyUnknown.
func FamilyOf(s string) corev1.IPFamily {
	ip := net.ParseIP(s)
	switch {
	case ip == nil:
		return corev1.IPFamilyUnknown
	case ip.To4() != nil:
		return corev1.IPv4Protocol
	default:
		return corev1.IPv6Protocol
	}
}

// cidrFamily returns the IP family of a CIDR, or IPFamilyUnknown.
func cidrFamily(s string) corev1.IPFamily {
	ip, _, err := net.ParseCIDR(s)
	if err != nil {
		return corev1.IPFamilyUnknown
	}
	return FamilyOf(ip.String())
}

// OtherFamily returns the family that is not f.
func OtherFamily(f corev1.IPFamily) corev1.IPFamily {
	if f == corev1.IPv6Protocol {
		return corev1.IPv4Protocol
	}
	return corev1.IPv6Protocol
}

// IsDualStackIPs reports whether ips holds exactly one address of each family.
func IsDualStackIPs(ips []string) bool {
	return len(ips) == 2 && FamilyOf(ips[0]) != corev1.IPFamilyUnknown &&
		FamilyOf(ips[1]) != corev1.IPFamilyUnknown && FamilyOf(ips[0]) != FamilyOf(ips[1])
}

// IsDualStackCIDRs reports whether cidrs holds exactly one range of each family.
func IsDualStackCIDRs(cidrs []string) bool {
	return len(cidrs) == 2 && cidrFamily(cidrs[0]) != corev1.IPFamilyUnknown &&
		cidrFamily(cidrs[1]) != corev1.IPFamilyUnknown && cidrFamily(cidrs[0]) != cidrFamily(cidrs[1])
}

// TrimmedCIDR checks a CIDR that may carry surrounding spaces, as load
// balancer source ranges historically could.
func TrimmedCIDR(p *field.Path, s string) field.ErrorList {
	return CIDR(p, strings.TrimSpace(s))
}
