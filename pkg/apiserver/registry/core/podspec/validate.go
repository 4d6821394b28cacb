package podspec

import (
	"fmt"
	"math"
	"net"
	"strconv"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// ValidatePodTemplateSpec checks a pod template: the labels and annotations
// of its metadata, and its spec. Templates may not hold ephemeral containers.
func ValidatePodTemplateSpec(t *corev1.PodTemplateSpec, p *field.Path) field.ErrorList {
	mp := p.Child("metadata")
	errs := validation.Labels(t.Labels, mp.Child("labels"))
	errs = append(errs, validation.Annotations(t.Annotations, mp.Child("annotations"))...)
	sp := p.Child("spec")
	errs = append(errs, ValidatePodSpec(&t.Spec, sp)...)
	if len(t.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(sp.Child("ephemeralContainers"), "ephemeral containers are not allowed in a pod template"))
	}
	return errs
}

// ValidatePodSpec checks a defaulted pod spec; p is the path of the spec.
func ValidatePodSpec(spec *corev1.PodSpec, p *field.Path) field.ErrorList {
	vols, errs := validateVolumes(spec.Volumes, p.Child("volumes"))
	errs = append(errs, validateAllContainers(spec, vols, p)...)
	errs = append(errs, ValidateRestartPolicy(spec.RestartPolicy, p.Child("restartPolicy"))...)
	errs = append(errs, validateDNS(spec, p)...)
	errs = append(errs, validation.Labels(spec.NodeSelector, p.Child("nodeSelector"))...)
	errs = append(errs, validateNames(spec, p)...)
	if s := spec.ActiveDeadlineSeconds; s != nil && (*s < 1 || *s > math.MaxInt32) {
		errs = append(errs, field.Invalid(p.Child("activeDeadlineSeconds"), *s, inclusiveRange(1, math.MaxInt32)))
	}
	if spec.ShareProcessNamespace != nil && *spec.ShareProcessNamespace && spec.HostPID {
		errs = append(errs, field.Invalid(p.Child("shareProcessNamespace"), *spec.ShareProcessNamespace, "shareProcessNamespace and hostPID cannot both be enabled"))
	}
	errs = append(errs, validatePodSecurityContext(spec.SecurityContext, p.Child("securityContext"))...)
	errs = append(errs, validateTolerations(spec.Tolerations, p.Child("tolerations"))...)
	errs = append(errs, validateAffinity(spec.Affinity, p.Child("affinity"))...)
	errs = append(errs, validateTopologySpread(spec.TopologySpreadConstraints, p.Child("topologySpreadConstraints"))...)
	errs = append(errs, validateMisc(spec, p)...)
	return errs
}

func inclusiveRange(lo, hi int64) string {
	return fmt.Sprintf("must be between %d and %d, inclusive", lo, hi)
}

// ValidateRestartPolicy checks a pod restart policy; p is the path of the field.
func ValidateRestartPolicy(policy corev1.RestartPolicy, p *field.Path) field.ErrorList {
	return enum(policy, p, corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever)
}

// enum checks a required enumerated value.
func enum[T ~string](v T, p *field.Path, allowed ...T) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	return optionalEnum(v, p, allowed...)
}

// optionalEnum checks an enumerated value that may be empty.
func optionalEnum[T ~string](v T, p *field.Path, allowed ...T) field.ErrorList {
	if v == "" {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(p, v, allowed)}
}

// checkName runs a name check on a value, when required or set.
func checkName(fn validation.NameFunc, v string, p *field.Path, required bool) field.ErrorList {
	if v == "" {
		if required {
			return field.ErrorList{field.Required(p, "")}
		}
		return nil
	}
	var errs field.ErrorList
	for _, msg := range fn(v) {
		errs = append(errs, field.Invalid(p, v, msg))
	}
	return errs
}

func validateDNS(spec *corev1.PodSpec, p *field.Path) field.ErrorList {
	errs := enum(spec.DNSPolicy, p.Child("dnsPolicy"),
		corev1.DNSClusterFirstWithHostNet, corev1.DNSClusterFirst, corev1.DNSDefault, corev1.DNSNone)
	cp := p.Child("dnsConfig")
	cfg := spec.DNSConfig
	if spec.DNSPolicy == corev1.DNSNone && (cfg == nil || len(cfg.Nameservers) == 0) {
		errs = append(errs, field.Required(cp.Child("nameservers"), "at least one nameserver is required when dnsPolicy is None"))
	}
	if cfg == nil {
		return errs
	}
	if len(cfg.Nameservers) > 3 {
		errs = append(errs, field.Invalid(cp.Child("nameservers"), cfg.Nameservers, "must not have more than 3 nameservers"))
	}
	for i, ns := range cfg.Nameservers {
		if net.ParseIP(ns) == nil {
			errs = append(errs, field.Invalid(cp.Child("nameservers").Index(i), ns, "must be a valid IP address"))
		}
	}
	if len(cfg.Searches) > 32 {
		errs = append(errs, field.Invalid(cp.Child("searches"), cfg.Searches, "must not have more than 32 search paths"))
	}
	for i, s := range cfg.Searches {
		if s != "." {
			errs = append(errs, checkName(validation.IsDNS1123Subdomain, trimDot(s), cp.Child("searches").Index(i), true)...)
		}
	}
	for i, o := range cfg.Options {
		if o.Name == "" {
			errs = append(errs, field.Required(cp.Child("options").Index(i).Child("name"), ""))
		}
	}
	return errs
}

func trimDot(s string) string {
	if len(s) > 1 && s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}

// validateNames checks the optional names and references of a pod spec.
func validateNames(spec *corev1.PodSpec, p *field.Path) field.ErrorList {
	sub := validation.IsDNS1123Subdomain
	errs := checkName(sub, spec.ServiceAccountName, p.Child("serviceAccountName"), false)
	errs = append(errs, checkName(sub, spec.NodeName, p.Child("nodeName"), false)...)
	errs = append(errs, checkName(sub, spec.SchedulerName, p.Child("schedulerName"), false)...)
	errs = append(errs, checkName(sub, spec.PriorityClassName, p.Child("priorityClassName"), false)...)
	errs = append(errs, checkName(validation.IsDNS1123Label, spec.Hostname, p.Child("hostname"), false)...)
	errs = append(errs, checkName(validation.IsDNS1123Label, spec.Subdomain, p.Child("subdomain"), false)...)
	if rc := spec.RuntimeClassName; rc != nil {
		errs = append(errs, checkName(sub, *rc, p.Child("runtimeClassName"), true)...)
	}
	for i, s := range spec.ImagePullSecrets {
		errs = append(errs, checkName(sub, s.Name, p.Child("imagePullSecrets").Index(i).Child("name"), false)...)
	}
	return errs
}

// validateMisc checks the smaller pod spec fields: readiness gates, host
// aliases, scheduling gates, the OS, overhead and the preemption policy.
func validateMisc(spec *corev1.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, g := range spec.ReadinessGates {
		errs = append(errs, checkName(validation.IsQualifiedName, string(g.ConditionType), p.Child("readinessGates").Index(i).Child("conditionType"), true)...)
	}
	for i, ha := range spec.HostAliases {
		ip := p.Child("hostAliases").Index(i)
		if net.ParseIP(ha.IP) == nil {
			errs = append(errs, field.Invalid(ip.Child("ip"), ha.IP, "must be a valid IP address"))
		}
		for j, h := range ha.Hostnames {
			errs = append(errs, checkName(validation.IsDNS1123Subdomain, h, ip.Child("hostnames").Index(j), true)...)
		}
	}
	gates := map[string]bool{}
	for i, g := range spec.SchedulingGates {
		gp := p.Child("schedulingGates").Index(i).Child("name")
		errs = append(errs, checkName(validation.IsQualifiedName, g.Name, gp, true)...)
		if gates[g.Name] {
			errs = append(errs, field.Duplicate(gp, g.Name))
		}
		gates[g.Name] = true
	}
	if spec.OS != nil {
		errs = append(errs, enum(spec.OS.Name, p.Child("os", "name"), corev1.Linux, corev1.Windows)...)
	}
	if pp := spec.PreemptionPolicy; pp != nil {
		errs = append(errs, enum(*pp, p.Child("preemptionPolicy"), corev1.PreemptLowerPriority, corev1.PreemptNever)...)
	}
	errs = append(errs, validateResourceList(spec.Overhead, p.Child("overhead"))...)
	if spec.Resources != nil {
		errs = append(errs, validateRequirements(spec.Resources, p.Child("resources"))...)
	}
	return errs
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func parseIP(s string) net.IP { return net.ParseIP(s) }
