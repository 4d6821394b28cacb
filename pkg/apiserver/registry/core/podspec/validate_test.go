package podspec

import (
	"strings"
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/intstr"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/validation/field"
)

// validSpec returns a defaulted spec that passes validation.
func validSpec() *corev1.PodSpec {
	spec := &corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "app", Image: "nginx:1.25",
			Ports:        []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
			VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
		}},
		Volumes: []corev1.Volume{{Name: "data"}},
	}
	DefaultPodSpec(spec)
	return spec
}

type specCase struct {
	name  string
	mut   func(s *corev1.PodSpec)
	field string     // "" means valid
	typ   field.Type // expected error type
}

func runSpecCases(t *testing.T, cases []specCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := validSpec()
			tc.mut(spec)
			errs := ValidatePodSpec(spec, field.NewPath("spec"))
			if tc.field == "" {
				if len(errs) > 0 {
					t.Fatalf("unexpected errors: %v", errs)
				}
				return
			}
			for _, e := range errs {
				if e.Field == tc.field && e.Type == tc.typ {
					return
				}
			}
			t.Fatalf("want %s on %s, got %v", tc.typ, tc.field, errs)
		})
	}
}

func q(s string) resource.Quantity { return resource.MustParse(s) }

func c0(s *corev1.PodSpec) *corev1.Container { return &s.Containers[0] }

func TestValidatePodSpecTopLevel(t *testing.T) {
	runSpecCases(t, []specCase{
		{"valid", func(s *corev1.PodSpec) {}, "", ""},
		{"no containers", func(s *corev1.PodSpec) { s.Containers = nil }, "spec.containers", field.TypeRequired},
		{"restartPolicy missing", func(s *corev1.PodSpec) { s.RestartPolicy = "" }, "spec.restartPolicy", field.TypeRequired},
		{"restartPolicy bad", func(s *corev1.PodSpec) { s.RestartPolicy = "Sometimes" }, "spec.restartPolicy", field.TypeNotSupported},
		{"restartPolicy OnFailure", func(s *corev1.PodSpec) { s.RestartPolicy = corev1.RestartPolicyOnFailure }, "", ""},
		{"dnsPolicy bad", func(s *corev1.PodSpec) { s.DNSPolicy = "Mine" }, "spec.dnsPolicy", field.TypeNotSupported},
		{"dnsPolicy None without nameservers", func(s *corev1.PodSpec) { s.DNSPolicy = corev1.DNSNone }, "spec.dnsConfig.nameservers", field.TypeRequired},
		{"dnsPolicy None with nameserver", func(s *corev1.PodSpec) {
			s.DNSPolicy = corev1.DNSNone
			s.DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"10.0.0.10"}}
		}, "", ""},
		{"dns nameserver not an IP", func(s *corev1.PodSpec) { s.DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"dns"}} }, "spec.dnsConfig.nameservers[0]", field.TypeInvalid},
		{"activeDeadlineSeconds zero", func(s *corev1.PodSpec) { s.ActiveDeadlineSeconds = ptr(int64(0)) }, "spec.activeDeadlineSeconds", field.TypeInvalid},
		{"activeDeadlineSeconds positive", func(s *corev1.PodSpec) { s.ActiveDeadlineSeconds = ptr(int64(60)) }, "", ""},
		{"negative grace period accepted as upstream", func(s *corev1.PodSpec) { s.TerminationGracePeriodSeconds = ptr(int64(-1)) }, "", ""},
		{"nodeSelector bad key", func(s *corev1.PodSpec) { s.NodeSelector = map[string]string{"bad key": "x"} }, "spec.nodeSelector", field.TypeInvalid},
		{"nodeSelector bad value", func(s *corev1.PodSpec) { s.NodeSelector = map[string]string{"disk": "-ssd"} }, "spec.nodeSelector[disk]", field.TypeInvalid},
		{"nodeSelector valid", func(s *corev1.PodSpec) { s.NodeSelector = map[string]string{"platform.io/os": "linux"} }, "", ""},
		{"serviceAccountName bad", func(s *corev1.PodSpec) { s.ServiceAccountName = "Bad_Name" }, "spec.serviceAccountName", field.TypeInvalid},
		{"hostname bad", func(s *corev1.PodSpec) { s.Hostname = "a.b" }, "spec.hostname", field.TypeInvalid},
		{"shareProcessNamespace with hostPID", func(s *corev1.PodSpec) { s.HostPID = true; s.ShareProcessNamespace = ptr(true) }, "spec.shareProcessNamespace", field.TypeInvalid},
		{"runAsUser negative", func(s *corev1.PodSpec) { s.SecurityContext.RunAsUser = ptr(int64(-1)) }, "spec.securityContext.runAsUser", field.TypeInvalid},
		{"os name bad", func(s *corev1.PodSpec) { s.OS = &corev1.PodOS{Name: "plan9"} }, "spec.os.name", field.TypeNotSupported},
		{"preemptionPolicy bad", func(s *corev1.PodSpec) { p := corev1.PreemptionPolicy("Always"); s.PreemptionPolicy = &p }, "spec.preemptionPolicy", field.TypeNotSupported},
		{"scheduling gate duplicate", func(s *corev1.PodSpec) {
			s.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/g"}, {Name: "example.com/g"}}
		}, "spec.schedulingGates[1].name", field.TypeDuplicate},
		{"seccomp localhost without profile", func(s *corev1.PodSpec) {
			s.SecurityContext.SeccompProfile = &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeLocalhost}
		}, "spec.securityContext.seccompProfile.localhostProfile", field.TypeRequired},
	})
}

func TestValidatePodSpecContainers(t *testing.T) {
	runSpecCases(t, []specCase{
		{"name missing", func(s *corev1.PodSpec) { c0(s).Name = "" }, "spec.containers[0].name", field.TypeRequired},
		{"name not a DNS label", func(s *corev1.PodSpec) { c0(s).Name = "App_1" }, "spec.containers[0].name", field.TypeInvalid},
		{"duplicate name", func(s *corev1.PodSpec) { s.Containers = append(s.Containers, *c0(s)) }, "spec.containers[1].name", field.TypeDuplicate},
		{"init container reuses a container name", func(s *corev1.PodSpec) {
			s.InitContainers = []corev1.Container{{Name: "app", Image: "x", ImagePullPolicy: "Always", TerminationMessagePolicy: "File"}}
		}, "spec.initContainers[0].name", field.TypeDuplicate},
		{"image missing", func(s *corev1.PodSpec) { c0(s).Image = "" }, "spec.containers[0].image", field.TypeRequired},
		{"image whitespace is allowed in templates", func(s *corev1.PodSpec) { c0(s).Image = " nginx " }, "", ""},
		{"pull policy bad", func(s *corev1.PodSpec) { c0(s).ImagePullPolicy = "Sometimes" }, "spec.containers[0].imagePullPolicy", field.TypeNotSupported},
		{"pull policy missing", func(s *corev1.PodSpec) { c0(s).ImagePullPolicy = "" }, "spec.containers[0].imagePullPolicy", field.TypeRequired},
		{"termination message policy bad", func(s *corev1.PodSpec) { c0(s).TerminationMessagePolicy = "Log" }, "spec.containers[0].terminationMessagePolicy", field.TypeNotSupported},
		{"port zero", func(s *corev1.PodSpec) { c0(s).Ports[0].ContainerPort = 0 }, "spec.containers[0].ports[0].containerPort", field.TypeRequired},
		{"port too big", func(s *corev1.PodSpec) { c0(s).Ports[0].ContainerPort = 70000 }, "spec.containers[0].ports[0].containerPort", field.TypeInvalid},
		{"host port too big", func(s *corev1.PodSpec) { c0(s).Ports[0].HostPort = 70000 }, "spec.containers[0].ports[0].hostPort", field.TypeInvalid},
		{"protocol bad", func(s *corev1.PodSpec) { c0(s).Ports[0].Protocol = "ICMP" }, "spec.containers[0].ports[0].protocol", field.TypeNotSupported},
		{"port name bad", func(s *corev1.PodSpec) { c0(s).Ports[0].Name = "HTTP" }, "spec.containers[0].ports[0].name", field.TypeInvalid},
		{"port name too long", func(s *corev1.PodSpec) { c0(s).Ports[0].Name = "abcdefghijklmnop" }, "spec.containers[0].ports[0].name", field.TypeInvalid},
		{"port name duplicate", func(s *corev1.PodSpec) {
			c0(s).Ports = append(c0(s).Ports, corev1.ContainerPort{Name: "http", ContainerPort: 81, Protocol: "TCP"})
		}, "spec.containers[0].ports[1].name", field.TypeDuplicate},
		{"hostNetwork host port mismatch", func(s *corev1.PodSpec) { s.HostNetwork = true; c0(s).Ports[0].HostPort = 8080 }, "spec.containers[0].ports[0].hostPort", field.TypeInvalid},
		{"hostNetwork host port match", func(s *corev1.PodSpec) { s.HostNetwork = true; c0(s).Ports[0].HostPort = 80 }, "", ""},
		{"duplicate host port", func(s *corev1.PodSpec) {
			c0(s).Ports[0].HostPort = 8080
			c0(s).Ports = append(c0(s).Ports, corev1.ContainerPort{ContainerPort: 81, HostPort: 8080, Protocol: "TCP"})
		}, "spec.containers[0].ports[1].hostPort", field.TypeDuplicate},
		{"env name bad", func(s *corev1.PodSpec) { c0(s).Env = []corev1.EnvVar{{Name: "A=B"}} }, "spec.containers[0].env[0].name", field.TypeInvalid},
		{"env name relaxed", func(s *corev1.PodSpec) { c0(s).Env = []corev1.EnvVar{{Name: "1-dotted.name"}} }, "", ""},
		{"env name missing", func(s *corev1.PodSpec) { c0(s).Env = []corev1.EnvVar{{Value: "x"}} }, "spec.containers[0].env[0].name", field.TypeRequired},
		{"env value and valueFrom", func(s *corev1.PodSpec) {
			c0(s).Env = []corev1.EnvVar{{Name: "A", Value: "x", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}, Key: "k"}}}}
		}, "spec.containers[0].env[0].valueFrom", field.TypeInvalid},
		{"env valueFrom empty", func(s *corev1.PodSpec) { c0(s).Env = []corev1.EnvVar{{Name: "A", ValueFrom: &corev1.EnvVarSource{}}} }, "spec.containers[0].env[0].valueFrom", field.TypeInvalid},
		{"env valueFrom two sources", func(s *corev1.PodSpec) {
			c0(s).Env = []corev1.EnvVar{{Name: "A", ValueFrom: &corev1.EnvVarSource{
				FieldRef:        &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"},
				ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "c"}, Key: "k"},
			}}}
		}, "spec.containers[0].env[0].valueFrom", field.TypeInvalid},
		{"env fieldRef unsupported", func(s *corev1.PodSpec) {
			c0(s).Env = []corev1.EnvVar{{Name: "A", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.hostname"}}}}
		}, "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath", field.TypeNotSupported},
		{"env fieldRef label subscript", func(s *corev1.PodSpec) {
			c0(s).Env = []corev1.EnvVar{{Name: "A", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels['app']"}}}}
		}, "", ""},
		{"env secret key missing", func(s *corev1.PodSpec) {
			c0(s).Env = []corev1.EnvVar{{Name: "A", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "s"}}}}}
		}, "spec.containers[0].env[0].valueFrom.secretKeyRef.key", field.TypeRequired},
		{"envFrom without source", func(s *corev1.PodSpec) { c0(s).EnvFrom = []corev1.EnvFromSource{{Prefix: "P_"}} }, "spec.containers[0].envFrom[0]", field.TypeInvalid},
		{"mount of unknown volume", func(s *corev1.PodSpec) { c0(s).VolumeMounts[0].Name = "other" }, "spec.containers[0].volumeMounts[0].name", field.TypeNotFound},
		{"mount path missing", func(s *corev1.PodSpec) { c0(s).VolumeMounts[0].MountPath = "" }, "spec.containers[0].volumeMounts[0].mountPath", field.TypeRequired},
		{"mount path duplicate", func(s *corev1.PodSpec) {
			c0(s).VolumeMounts = append(c0(s).VolumeMounts, corev1.VolumeMount{Name: "data", MountPath: "/data"})
		}, "spec.containers[0].volumeMounts[1].mountPath", field.TypeInvalid},
		{"subPath absolute", func(s *corev1.PodSpec) { c0(s).VolumeMounts[0].SubPath = "/etc" }, "spec.containers[0].volumeMounts[0].subPath", field.TypeInvalid},
		{"subPath with backstep", func(s *corev1.PodSpec) { c0(s).VolumeMounts[0].SubPath = "a/../../b" }, "spec.containers[0].volumeMounts[0].subPath", field.TypeInvalid},
		{"bidirectional propagation unprivileged", func(s *corev1.PodSpec) {
			m := corev1.MountPropagationBidirectional
			c0(s).VolumeMounts[0].MountPropagation = &m
		}, "spec.containers[0].volumeMounts[0].mountPropagation", field.TypeForbidden},
		{"privileged with no privilege escalation", func(s *corev1.PodSpec) {
			c0(s).SecurityContext = &corev1.SecurityContext{Privileged: ptr(true), AllowPrivilegeEscalation: ptr(false)}
		}, "spec.containers[0].securityContext", field.TypeInvalid},
		{"tty without stdin is accepted as upstream", func(s *corev1.PodSpec) { c0(s).TTY = true }, "", ""},
		{"restartPolicy on a regular container", func(s *corev1.PodSpec) {
			p := corev1.ContainerRestartPolicyAlways
			c0(s).RestartPolicy = &p
		}, "spec.containers[0].restartPolicy", field.TypeForbidden},
	})
}

func simpleContainer() corev1.Container {
	c := corev1.Container{Name: "init", Image: "busybox:1.36"}
	defaultContainer(&c)
	return c
}

func TestValidatePodSpecInitAndEphemeralContainers(t *testing.T) {
	probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}},
		TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
	runSpecCases(t, []specCase{
		{"plain init container", func(s *corev1.PodSpec) { s.InitContainers = []corev1.Container{simpleContainer()} }, "", ""},
		{"init container with probe", func(s *corev1.PodSpec) {
			ic := simpleContainer()
			ic.ReadinessProbe = probe
			s.InitContainers = []corev1.Container{ic}
		}, "spec.initContainers[0].readinessProbe", field.TypeForbidden},
		{"sidecar with probe", func(s *corev1.PodSpec) {
			ic := simpleContainer()
			p := corev1.ContainerRestartPolicyAlways
			ic.RestartPolicy, ic.ReadinessProbe = &p, probe
			s.InitContainers = []corev1.Container{ic}
		}, "", ""},
		{"init restartPolicy Never", func(s *corev1.PodSpec) {
			ic := simpleContainer()
			p := corev1.ContainerRestartPolicyNever
			ic.RestartPolicy = &p
			s.InitContainers = []corev1.Container{ic}
		}, "spec.initContainers[0].restartPolicy", field.TypeNotSupported},
		{"ephemeral container with ports", func(s *corev1.PodSpec) {
			ec := simpleContainer()
			ec.Name, ec.Ports = "debug", []corev1.ContainerPort{{ContainerPort: 1, Protocol: "TCP"}}
			s.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon(ec)}}
		}, "spec.ephemeralContainers[0].ports", field.TypeForbidden},
	})
}

func TestValidatePodSpecProbes(t *testing.T) {
	withProbe := func(set func(c *corev1.Container, p *corev1.Probe)) func(s *corev1.PodSpec) {
		return func(s *corev1.PodSpec) {
			p := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromString("http")}}}
			defaultProbe(p)
			set(c0(s), p)
		}
	}
	runSpecCases(t, []specCase{
		{"valid liveness", withProbe(func(c *corev1.Container, p *corev1.Probe) { c.LivenessProbe = p }), "", ""},
		{"no handler", withProbe(func(c *corev1.Container, p *corev1.Probe) { p.TCPSocket = nil; c.LivenessProbe = p }), "spec.containers[0].livenessProbe", field.TypeRequired},
		{"two handlers", withProbe(func(c *corev1.Container, p *corev1.Probe) {
			p.Exec = &corev1.ExecAction{Command: []string{"x"}}
			c.LivenessProbe = p
		}), "spec.containers[0].livenessProbe.tcpSocket", field.TypeForbidden},
		{"negative period", withProbe(func(c *corev1.Container, p *corev1.Probe) { p.PeriodSeconds = -1; c.ReadinessProbe = p }), "spec.containers[0].readinessProbe.periodSeconds", field.TypeInvalid},
		{"liveness success threshold", withProbe(func(c *corev1.Container, p *corev1.Probe) { p.SuccessThreshold = 2; c.LivenessProbe = p }), "spec.containers[0].livenessProbe.successThreshold", field.TypeInvalid},
		{"readiness success threshold 2", withProbe(func(c *corev1.Container, p *corev1.Probe) { p.SuccessThreshold = 2; c.ReadinessProbe = p }), "", ""},
		{"bad port number", withProbe(func(c *corev1.Container, p *corev1.Probe) { p.TCPSocket.Port = intstr.FromInt(0); c.StartupProbe = p }), "spec.containers[0].startupProbe.tcpSocket.port", field.TypeInvalid},
		{"httpGet bad scheme", withProbe(func(c *corev1.Container, p *corev1.Probe) {
			p.TCPSocket, p.HTTPGet = nil, &corev1.HTTPGetAction{Path: "/", Port: intstr.FromInt(80), Scheme: "FTP"}
			c.LivenessProbe = p
		}), "spec.containers[0].livenessProbe.httpGet.scheme", field.TypeNotSupported},
		{"exec without command", withProbe(func(c *corev1.Container, p *corev1.Probe) {
			p.TCPSocket, p.Exec = nil, &corev1.ExecAction{}
			c.LivenessProbe = p
		}), "spec.containers[0].livenessProbe.exec.command", field.TypeRequired},
		{"lifecycle without handler", func(s *corev1.PodSpec) {
			c0(s).Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{}}
		}, "spec.containers[0].lifecycle.preStop", field.TypeRequired},
	})
}

func TestValidatePodSpecResources(t *testing.T) {
	res := func(lim, req corev1.ResourceList) func(s *corev1.PodSpec) {
		return func(s *corev1.PodSpec) { c0(s).Resources = corev1.ResourceRequirements{Limits: lim, Requests: req} }
	}
	runSpecCases(t, []specCase{
		{"requests below limits", res(corev1.ResourceList{"cpu": q("1")}, corev1.ResourceList{"cpu": q("500m")}), "", ""},
		{"requests above limits", res(corev1.ResourceList{"cpu": q("1")}, corev1.ResourceList{"cpu": q("2")}), "spec.containers[0].resources.requests[cpu]", field.TypeInvalid},
		{"negative limit", res(corev1.ResourceList{"memory": q("-1Gi")}, nil), "spec.containers[0].resources.limits[memory]", field.TypeInvalid},
		{"unknown standard resource", res(corev1.ResourceList{"gpu": q("1")}, nil), "spec.containers[0].resources.limits[gpu]", field.TypeInvalid},
		{"extended resource equal", res(corev1.ResourceList{"example.com/gpu": q("1")}, corev1.ResourceList{"example.com/gpu": q("1")}), "", ""},
		{"extended resource overcommitted", res(corev1.ResourceList{"example.com/gpu": q("2")}, corev1.ResourceList{"example.com/gpu": q("1")}), "spec.containers[0].resources.requests[example.com/gpu]", field.TypeInvalid},
		{"extended resource without limit", res(nil, corev1.ResourceList{"example.com/gpu": q("1")}), "spec.containers[0].resources.limits", field.TypeRequired},
	})
}

func TestValidatePodSpecVolumes(t *testing.T) {
	vol := func(src corev1.VolumeSource) func(s *corev1.PodSpec) {
		return func(s *corev1.PodSpec) {
			s.Volumes = append(s.Volumes, corev1.Volume{Name: "extra", VolumeSource: src})
		}
	}
	runSpecCases(t, []specCase{
		{"volume name bad", func(s *corev1.PodSpec) { s.Volumes[0].Name = "Data"; c0(s).VolumeMounts = nil }, "spec.volumes[0].name", field.TypeInvalid},
		{"volume name duplicate", func(s *corev1.PodSpec) { s.Volumes = append(s.Volumes, s.Volumes[0]) }, "spec.volumes[1].name", field.TypeDuplicate},
		{"no source", vol(corev1.VolumeSource{}), "spec.volumes[1]", field.TypeRequired},
		{"two sources", vol(corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}, HostPath: &corev1.HostPathVolumeSource{Path: "/x"}}), "spec.volumes[1].emptyDir", field.TypeForbidden},
		{"hostPath without path", vol(corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{}}), "spec.volumes[1].hostPath.path", field.TypeRequired},
		{"hostPath type bad", vol(corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/x", Type: ptr(corev1.HostPathType("Pipe"))}}), "spec.volumes[1].hostPath.type", field.TypeNotSupported},
		{"secret without name", vol(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{}}), "spec.volumes[1].secret.secretName", field.TypeRequired},
		{"secret mode too big", vol(corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s", DefaultMode: ptr(int32(01000))}}), "spec.volumes[1].secret.defaultMode", field.TypeInvalid},
		{"configMap item path absolute", vol(corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: "c"}, Items: []corev1.KeyToPath{{Key: "k", Path: "/abs"}}}}),
			"spec.volumes[1].configMap.items[0].path", field.TypeInvalid},
		{"pvc without claim", vol(corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{}}), "spec.volumes[1].persistentVolumeClaim.claimName", field.TypeRequired},
		{"nfs relative path", vol(corev1.VolumeSource{NFS: &corev1.NFSVolumeSource{Server: "nfs", Path: "x"}}), "spec.volumes[1].nfs.path", field.TypeInvalid},
		{"emptyDir medium bad", vol(corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{Medium: "Disk"}}), "spec.volumes[1].emptyDir.medium", field.TypeNotSupported},
		{"token expiration too short", vol(corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "t", ExpirationSeconds: ptr(int64(60))}}}}}),
			"spec.volumes[1].projected.sources[0].serviceAccountToken.expirationSeconds", field.TypeInvalid},
		{"projected source empty", vol(corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{{}}}}),
			"spec.volumes[1].projected.sources[0]", field.TypeRequired},
	})
}

func TestValidatePodSpecScheduling(t *testing.T) {
	nodeReq := func(r corev1.NodeSelectorRequirement) func(s *corev1.PodSpec) {
		return func(s *corev1.PodSpec) {
			s.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{r}}}}}}
		}
	}
	const nodeExpr = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]"
	tol := func(ts ...corev1.Toleration) func(s *corev1.PodSpec) {
		return func(s *corev1.PodSpec) { s.Tolerations = ts }
	}
	spread := func(c corev1.TopologySpreadConstraint) func(s *corev1.PodSpec) {
		return func(s *corev1.PodSpec) { s.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{c} }
	}
	runSpecCases(t, []specCase{
		{"toleration valid", tol(corev1.Toleration{Key: "k", Operator: "Equal", Value: "v", Effect: "NoSchedule"}), "", ""},
		{"toleration Exists with value", tol(corev1.Toleration{Key: "k", Operator: "Exists", Value: "v"}), "spec.tolerations[0].operator", field.TypeInvalid},
		{"toleration empty key needs Exists", tol(corev1.Toleration{Operator: "Equal"}), "spec.tolerations[0].operator", field.TypeInvalid},
		{"toleration bad operator", tol(corev1.Toleration{Key: "k", Operator: "Like"}), "spec.tolerations[0].operator", field.TypeNotSupported},
		{"toleration bad effect", tol(corev1.Toleration{Key: "k", Effect: "Evict"}), "spec.tolerations[0].effect", field.TypeNotSupported},
		{"tolerationSeconds needs NoExecute", tol(corev1.Toleration{Key: "k", Effect: "NoSchedule", TolerationSeconds: ptr(int64(5))}), "spec.tolerations[0].effect", field.TypeInvalid},
		{"tolerationSeconds with NoExecute", tol(corev1.Toleration{Key: "k", Effect: "NoExecute", TolerationSeconds: ptr(int64(5))}), "", ""},
		{"node affinity In valid", nodeReq(corev1.NodeSelectorRequirement{Key: "zone", Operator: "In", Values: []string{"a"}}), "", ""},
		{"node affinity In without values", nodeReq(corev1.NodeSelectorRequirement{Key: "zone", Operator: "In"}), nodeExpr + ".values", field.TypeRequired},
		{"node affinity Exists with values", nodeReq(corev1.NodeSelectorRequirement{Key: "zone", Operator: "Exists", Values: []string{"a"}}), nodeExpr + ".values", field.TypeForbidden},
		{"node affinity Gt two values", nodeReq(corev1.NodeSelectorRequirement{Key: "n", Operator: "Gt", Values: []string{"1", "2"}}), nodeExpr + ".values", field.TypeRequired},
		{"node affinity bad operator", nodeReq(corev1.NodeSelectorRequirement{Key: "n", Operator: "Near"}), nodeExpr + ".operator", field.TypeNotSupported},
		{"node affinity no terms", func(s *corev1.PodSpec) {
			s.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}}
		}, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", field.TypeRequired},
		{"pod affinity without topologyKey", func(s *corev1.PodSpec) {
			s.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
				{LabelSelector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "x"}}}}}}
		}, "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", field.TypeRequired},
		{"pod anti-affinity bad weight", func(s *corev1.PodSpec) {
			s.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{
				{Weight: 0, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "zone"}}}}}
		}, "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight", field.TypeInvalid},
		{"pod affinity selector bad operator", func(s *corev1.PodSpec) {
			s.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
				{TopologyKey: "zone", LabelSelector: &meta.LabelSelector{MatchExpressions: []meta.LabelSelectorRequirement{{Key: "a", Operator: "Has"}}}}}}}
		}, "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator", field.TypeNotSupported},
		{"spread valid", spread(corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule}), "", ""},
		{"spread maxSkew zero", spread(corev1.TopologySpreadConstraint{TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule}), "spec.topologySpreadConstraints[0].maxSkew", field.TypeInvalid},
		{"spread topologyKey missing", spread(corev1.TopologySpreadConstraint{MaxSkew: 1, WhenUnsatisfiable: corev1.DoNotSchedule}), "spec.topologySpreadConstraints[0].topologyKey", field.TypeRequired},
		{"spread whenUnsatisfiable bad", spread(corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: "Maybe"}), "spec.topologySpreadConstraints[0].whenUnsatisfiable", field.TypeNotSupported},
		{"spread minDomains with ScheduleAnyway", spread(corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.ScheduleAnyway, MinDomains: ptr(int32(2))}), "spec.topologySpreadConstraints[0].minDomains", field.TypeInvalid},
	})
}

func TestValidatePodTemplateSpec(t *testing.T) {
	valid := func() *corev1.PodTemplateSpec {
		return &corev1.PodTemplateSpec{ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: *validSpec()}
	}
	p := field.NewPath("spec", "template")
	if errs := ValidatePodTemplateSpec(valid(), p); len(errs) > 0 {
		t.Fatalf("valid template: %v", errs)
	}
	cases := []struct {
		name  string
		mut   func(t *corev1.PodTemplateSpec)
		field string
		typ   field.Type
	}{
		{"bad label value", func(t *corev1.PodTemplateSpec) { t.Labels["app"] = "no spaces" }, "spec.template.metadata.labels[app]", field.TypeInvalid},
		{"bad annotation key", func(t *corev1.PodTemplateSpec) { t.Annotations = map[string]string{"/x": ""} }, "spec.template.metadata.annotations", field.TypeInvalid},
		{"spec error path", func(t *corev1.PodTemplateSpec) { t.Spec.Containers[0].Image = "" }, "spec.template.spec.containers[0].image", field.TypeRequired},
		{"ephemeral containers", func(t *corev1.PodTemplateSpec) {
			c := simpleContainer()
			t.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon(c)}}
		}, "spec.template.spec.ephemeralContainers", field.TypeForbidden},
	}
	for _, tc := range cases {
		tpl := valid()
		tc.mut(tpl)
		errs := ValidatePodTemplateSpec(tpl, p)
		found := false
		for _, e := range errs {
			found = found || (e.Field == tc.field && e.Type == tc.typ)
		}
		if !found {
			t.Errorf("%s: want %s on %s, got %v", tc.name, tc.typ, tc.field, errs)
		}
	}
}

func TestValidateRestartPolicy(t *testing.T) {
	p := field.NewPath("spec", "restartPolicy")
	for _, ok := range []corev1.RestartPolicy{"Always", "OnFailure", "Never"} {
		if errs := ValidateRestartPolicy(ok, p); len(errs) > 0 {
			t.Errorf("%s: %v", ok, errs)
		}
	}
	errs := ValidateRestartPolicy("Later", p)
	if len(errs) != 1 || errs[0].Type != field.TypeNotSupported || !strings.Contains(errs[0].Detail, `"OnFailure"`) {
		t.Errorf("Later: %v", errs)
	}
}
