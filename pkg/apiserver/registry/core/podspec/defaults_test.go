package podspec

import (
	"reflect"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/resource"
)

func TestDefaultPodSpecSetsUpstreamDefaults(t *testing.T) {
	spec := &corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "app", Image: "nginx",
			Ports:          []corev1.ContainerPort{{ContainerPort: 80}},
			Env:            []corev1.EnvVar{{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}},
			LivenessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt(80)}}},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 9000}}},
			Lifecycle:      &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt(80)}}},
		}},
		InitContainers:      []corev1.Container{{Name: "init", Image: "busybox:1.36"}},
		EphemeralContainers: []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debug", Image: "busybox@sha256:abc"}}},
		Volumes: []corev1.Volume{
			{Name: "none"},
			{Name: "hp", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/data"}}},
			{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s"}}},
			{Name: "cm", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}},
			{Name: "dw", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{
				Items: []corev1.DownwardAPIVolumeFile{{Path: "n", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}}},
			{Name: "pj", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token"}}}}}},
			{Name: "img", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{Reference: "repo/img:v1"}}},
		},
	}
	DefaultPodSpec(spec)

	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	check("dnsPolicy", spec.DNSPolicy, corev1.DNSClusterFirst)
	check("restartPolicy", spec.RestartPolicy, corev1.RestartPolicyAlways)
	check("schedulerName", spec.SchedulerName, "default-scheduler")
	check("securityContext", spec.SecurityContext, &corev1.PodSecurityContext{})
	check("terminationGracePeriodSeconds", *spec.TerminationGracePeriodSeconds, int64(30))
	check("enableServiceLinks (pod-only default)", spec.EnableServiceLinks, (*bool)(nil))

	c := spec.Containers[0]
	check("imagePullPolicy", c.ImagePullPolicy, corev1.PullAlways)
	check("terminationMessagePath", c.TerminationMessagePath, "/dev/termination-log")
	check("terminationMessagePolicy", c.TerminationMessagePolicy, corev1.TerminationMessageReadFile)
	check("port protocol", c.Ports[0].Protocol, corev1.ProtocolTCP)
	check("fieldRef apiVersion", c.Env[0].ValueFrom.FieldRef.APIVersion, "v1")
	lp := c.LivenessProbe
	check("probe", [4]int32{lp.TimeoutSeconds, lp.PeriodSeconds, lp.SuccessThreshold, lp.FailureThreshold}, [4]int32{1, 10, 1, 3})
	check("httpGet", [2]string{lp.HTTPGet.Path, string(lp.HTTPGet.Scheme)}, [2]string{"/", "HTTP"})
	check("grpc service", c.ReadinessProbe.GRPC.Service, ptr(""))
	check("preStop httpGet scheme", c.Lifecycle.PreStop.HTTPGet.Scheme, corev1.URISchemeHTTP)
	check("init pull policy", spec.InitContainers[0].ImagePullPolicy, corev1.PullIfNotPresent)
	check("ephemeral pull policy", spec.EphemeralContainers[0].ImagePullPolicy, corev1.PullIfNotPresent)

	v := spec.Volumes
	check("volume without source", v[0].VolumeSource, corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}})
	check("hostPath type", v[1].HostPath.Type, ptr(corev1.HostPathUnset))
	check("secret mode", *v[2].Secret.DefaultMode, int32(0644))
	check("configMap mode", *v[3].ConfigMap.DefaultMode, int32(0644))
	check("downwardAPI mode", *v[4].DownwardAPI.DefaultMode, int32(0644))
	check("downwardAPI fieldRef", v[4].DownwardAPI.Items[0].FieldRef.APIVersion, "v1")
	check("projected mode", *v[5].Projected.DefaultMode, int32(0644))
	check("token expiration", *v[5].Projected.Sources[0].ServiceAccountToken.ExpirationSeconds, int64(3600))
	check("image volume pull policy", v[6].Image.PullPolicy, corev1.PullIfNotPresent)
}

func TestDefaultPodSpecKeepsExplicitValues(t *testing.T) {
	zero64 := int64(0)
	mode := int32(0)
	hpType := corev1.HostPathDirectory
	spec := &corev1.PodSpec{
		DNSPolicy: corev1.DNSDefault, RestartPolicy: corev1.RestartPolicyNever, SchedulerName: "mine",
		TerminationGracePeriodSeconds: &zero64,
		SecurityContext:               &corev1.PodSecurityContext{RunAsUser: &zero64},
		Containers: []corev1.Container{{
			Name: "app", Image: "nginx:latest", ImagePullPolicy: corev1.PullNever,
			TerminationMessagePath: "/tmp/msg", TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
			Ports:          []corev1.ContainerPort{{ContainerPort: 53, Protocol: corev1.ProtocolUDP}},
			ReadinessProbe: &corev1.Probe{TimeoutSeconds: 5, PeriodSeconds: 7, SuccessThreshold: 2, FailureThreshold: 9},
		}},
		Volumes: []corev1.Volume{
			{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{DefaultMode: &mode}}},
			{Name: "hp", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Type: &hpType}}},
		},
	}
	DefaultPodSpec(spec)
	if spec.DNSPolicy != corev1.DNSDefault || spec.RestartPolicy != corev1.RestartPolicyNever || spec.SchedulerName != "mine" {
		t.Errorf("explicit policies changed: %+v", spec)
	}
	if *spec.TerminationGracePeriodSeconds != 0 || spec.SecurityContext.RunAsUser == nil {
		t.Errorf("explicit zero grace period or security context lost")
	}
	c := spec.Containers[0]
	if c.ImagePullPolicy != corev1.PullNever || c.TerminationMessagePath != "/tmp/msg" ||
		c.TerminationMessagePolicy != corev1.TerminationMessageFallbackToLogsOnError || c.Ports[0].Protocol != corev1.ProtocolUDP {
		t.Errorf("explicit container fields changed: %+v", c)
	}
	if p := c.ReadinessProbe; p.TimeoutSeconds != 5 || p.PeriodSeconds != 7 || p.SuccessThreshold != 2 || p.FailureThreshold != 9 {
		t.Errorf("explicit probe fields changed: %+v", p)
	}
	if *spec.Volumes[0].Secret.DefaultMode != 0 || *spec.Volumes[1].HostPath.Type != corev1.HostPathDirectory {
		t.Errorf("explicit volume fields changed")
	}
}

func TestDefaultPodSpecRoundsQuantitiesUp(t *testing.T) {
	spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Image: "i", Resources: corev1.ResourceRequirements{
		Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100u"), corev1.ResourceMemory: resource.MustParse("1Gi")},
	}}}}
	DefaultPodSpec(spec)
	lim := spec.Containers[0].Resources.Limits
	if got := lim[corev1.ResourceCPU]; got.String() != "1m" {
		t.Errorf("cpu = %s, want 1m", got.String())
	}
	if got := lim[corev1.ResourceMemory]; got.String() != "1Gi" {
		t.Errorf("memory = %s, want 1Gi", got.String())
	}
}

func TestDefaultPullPolicy(t *testing.T) {
	cases := map[string]corev1.PullPolicy{
		"nginx":                          corev1.PullAlways,
		"nginx:latest":                   corev1.PullAlways,
		"registry:5000/nginx":            corev1.PullAlways,
		"registry:5000/nginx:1.25":       corev1.PullIfNotPresent,
		"nginx:1.25":                     corev1.PullIfNotPresent,
		"nginx@sha256:0123abcd":          corev1.PullIfNotPresent,
		"nginx:latest@sha256:0123abcd":   corev1.PullAlways,
		"nginx:1.25@sha256:0123abcd":     corev1.PullIfNotPresent,
		"":                               corev1.PullIfNotPresent,
		"example.com/team/app:v2-latest": corev1.PullIfNotPresent,
	}
	for image, want := range cases {
		if got := DefaultPullPolicy(image); got != want {
			t.Errorf("DefaultPullPolicy(%q) = %s, want %s", image, got, want)
		}
	}
}

func TestDefaultPodTemplateSpec(t *testing.T) {
	tpl := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Image: "i:1"}}}}
	DefaultPodTemplateSpec(tpl)
	if tpl.Spec.RestartPolicy != corev1.RestartPolicyAlways || tpl.Spec.Containers[0].ImagePullPolicy != corev1.PullIfNotPresent {
		t.Errorf("template not defaulted: %+v", tpl.Spec)
	}
	DefaultPodTemplateSpec(nil) // must not panic
}
