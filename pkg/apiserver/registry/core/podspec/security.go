package podspec

import (
	"math"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// checkID checks a user or group id: 0 to 2^31-1.
func checkID(id *int64, p *field.Path) field.ErrorList {
	if id != nil && (*id < 0 || *id > math.MaxInt32) {
		return field.ErrorList{field.Invalid(p, *id, inclusiveRange(0, math.MaxInt32))}
	}
	return nil
}

func validatePodSecurityContext(sc *corev1.PodSecurityContext, p *field.Path) field.ErrorList {
	if sc == nil {
		return nil
	}
	errs := checkID(sc.RunAsUser, p.Child("runAsUser"))
	errs = append(errs, checkID(sc.RunAsGroup, p.Child("runAsGroup"))...)
	errs = append(errs, checkID(sc.FSGroup, p.Child("fsGroup"))...)
	for i := range sc.SupplementalGroups {
		errs = append(errs, checkID(&sc.SupplementalGroups[i], p.Child("supplementalGroups").Index(i))...)
	}
	if v := sc.SupplementalGroupsPolicy; v != nil {
		errs = append(errs, enum(*v, p.Child("supplementalGroupsPolicy"),
			corev1.SupplementalGroupsPolicyMerge, corev1.SupplementalGroupsPolicyStrict)...)
	}
	if v := sc.FSGroupChangePolicy; v != nil {
		errs = append(errs, enum(*v, p.Child("fsGroupChangePolicy"),
			corev1.FSGroupChangeOnRootMismatch, corev1.FSGroupChangeAlways)...)
	}
	if v := sc.SELinuxChangePolicy; v != nil {
		errs = append(errs, enum(*v, p.Child("seLinuxChangePolicy"),
			corev1.SELinuxChangePolicyRecursive, corev1.SELinuxChangePolicyMountOption)...)
	}
	names := map[string]bool{}
	for i, s := range sc.Sysctls {
		np := p.Child("sysctls").Index(i).Child("name")
		switch {
		case s.Name == "":
			errs = append(errs, field.Required(np, ""))
		case names[s.Name]:
			errs = append(errs, field.Duplicate(np, s.Name))
		}
		names[s.Name] = true
	}
	errs = append(errs, validateSeccomp(sc.SeccompProfile, p.Child("seccompProfile"))...)
	return append(errs, validateAppArmor(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
}

func validateSecurityContext(sc *corev1.SecurityContext, p *field.Path) field.ErrorList {
	if sc == nil {
		return nil
	}
	errs := checkID(sc.RunAsUser, p.Child("runAsUser"))
	errs = append(errs, checkID(sc.RunAsGroup, p.Child("runAsGroup"))...)
	if sc.ProcMount != nil {
		errs = append(errs, enum(*sc.ProcMount, p.Child("procMount"), corev1.DefaultProcMount, corev1.UnmaskedProcMount)...)
	}
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if sc.Privileged != nil && *sc.Privileged {
			errs = append(errs, field.Invalid(p, "", "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				if c == "CAP_SYS_ADMIN" || c == "SYS_ADMIN" {
					errs = append(errs, field.Invalid(p, "", "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	errs = append(errs, validateSeccomp(sc.SeccompProfile, p.Child("seccompProfile"))...)
	return append(errs, validateAppArmor(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
}

func validateSeccomp(sp *corev1.SeccompProfile, p *field.Path) field.ErrorList {
	if sp == nil {
		return nil
	}
	errs := enum(sp.Type, p.Child("type"), corev1.SeccompProfileTypeUnconfined,
		corev1.SeccompProfileTypeRuntimeDefault, corev1.SeccompProfileTypeLocalhost)
	return append(errs, validateLocalhostProfile(sp.Type == corev1.SeccompProfileTypeLocalhost, sp.LocalhostProfile, p)...)
}

func validateAppArmor(ap *corev1.AppArmorProfile, p *field.Path) field.ErrorList {
	if ap == nil {
		return nil
	}
	errs := enum(ap.Type, p.Child("type"), corev1.AppArmorProfileTypeUnconfined,
		corev1.AppArmorProfileTypeRuntimeDefault, corev1.AppArmorProfileTypeLocalhost)
	return append(errs, validateLocalhostProfile(ap.Type == corev1.AppArmorProfileTypeLocalhost, ap.LocalhostProfile, p)...)
}

// validateLocalhostProfile checks that a profile path is given exactly
// when the profile type is Localhost.
func validateLocalhostProfile(localhost bool, profile *string, p *field.Path) field.ErrorList {
	lp := p.Child("localhostProfile")
	switch {
	case localhost && (profile == nil || *profile == ""):
		return field.ErrorList{field.Required(lp, "must be set when the profile type is Localhost")}
	case !localhost && profile != nil:
		return field.ErrorList{field.Invalid(lp, *profile, "can only be set when the profile type is Localhost")}
	}
	return nil
}
