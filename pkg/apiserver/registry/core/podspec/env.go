package podspec

import (
	"regexp"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// envVarNameErrors checks an environment variable name: any printable
// ASCII character but '=', as upstream accepts since relaxing the old
// C-identifier rule.
func envVarNameErrors(name string) []string {
	for _, r := range name {
		if r < ' ' || r > '~' || r == '=' {
			return []string{"a valid environment variable name must consist only of printable ASCII characters other than '='"}
		}
	}
	return nil
}

var configMapKeyRe = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)

// configMapKeyErrors checks a key of a config map or secret.
func configMapKeyErrors(key string) []string {
	var msgs []string
	if len(key) > validation.DNS1123SubdomainMaxLength {
		msgs = append(msgs, "must be no more than 253 characters")
	}
	if !configMapKeyRe.MatchString(key) {
		msgs = append(msgs, "a valid config key must consist of alphanumeric characters, '-', '_' or '.'")
	}
	switch {
	case key == ".":
		msgs = append(msgs, "must not be '.'")
	case key == "..":
		msgs = append(msgs, "must not be '..'")
	case strings.HasPrefix(key, ".."):
		msgs = append(msgs, "must not start with '..'")
	}
	return msgs
}

func validateEnv(vars []corev1.EnvVar, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		ip := p.Index(i)
		errs = append(errs, checkName(envVarNameErrors, ev.Name, ip.Child("name"), true)...)
		if ev.ValueFrom != nil {
			errs = append(errs, validateEnvSource(ev, ip.Child("valueFrom"))...)
		}
	}
	return errs
}

// validateEnvSource checks that a valueFrom names exactly one source, and that source.
func validateEnvSource(ev corev1.EnvVar, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	from := ev.ValueFrom
	n := 0
	if from.FieldRef != nil {
		n++
		errs = append(errs, validateFieldRef(from.FieldRef, envFieldPaths, p.Child("fieldRef"))...)
	}
	if from.ResourceFieldRef != nil {
		n++
		errs = append(errs, validateResourceFieldRef(from.ResourceFieldRef, false, p.Child("resourceFieldRef"))...)
	}
	if ref := from.ConfigMapKeyRef; ref != nil {
		n++
		errs = append(errs, validateKeyRef(ref.Name, ref.Key, p.Child("configMapKeyRef"))...)
	}
	if ref := from.SecretKeyRef; ref != nil {
		n++
		errs = append(errs, validateKeyRef(ref.Name, ref.Key, p.Child("secretKeyRef"))...)
	}
	if ref := from.FileKeyRef; ref != nil {
		n++
		errs = append(errs, validateFileKeyRef(ref, p.Child("fileKeyRef"))...)
	}
	switch {
	case ev.Value != "" && n > 0:
		errs = append(errs, field.Invalid(p, "", "may not be specified when `value` is not empty"))
	case n == 0:
		errs = append(errs, field.Invalid(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
	case n > 1:
		errs = append(errs, field.Invalid(p, "", "may not have more than one field specified at a time"))
	}
	return errs
}

func validateKeyRef(name, key string, p *field.Path) field.ErrorList {
	errs := checkName(validation.IsDNS1123Subdomain, name, p.Child("name"), true)
	return append(errs, checkName(configMapKeyErrors, key, p.Child("key"), true)...)
}

func validateFileKeyRef(ref *corev1.FileKeySelector, p *field.Path) field.ErrorList {
	errs := checkName(validation.IsDNS1123Label, ref.VolumeName, p.Child("volumeName"), true)
	if ref.Path == "" {
		errs = append(errs, field.Required(p.Child("path"), ""))
	} else {
		errs = append(errs, validateRelativePath(ref.Path, p.Child("path"))...)
	}
	return append(errs, checkName(envVarNameErrors, ref.Key, p.Child("key"), true)...)
}

// The pod fields an environment variable and a downward API file may read.
var (
	envFieldPaths = []string{
		"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
		"status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
	}
	volumeFieldPaths = []string{
		"metadata.name", "metadata.namespace", "metadata.uid", "metadata.labels", "metadata.annotations",
	}
)

// validateFieldRef checks a pod field reference; subscripted labels and
// annotations ("metadata.labels['app']") are allowed besides the listed paths.
func validateFieldRef(ref *corev1.ObjectFieldSelector, allowed []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if ref.APIVersion == "" {
		errs = append(errs, field.Required(p.Child("apiVersion"), ""))
	} else if ref.APIVersion != "v1" {
		errs = append(errs, field.NotSupported(p.Child("apiVersion"), ref.APIVersion, []string{"v1"}))
	}
	fp := p.Child("fieldPath")
	if ref.FieldPath == "" {
		return append(errs, field.Required(fp, ""))
	}
	for _, prefix := range []string{"metadata.labels", "metadata.annotations"} {
		if rest, ok := strings.CutPrefix(ref.FieldPath, prefix+"['"); ok {
			key, ok := strings.CutSuffix(rest, "']")
			if !ok {
				return append(errs, field.Invalid(fp, ref.FieldPath, "must be of the form "+prefix+"['<key>']"))
			}
			for _, msg := range validation.IsQualifiedName(strings.ToLower(key)) {
				errs = append(errs, field.Invalid(fp, ref.FieldPath, msg))
			}
			return errs
		}
	}
	for _, a := range allowed {
		if ref.FieldPath == a {
			return errs
		}
	}
	return append(errs, field.NotSupported(fp, ref.FieldPath, allowed))
}

var resourceFieldNames = []string{
	"limits.cpu", "limits.memory", "limits.ephemeral-storage",
	"requests.cpu", "requests.memory", "requests.ephemeral-storage",
}

// validateResourceFieldRef checks a container resource reference; in a
// volume the container must be named.
func validateResourceFieldRef(ref *corev1.ResourceFieldSelector, needContainer bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if needContainer && ref.ContainerName == "" {
		errs = append(errs, field.Required(p.Child("containerName"), ""))
	}
	rp := p.Child("resource")
	switch {
	case ref.Resource == "":
		errs = append(errs, field.Required(rp, ""))
	case strings.HasPrefix(ref.Resource, "limits.hugepages-"), strings.HasPrefix(ref.Resource, "requests.hugepages-"):
	default:
		errs = append(errs, optionalEnum(ref.Resource, rp, resourceFieldNames...)...)
	}
	if quantitySign(ref.Divisor) < 0 {
		errs = append(errs, field.Invalid(p.Child("divisor"), quantityString(ref.Divisor), "must be greater than or equal to 0"))
	}
	return errs
}

func validateEnvFrom(sources []corev1.EnvFromSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, s := range sources {
		ip := p.Index(i)
		if s.Prefix != "" {
			errs = append(errs, checkName(envVarNameErrors, s.Prefix, ip.Child("prefix"), false)...)
		}
		n := 0
		if s.ConfigMapRef != nil {
			n++
			errs = append(errs, checkName(validation.IsDNS1123Subdomain, s.ConfigMapRef.Name, ip.Child("configMapRef", "name"), true)...)
		}
		if s.SecretRef != nil {
			n++
			errs = append(errs, checkName(validation.IsDNS1123Subdomain, s.SecretRef.Name, ip.Child("secretRef", "name"), true)...)
		}
		switch {
		case n == 0:
			errs = append(errs, field.Invalid(ip, "", "must specify one of: `configMapRef` or `secretRef`"))
		case n > 1:
			errs = append(errs, field.Invalid(ip, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}
