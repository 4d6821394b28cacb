package podspec

import (
	"path"
	"strings"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/validation"
	"platform.io/platform/pkg/apiserver/validation/field"
)

// validateVolumes checks the pod's volumes and returns their sources by name.
func validateVolumes(vols []corev1.Volume, p *field.Path) (map[string]*corev1.VolumeSource, field.ErrorList) {
	var errs field.ErrorList
	byName := map[string]*corev1.VolumeSource{}
	for i := range vols {
		v := &vols[i]
		ip := p.Index(i)
		np := ip.Child("name")
		errs = append(errs, checkName(validation.IsDNS1123Label, v.Name, np, true)...)
		if _, dup := byName[v.Name]; dup && v.Name != "" {
			errs = append(errs, field.Duplicate(np, v.Name))
		} else {
			byName[v.Name] = &v.VolumeSource
		}
		errs = append(errs, validateVolumeSource(&v.VolumeSource, ip)...)
	}
	return byName, errs
}

// validateVolumeSource checks that exactly one source is set, and that source.
func validateVolumeSource(src *corev1.VolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	one := func(set bool, name string, check func(*field.Path) field.ErrorList) {
		if !set {
			return
		}
		n++
		if n > 1 {
			errs = append(errs, field.Forbidden(p.Child(name), "may not specify more than 1 volume type"))
			return
		}
		errs = append(errs, check(p.Child(name))...)
	}
	one(src.HostPath != nil, "hostPath", func(fp *field.Path) field.ErrorList { return validateHostPath(src.HostPath, fp) })
	one(src.EmptyDir != nil, "emptyDir", func(fp *field.Path) field.ErrorList { return validateEmptyDir(src.EmptyDir, fp) })
	one(src.Secret != nil, "secret", func(fp *field.Path) field.ErrorList { return validateSecretVolume(src.Secret, fp) })
	one(src.NFS != nil, "nfs", func(fp *field.Path) field.ErrorList { return validateNFS(src.NFS, fp) })
	one(src.PersistentVolumeClaim != nil, "persistentVolumeClaim", func(fp *field.Path) field.ErrorList {
		return checkName(validation.IsDNS1123Subdomain, src.PersistentVolumeClaim.ClaimName, fp.Child("claimName"), true)
	})
	one(src.DownwardAPI != nil, "downwardAPI", func(fp *field.Path) field.ErrorList {
		errs := checkMode(src.DownwardAPI.DefaultMode, fp.Child("defaultMode"))
		return append(errs, validateDownwardItems(src.DownwardAPI.Items, fp.Child("items"))...)
	})
	one(src.ConfigMap != nil, "configMap", func(fp *field.Path) field.ErrorList { return validateConfigMapVolume(src.ConfigMap, fp) })
	one(src.Projected != nil, "projected", func(fp *field.Path) field.ErrorList { return validateProjected(src.Projected, fp) })
	one(src.CSI != nil, "csi", func(fp *field.Path) field.ErrorList {
		return checkName(validation.IsDNS1123Subdomain, strings.ToLower(src.CSI.Driver), fp.Child("driver"), true)
	})
	one(src.Image != nil, "image", func(fp *field.Path) field.ErrorList {
		return optionalEnum(src.Image.PullPolicy, fp.Child("pullPolicy"), corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever)
	})
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a volume type"))
	}
	return errs
}

func validateHostPath(h *corev1.HostPathVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if h.Path == "" {
		errs = append(errs, field.Required(p.Child("path"), ""))
	}
	for _, part := range strings.Split(h.Path, "/") {
		if part == ".." {
			errs = append(errs, field.Invalid(p.Child("path"), h.Path, "must not contain '..'"))
			break
		}
	}
	if h.Type != nil {
		errs = append(errs, optionalEnum(*h.Type, p.Child("type"), corev1.HostPathDirectoryOrCreate, corev1.HostPathDirectory,
			corev1.HostPathFileOrCreate, corev1.HostPathFile, corev1.HostPathSocket, corev1.HostPathCharDev, corev1.HostPathBlockDev)...)
	}
	return errs
}

func validateEmptyDir(e *corev1.EmptyDirVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !strings.HasPrefix(string(e.Medium), string(corev1.StorageMediumHugePagesPrefix)) {
		errs = append(errs, optionalEnum(e.Medium, p.Child("medium"), corev1.StorageMediumMemory, corev1.StorageMediumHugePages)...)
	}
	if e.SizeLimit != nil && quantitySign(*e.SizeLimit) < 0 {
		errs = append(errs, field.Invalid(p.Child("sizeLimit"), quantityString(*e.SizeLimit), "must be greater than or equal to 0"))
	}
	return errs
}

func validateNFS(n *corev1.NFSVolumeSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if n.Server == "" {
		errs = append(errs, field.Required(p.Child("server"), ""))
	}
	switch {
	case n.Path == "":
		errs = append(errs, field.Required(p.Child("path"), ""))
	case !path.IsAbs(n.Path):
		errs = append(errs, field.Invalid(p.Child("path"), n.Path, "must be an absolute path"))
	}
	return errs
}

// checkMode checks a file mode: 0 to 0777.
func checkMode(mode *int32, p *field.Path) field.ErrorList {
	if mode != nil && (*mode < 0 || *mode > 0777) {
		return field.ErrorList{field.Invalid(p, *mode, "must be a number between 0 and 0777 (octal), both inclusive")}
	}
	return nil
}

func validateSecretVolume(s *corev1.SecretVolumeSource, p *field.Path) field.ErrorList {
	errs := checkName(validation.IsDNS1123Subdomain, s.SecretName, p.Child("secretName"), true)
	errs = append(errs, checkMode(s.DefaultMode, p.Child("defaultMode"))...)
	return append(errs, validateKeyToPaths(s.Items, p.Child("items"))...)
}

func validateConfigMapVolume(c *corev1.ConfigMapVolumeSource, p *field.Path) field.ErrorList {
	errs := checkName(validation.IsDNS1123Subdomain, c.Name, p.Child("name"), true)
	errs = append(errs, checkMode(c.DefaultMode, p.Child("defaultMode"))...)
	return append(errs, validateKeyToPaths(c.Items, p.Child("items"))...)
}

func validateKeyToPaths(items []corev1.KeyToPath, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, it := range items {
		ip := p.Index(i)
		errs = append(errs, checkName(configMapKeyErrors, it.Key, ip.Child("key"), true)...)
		errs = append(errs, validateFilePath(it.Path, ip.Child("path"))...)
		errs = append(errs, checkMode(it.Mode, ip.Child("mode"))...)
	}
	return errs
}

// validateFilePath checks the path of a file inside a volume: required,
// relative, without "..", not starting with "..".
func validateFilePath(v string, p *field.Path) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	errs := validateRelativePath(v, p)
	if strings.HasPrefix(v, "..") && len(errs) == 0 {
		errs = append(errs, field.Invalid(p, v, "must not start with '..'"))
	}
	return errs
}

func validateDownwardItems(items []corev1.DownwardAPIVolumeFile, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, it := range items {
		ip := p.Index(i)
		errs = append(errs, validateFilePath(it.Path, ip.Child("path"))...)
		errs = append(errs, checkMode(it.Mode, ip.Child("mode"))...)
		switch {
		case it.FieldRef != nil && it.ResourceFieldRef != nil:
			errs = append(errs, field.Invalid(ip, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		case it.FieldRef != nil:
			errs = append(errs, validateFieldRef(it.FieldRef, volumeFieldPaths, ip.Child("fieldRef"))...)
		case it.ResourceFieldRef != nil:
			errs = append(errs, validateResourceFieldRef(it.ResourceFieldRef, true, ip.Child("resourceFieldRef"))...)
		default:
			errs = append(errs, field.Required(ip, "one of fieldRef and resourceFieldRef is required"))
		}
	}
	return errs
}

func validateProjected(pv *corev1.ProjectedVolumeSource, p *field.Path) field.ErrorList {
	errs := checkMode(pv.DefaultMode, p.Child("defaultMode"))
	for i, s := range pv.Sources {
		sp := p.Child("sources").Index(i)
		n := 0
		one := func(set bool, name string, check func(*field.Path) field.ErrorList) {
			if !set {
				return
			}
			n++
			if n > 1 {
				errs = append(errs, field.Forbidden(sp.Child(name), "may not specify more than 1 volume type per source"))
				return
			}
			errs = append(errs, check(sp.Child(name))...)
		}
		one(s.Secret != nil, "secret", func(fp *field.Path) field.ErrorList {
			return append(checkName(validation.IsDNS1123Subdomain, s.Secret.Name, fp.Child("name"), true), validateKeyToPaths(s.Secret.Items, fp.Child("items"))...)
		})
		one(s.ConfigMap != nil, "configMap", func(fp *field.Path) field.ErrorList {
			return append(checkName(validation.IsDNS1123Subdomain, s.ConfigMap.Name, fp.Child("name"), true), validateKeyToPaths(s.ConfigMap.Items, fp.Child("items"))...)
		})
		one(s.DownwardAPI != nil, "downwardAPI", func(fp *field.Path) field.ErrorList {
			return validateDownwardItems(s.DownwardAPI.Items, fp.Child("items"))
		})
		one(s.ServiceAccountToken != nil, "serviceAccountToken", func(fp *field.Path) field.ErrorList {
			return validateTokenProjection(s.ServiceAccountToken, fp)
		})
		one(s.ClusterTrustBundle != nil, "clusterTrustBundle", func(fp *field.Path) field.ErrorList {
			return validateFilePath(s.ClusterTrustBundle.Path, fp.Child("path"))
		})
		one(s.PodCertificate != nil, "podCertificate", func(fp *field.Path) field.ErrorList {
			return checkName(validation.IsQualifiedName, s.PodCertificate.SignerName, fp.Child("signerName"), true)
		})
		if n == 0 {
			errs = append(errs, field.Required(sp, "must specify exactly 1 volume type per source"))
		}
	}
	return errs
}

func validateTokenProjection(t *corev1.ServiceAccountTokenProjection, p *field.Path) field.ErrorList {
	errs := validateFilePath(t.Path, p.Child("path"))
	if e := t.ExpirationSeconds; e != nil {
		switch {
		case *e < 600:
			errs = append(errs, field.Invalid(p.Child("expirationSeconds"), *e, "may not specify a duration less than 10 minutes"))
		case *e > 1<<32:
			errs = append(errs, field.Invalid(p.Child("expirationSeconds"), *e, "may not specify a duration larger than 2^32 seconds"))
		}
	}
	return errs
}
