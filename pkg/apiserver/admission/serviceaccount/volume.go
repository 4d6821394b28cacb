package serviceaccount

import (
	"strings"

	corev1 "platform.io/client/api/core/v1"
)

// The token volume and where it is mounted.
const (
	// VolumePrefix starts the name of the token volume; a random suffix of
	// five characters follows it.
	VolumePrefix = "platform-api-access-"
	// MountPath is where every container finds the token, the CA and the
	// namespace (the in-cluster client reads them there).
	MountPath = "/var/run/secrets/platform.io/serviceaccount"
	// RootCAConfigMap is the config map the root-ca-cert-publisher keeps in
	// every namespace, and RootCAKey its key holding the CA bundle.
	RootCAConfigMap = "platform-root-ca.crt"
	RootCAKey       = "ca.crt"
	// TokenExpirationSeconds is the lifetime asked for the projected token:
	// upstream's 3607, an hour and seven seconds, which marks the token as
	// one a node agent refreshes (the server may extend it).
	TokenExpirationSeconds int64 = 3607
)

// mountToken mounts the token volume read-only at MountPath in every
// container and init container that mounts nothing there yet, and adds the
// volume when one of them needs it. A volume already named with the prefix
// (a pod created again from an earlier one's spec) is reused.
func (p *Plugin) mountToken(pod *corev1.Pod) {
	name, have := "", false
	for _, v := range pod.Spec.Volumes {
		if strings.HasPrefix(v.Name, VolumePrefix) {
			name, have = v.Name, true
			break
		}
	}
	if name == "" {
		name = VolumePrefix + p.suffix()
	}
	mount := corev1.VolumeMount{Name: name, ReadOnly: true, MountPath: MountPath}
	needed := addMount(pod.Spec.InitContainers, mount)
	needed = addMount(pod.Spec.Containers, mount) || needed
	if needed && !have {
		pod.Spec.Volumes = append(pod.Spec.Volumes, corev1.Volume{
			Name:         name,
			VolumeSource: corev1.VolumeSource{Projected: TokenVolumeSource()},
		})
	}
}

// addMount adds mount to each container that mounts nothing at its path,
// and reports whether it added any.
func addMount(cs []corev1.Container, mount corev1.VolumeMount) bool {
	added := false
	for i := range cs {
		if mountsAt(&cs[i], mount.MountPath) {
			continue
		}
		cs[i].VolumeMounts = append(cs[i].VolumeMounts, mount)
		added = true
	}
	return added
}

func mountsAt(c *corev1.Container, path string) bool {
	for _, m := range c.VolumeMounts {
		if m.MountPath == path {
			return true
		}
	}
	return false
}

// TokenVolumeSource is the projected source of the token volume: the
// token, the root CA and the namespace. Its defaults are written out, as
// upstream does, so the stored volume is the same whether defaulting runs
// before admission or not.
func TokenVolumeSource() *corev1.ProjectedVolumeSource {
	mode, exp := corev1.ProjectedVolumeSourceDefaultMode, TokenExpirationSeconds
	return &corev1.ProjectedVolumeSource{
		DefaultMode: &mode,
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &exp}},
			{ConfigMap: &corev1.ConfigMapProjection{
				LocalObjectReference: corev1.LocalObjectReference{Name: RootCAConfigMap},
				Items:                []corev1.KeyToPath{{Key: RootCAKey, Path: RootCAKey}},
			}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{
				Path:     "namespace",
				FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"},
			}}}},
		},
	}
}
