package podspec

import (
	"path"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// The kinds of container a pod holds; some rules differ between them.
type containerKind int

const (
	regularContainer containerKind = iota
	initContainer
	ephemeralContainer
)

// validateAllContainers checks the containers, init containers and
// ephemeral containers of a spec, and that their names are unique across
// the three lists.
func validateAllContainers(spec *corev1.PodSpec, vols map[string]*corev1.VolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(spec.Containers) == 0 {
		errs = append(errs, field.Required(p.Child("containers"), ""))
	}
	names := map[string]bool{}
	check := func(c *corev1.Container, kind containerKind, cp *field.Path) {
		errs = append(errs, validateContainer(c, kind, vols, cp)...)
		if c.Name != "" && names[c.Name] {
			errs = append(errs, field.Duplicate(cp.Child("name"), c.Name))
		}
		names[c.Name] = true
	}
	for i := range spec.Containers {
		check(&spec.Containers[i], regularContainer, p.Child("containers").Index(i))
	}
	for i := range spec.InitContainers {
		check(&spec.InitContainers[i], initContainer, p.Child("initContainers").Index(i))
	}
	for i := range spec.EphemeralContainers {
		ec := &spec.EphemeralContainers[i]
		check((*corev1.Container)(&ec.EphemeralContainerCommon), ephemeralContainer, p.Child("ephemeralContainers").Index(i))
	}
	errs = append(errs, validateHostPorts(spec, p)...)
	return errs
}

// validateContainer checks one container of the given kind.
func validateContainer(c *corev1.Container, kind containerKind, vols map[string]*corev1.VolumeSource, p *field.Path) field.ErrorList {
	errs := checkName(validation.IsDNS1123Label, c.Name, p.Child("name"), true)
	if c.Image == "" {
		errs = append(errs, field.Required(p.Child("image"), ""))
	}
	errs = append(errs, enum(c.TerminationMessagePolicy, p.Child("terminationMessagePolicy"),
		corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError)...)
	errs = append(errs, enum(c.ImagePullPolicy, p.Child("imagePullPolicy"),
		corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever)...)
	errs = append(errs, validatePorts(c.Ports, p.Child("ports"))...)
	errs = append(errs, validateEnv(c.Env, p.Child("env"))...)
	errs = append(errs, validateEnvFrom(c.EnvFrom, p.Child("envFrom"))...)
	errs = append(errs, validateMounts(c, vols, p)...)
	errs = append(errs, validateRequirements(&c.Resources, p.Child("resources"))...)
	errs = append(errs, validateSecurityContext(c.SecurityContext, p.Child("securityContext"))...)
	switch kind {
	case regularContainer:
		errs = append(errs, validateRegularOnly(c, p)...)
	case initContainer:
		errs = append(errs, validateInitOnly(c, p)...)
	case ephemeralContainer:
		errs = append(errs, validateEphemeralOnly(c, p)...)
	}
	return errs
}

// validateRegularOnly checks the probes, hooks and restart policy of an
// application container.
func validateRegularOnly(c *corev1.Container, p *field.Path) field.ErrorList {
	errs := validateProbes(c, p)
	errs = append(errs, validateLifecycle(c.Lifecycle, p.Child("lifecycle"))...)
	if c.RestartPolicy != nil {
		errs = append(errs, field.Forbidden(p.Child("restartPolicy"), "may not be set for non-init containers"))
	}
	if len(c.RestartPolicyRules) > 0 {
		errs = append(errs, field.Forbidden(p.Child("restartPolicyRules"), "may not be set for non-init containers"))
	}
	return errs
}

// validateInitOnly checks an init container: only a sidecar (restartPolicy
// Always) may have probes and lifecycle hooks.
func validateInitOnly(c *corev1.Container, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c.RestartPolicy != nil {
		errs = append(errs, enum(*c.RestartPolicy, p.Child("restartPolicy"), corev1.ContainerRestartPolicyAlways)...)
		if *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			errs = append(errs, validateProbes(c, p)...)
			return append(errs, validateLifecycle(c.Lifecycle, p.Child("lifecycle"))...)
		}
	}
	const msg = "may not be set for init containers without restartPolicy=Always"
	if c.Lifecycle != nil {
		errs = append(errs, field.Forbidden(p.Child("lifecycle"), msg))
	}
	if c.LivenessProbe != nil {
		errs = append(errs, field.Forbidden(p.Child("livenessProbe"), msg))
	}
	if c.ReadinessProbe != nil {
		errs = append(errs, field.Forbidden(p.Child("readinessProbe"), msg))
	}
	if c.StartupProbe != nil {
		errs = append(errs, field.Forbidden(p.Child("startupProbe"), msg))
	}
	return errs
}

// validateEphemeralOnly forbids what an ephemeral container may not have:
// it serves debugging, not the workload.
func validateEphemeralOnly(c *corev1.Container, p *field.Path) field.ErrorList {
	const msg = "cannot be set for an Ephemeral Container"
	var errs field.ErrorList
	forbid := func(set bool, name string) {
		if set {
			errs = append(errs, field.Forbidden(p.Child(name), msg))
		}
	}
	forbid(len(c.Ports) > 0, "ports")
	forbid(len(c.Resources.Limits) > 0 || len(c.Resources.Requests) > 0 || len(c.Resources.Claims) > 0, "resources")
	forbid(len(c.ResizePolicy) > 0, "resizePolicy")
	forbid(c.Lifecycle != nil, "lifecycle")
	forbid(c.LivenessProbe != nil, "livenessProbe")
	forbid(c.ReadinessProbe != nil, "readinessProbe")
	forbid(c.StartupProbe != nil, "startupProbe")
	forbid(c.RestartPolicy != nil, "restartPolicy")
	forbid(len(c.RestartPolicyRules) > 0, "restartPolicyRules")
	for i, m := range c.VolumeMounts {
		mp := p.Child("volumeMounts").Index(i)
		if m.SubPath != "" {
			errs = append(errs, field.Forbidden(mp.Child("subPath"), msg))
		}
		if m.SubPathExpr != "" {
			errs = append(errs, field.Forbidden(mp.Child("subPathExpr"), msg))
		}
	}
	return append(errs, ValidateImageForPod(c.Image, p.Child("image"))...)
}

// ValidateImageForPod applies the rule pods add to templates: the image
// may not have leading or trailing whitespace.
func ValidateImageForPod(image string, p *field.Path) field.ErrorList {
	if strings.TrimSpace(image) != image {
		return field.ErrorList{field.Invalid(p, image, "must not have leading or trailing whitespace")}
	}
	return nil
}

// validatePorts checks a container's ports: names (unique, IANA service
// names), numbers and protocols.
func validatePorts(ports []corev1.ContainerPort, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, port := range ports {
		ip := p.Index(i)
		if port.Name != "" {
			if msgs := portNameErrors(port.Name); len(msgs) > 0 {
				for _, m := range msgs {
					errs = append(errs, field.Invalid(ip.Child("name"), port.Name, m))
				}
			} else if names[port.Name] {
				errs = append(errs, field.Duplicate(ip.Child("name"), port.Name))
			}
			names[port.Name] = true
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(ip.Child("containerPort"), ""))
		} else {
			errs = append(errs, checkPortNumber(port.ContainerPort, ip.Child("containerPort"))...)
		}
		if port.HostPort != 0 {
			errs = append(errs, checkPortNumber(port.HostPort, ip.Child("hostPort"))...)
		}
		errs = append(errs, enum(port.Protocol, ip.Child("protocol"), corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP)...)
		if port.HostIP != "" && parseIP(port.HostIP) == nil {
			errs = append(errs, field.Invalid(ip.Child("hostIP"), port.HostIP, "must be a valid IP address"))
		}
	}
	return errs
}

func checkPortNumber(n int32, p *field.Path) field.ErrorList {
	if n < 1 || n > 65535 {
		return field.ErrorList{field.Invalid(p, n, inclusiveRange(1, 65535))}
	}
	return nil
}

// portNameErrors checks an IANA service name: at most 15 characters of
// lowercase letters, digits and single inner hyphens, with a letter.
func portNameErrors(name string) []string {
	var msgs []string
	if len(name) > 15 {
		msgs = append(msgs, "must be no more than 15 characters")
	}
	letter := false
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z':
			letter = true
		case r >= '0' && r <= '9', r == '-':
		default:
			return append(msgs, "must contain only lowercase alphanumeric characters (a-z, 0-9), and hyphens (-)")
		}
	}
	if strings.Contains(name, "--") {
		msgs = append(msgs, "must not contain consecutive hyphens")
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		msgs = append(msgs, "must not begin or end with a hyphen")
	}
	if !letter {
		msgs = append(msgs, "must contain at least one letter (a-z)")
	}
	return msgs
}

// validateHostPorts checks host ports: under hostNetwork a host port must
// be unset or equal the container port, and no host port, protocol and
// address may be claimed twice among the containers, or among the init
// containers.
func validateHostPorts(spec *corev1.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	lists := []struct {
		name string
		cs   []corev1.Container
	}{{"containers", spec.Containers}, {"initContainers", spec.InitContainers}}
	for _, l := range lists {
		// Init containers run before the others, so each list is checked on its own.
		seen := map[string]bool{}
		for i, c := range l.cs {
			for j, port := range c.Ports {
				pp := p.Child(l.name).Index(i).Child("ports").Index(j).Child("hostPort")
				if spec.HostNetwork && port.HostPort != 0 && port.HostPort != port.ContainerPort {
					errs = append(errs, field.Invalid(pp, port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
				}
				if port.HostPort == 0 {
					continue
				}
				key := port.HostIP + "/" + string(port.Protocol) + "/" + itoa(int64(port.HostPort))
				if seen[key] {
					errs = append(errs, field.Duplicate(pp, itoa(int64(port.HostPort))+"/"+string(port.Protocol)))
				}
				seen[key] = true
			}
		}
	}
	return errs
}

// validateMounts checks a container's volume mounts and devices against the
// pod's volumes.
func validateMounts(c *corev1.Container, vols map[string]*corev1.VolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	devicePaths := map[string]bool{}
	for i, d := range c.VolumeDevices {
		dp := p.Child("volumeDevices").Index(i)
		if d.Name == "" {
			errs = append(errs, field.Required(dp.Child("name"), ""))
		} else if src, ok := vols[d.Name]; !ok || src.PersistentVolumeClaim == nil {
			errs = append(errs, field.Invalid(dp.Child("name"), d.Name, "must match the name of a persistentVolumeClaim volume"))
		}
		switch {
		case d.DevicePath == "":
			errs = append(errs, field.Required(dp.Child("devicePath"), ""))
		case devicePaths[d.DevicePath]:
			errs = append(errs, field.Invalid(dp.Child("devicePath"), d.DevicePath, "must be unique"))
		}
		devicePaths[d.DevicePath] = true
	}
	mountPaths := map[string]bool{}
	for i := range c.VolumeMounts {
		m := &c.VolumeMounts[i]
		mp := p.Child("volumeMounts").Index(i)
		errs = append(errs, validateMount(m, c, vols, mp)...)
		if m.MountPath == "" {
			continue
		}
		if mountPaths[m.MountPath] {
			errs = append(errs, field.Invalid(mp.Child("mountPath"), m.MountPath, "must be unique"))
		}
		if devicePaths[m.MountPath] {
			errs = append(errs, field.Invalid(mp.Child("mountPath"), m.MountPath, "must not already exist as a path in volumeDevices"))
		}
		mountPaths[m.MountPath] = true
	}
	return errs
}

func validateMount(m *corev1.VolumeMount, c *corev1.Container, vols map[string]*corev1.VolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else if _, ok := vols[m.Name]; !ok {
		errs = append(errs, field.NotFound(p.Child("name"), m.Name))
	}
	if strings.TrimSpace(m.MountPath) == "" {
		errs = append(errs, field.Required(p.Child("mountPath"), ""))
	}
	if m.SubPath != "" {
		errs = append(errs, validateRelativePath(m.SubPath, p.Child("subPath"))...)
		if m.SubPathExpr != "" {
			errs = append(errs, field.Invalid(p.Child("subPathExpr"), m.SubPathExpr, "subPathExpr and subPath are mutually exclusive"))
		}
	} else if m.SubPathExpr != "" {
		errs = append(errs, validateRelativePath(m.SubPathExpr, p.Child("subPathExpr"))...)
	}
	if mp := m.MountPropagation; mp != nil {
		errs = append(errs, enum(*mp, p.Child("mountPropagation"), corev1.MountPropagationNone,
			corev1.MountPropagationHostToContainer, corev1.MountPropagationBidirectional)...)
		privileged := c.SecurityContext != nil && c.SecurityContext.Privileged != nil && *c.SecurityContext.Privileged
		if *mp == corev1.MountPropagationBidirectional && !privileged {
			errs = append(errs, field.Forbidden(p.Child("mountPropagation"), "Bidirectional mount propagation is available only to privileged containers"))
		}
	}
	if rro := m.RecursiveReadOnly; rro != nil {
		errs = append(errs, enum(*rro, p.Child("recursiveReadOnly"), corev1.RecursiveReadOnlyDisabled,
			corev1.RecursiveReadOnlyIfPossible, corev1.RecursiveReadOnlyEnabled)...)
		if *rro != corev1.RecursiveReadOnlyDisabled && !m.ReadOnly {
			errs = append(errs, field.Forbidden(p.Child("recursiveReadOnly"), "may only be specified when readOnly is true"))
		}
	}
	return errs
}

// validateRelativePath checks a path that must stay below its root: relative
// and without ".." elements.
func validateRelativePath(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if path.IsAbs(v) || strings.HasPrefix(v, `\`) {
		errs = append(errs, field.Invalid(p, v, "must be a relative path"))
	}
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			errs = append(errs, field.Invalid(p, v, "must not contain '..'"))
			break
		}
	}
	return errs
}
