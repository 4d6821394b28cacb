package podspec

import (
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

// DefaultPodTemplateSpec fills the unset fields of a pod template's spec.
func DefaultPodTemplateSpec(t *corev1.PodTemplateSpec) {
	if t != nil {
		DefaultPodSpec(&t.Spec)
	}
}

// DefaultPodSpec fills the unset fields of a pod spec the way the upstream
// defaulters do for every object embedding one. The defaults upstream
// applies to Pod objects only (requests from limits, enableServiceLinks,
// host ports under hostNetwork) are left to the pods resource.
func DefaultPodSpec(spec *corev1.PodSpec) {
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = corev1.DNSClusterFirst
	}
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	if spec.SecurityContext == nil {
		spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	if spec.TerminationGracePeriodSeconds == nil {
		spec.TerminationGracePeriodSeconds = ptr(int64(corev1.DefaultTerminationGracePeriodSeconds))
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = corev1.DefaultSchedulerName
	}
	for i := range spec.Volumes {
		defaultVolume(&spec.Volumes[i])
	}
	for i := range spec.InitContainers {
		defaultContainer(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		defaultContainer(&spec.Containers[i])
	}
	for i := range spec.EphemeralContainers {
		defaultContainer((*corev1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon))
	}
	roundUp(spec.Overhead)
	if r := spec.Resources; r != nil {
		roundUp(r.Limits)
		roundUp(r.Requests)
	}
}

// roundUp rounds every quantity of l up to a whole thousandth, as upstream
// defaulting does so that no finer value is ever stored.
func roundUp(l corev1.ResourceList) {
	for name, q := range l {
		q.RoundUp(resource.Milli)
		l[name] = q
	}
}

func ptr[T any](v T) *T { return &v }

func defaultContainer(c *corev1.Container) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = DefaultPullPolicy(c.Image)
	}
	roundUp(c.Resources.Limits)
	roundUp(c.Resources.Requests)
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = corev1.ProtocolTCP
		}
	}
	for i := range c.Env {
		if from := c.Env[i].ValueFrom; from != nil {
			defaultFieldRef(from.FieldRef)
		}
	}
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		defaultProbe(p)
	}
	if lc := c.Lifecycle; lc != nil {
		for _, h := range []*corev1.LifecycleHandler{lc.PostStart, lc.PreStop} {
			if h != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

// DefaultPullPolicy is the pull policy of an image that names none: Always
// for the "latest" tag (explicit, or implied by a reference with neither tag
// nor digest), IfNotPresent otherwise.
func DefaultPullPolicy(image string) corev1.PullPolicy {
	if image == "" {
		return corev1.PullIfNotPresent
	}
	name, _, hasDigest := strings.Cut(image, "@")
	lastPart := name[strings.LastIndex(name, "/")+1:]
	tag := ""
	if i := strings.LastIndex(lastPart, ":"); i >= 0 {
		tag = lastPart[i+1:]
	} else if !hasDigest {
		tag = "latest"
	}
	if tag == "latest" {
		return corev1.PullAlways
	}
	return corev1.PullIfNotPresent
}

func defaultProbe(p *corev1.Probe) {
	if p == nil {
		return
	}
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	defaultHTTPGet(p.HTTPGet)
	if p.GRPC != nil && p.GRPC.Service == nil {
		p.GRPC.Service = ptr("")
	}
}

func defaultHTTPGet(h *corev1.HTTPGetAction) {
	if h == nil {
		return
	}
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = corev1.URISchemeHTTP
	}
}

func defaultFieldRef(f *corev1.ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

// defaultVolume gives a volume without a source an emptyDir, and fills the
// file modes and other unset fields of its source.
func defaultVolume(v *corev1.Volume) {
	src := &v.VolumeSource
	if *src == (corev1.VolumeSource{}) {
		src.EmptyDir = &corev1.EmptyDirVolumeSource{}
	}
	if src.HostPath != nil && src.HostPath.Type == nil {
		src.HostPath.Type = ptr(corev1.HostPathUnset)
	}
	if src.Secret != nil && src.Secret.DefaultMode == nil {
		src.Secret.DefaultMode = ptr(corev1.SecretVolumeSourceDefaultMode)
	}
	if src.ConfigMap != nil && src.ConfigMap.DefaultMode == nil {
		src.ConfigMap.DefaultMode = ptr(corev1.ConfigMapVolumeSourceDefaultMode)
	}
	if d := src.DownwardAPI; d != nil {
		if d.DefaultMode == nil {
			d.DefaultMode = ptr(corev1.DownwardAPIVolumeSourceDefaultMode)
		}
		for i := range d.Items {
			defaultFieldRef(d.Items[i].FieldRef)
		}
	}
	if src.Projected != nil {
		defaultProjected(src.Projected)
	}
	if img := src.Image; img != nil && img.PullPolicy == "" {
		img.PullPolicy = DefaultPullPolicy(img.Reference)
	}
}

func defaultProjected(p *corev1.ProjectedVolumeSource) {
	if p.DefaultMode == nil {
		p.DefaultMode = ptr(corev1.ProjectedVolumeSourceDefaultMode)
	}
	for i := range p.Sources {
		s := &p.Sources[i]
		if s.DownwardAPI != nil {
			for j := range s.DownwardAPI.Items {
				defaultFieldRef(s.DownwardAPI.Items[j].FieldRef)
			}
		}
		if t := s.ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
			t.ExpirationSeconds = ptr(int64(3600))
		}
	}
}
