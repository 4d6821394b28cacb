package pod

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"

	"platform.io/platform/pkg/apiserver/validation/field"
)

func TestResourceIsWellFormed(t *testing.T) {
	r := Resource()
	if r.Group != "" || r.Version != "v1" || r.Name != "pods" || r.Singular != "pod" || r.Kind != "Pod" {
		t.Errorf("names: %+v", r)
	}
	if !r.Namespaced || !r.HasStatus || r.AllowCreateOnUpdate {
		t.Errorf("scope or flags: namespaced=%v hasStatus=%v createOnUpdate=%v", r.Namespaced, r.HasStatus, r.AllowCreateOnUpdate)
	}
	if _, ok := r.New().(*corev1.Pod); !ok {
		t.Errorf("New() returned %T", r.New())
	}
	if len(r.ShortNames) != 1 || r.ShortNames[0] != "po" || len(r.Categories) != 1 || r.Categories[0] != "all" {
		t.Errorf("short names %v, categories %v", r.ShortNames, r.Categories)
	}
	if r.Actions["binding"] == nil || r.Strategy == nil {
		t.Errorf("binding action or strategy missing")
	}
}

func TestSelectableFields(t *testing.T) {
	pod := &corev1.Pod{
		Spec: corev1.PodSpec{NodeName: "n1", RestartPolicy: "Always", SchedulerName: "s", ServiceAccountName: "sa", HostNetwork: true},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.9",
			PodIPs: []corev1.PodIP{{IP: "10.0.0.1"}}, NominatedNodeName: "n2"},
	}
	pod.Name, pod.Namespace = "p", "ns"
	got := Resource().Fields(pod)
	want := map[string]string{
		"metadata.name": "p", "metadata.namespace": "ns",
		"spec.nodeName": "n1", "spec.restartPolicy": "Always", "spec.schedulerName": "s",
		"spec.serviceAccountName": "sa", "spec.hostNetwork": "true", "status.phase": "Running",
		"status.podIP": "10.0.0.1", "status.nominatedNodeName": "n2",
	}
	if len(got) != len(want) {
		t.Errorf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	pod.Status.PodIPs, pod.Spec.HostNetwork = nil, false
	got = Resource().Fields(pod)
	if got["status.podIP"] != "10.0.0.9" || got["spec.hostNetwork"] != "false" {
		t.Errorf("fallbacks: %v", got)
	}
}

func newPod() *corev1.Pod {
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{
		Name: "app", Image: "nginx:1.25", Ports: []corev1.ContainerPort{{ContainerPort: 80}},
	}}}}
	pod.Name, pod.Namespace = "web", "default"
	Default(pod)
	return pod
}

func TestDefaultPodOnlyDefaults(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		HostNetwork: true,
		Containers: []corev1.Container{{Name: "a", Image: "i", Ports: []corev1.ContainerPort{{ContainerPort: 80}, {ContainerPort: 81, HostPort: 81}},
			Resources: corev1.ResourceRequirements{
				Limits:   corev1.ResourceList{"cpu": resource.MustParse("1"), "memory": resource.MustParse("1Gi")},
				Requests: corev1.ResourceList{"cpu": resource.MustParse("500m")},
			}}},
		InitContainers: []corev1.Container{{Name: "i", Image: "i", Resources: corev1.ResourceRequirements{
			Limits: corev1.ResourceList{"memory": resource.MustParse("64Mi")}}}},
	}}
	Default(pod)
	c := pod.Spec.Containers[0]
	if got := c.Resources.Requests["cpu"]; got.String() != "500m" {
		t.Errorf("explicit cpu request changed to %s", got.String())
	}
	if got := c.Resources.Requests["memory"]; got.String() != "1Gi" {
		t.Errorf("memory request = %s, want the limit 1Gi", got.String())
	}
	if got := pod.Spec.InitContainers[0].Resources.Requests["memory"]; got.String() != "64Mi" {
		t.Errorf("init memory request = %s", got.String())
	}
	if c.Ports[0].HostPort != 80 || c.Ports[1].HostPort != 81 {
		t.Errorf("host ports under hostNetwork: %+v", c.Ports)
	}
	if pod.Spec.EnableServiceLinks == nil || !*pod.Spec.EnableServiceLinks {
		t.Errorf("enableServiceLinks not defaulted to true")
	}
	if pod.Spec.RestartPolicy != corev1.RestartPolicyAlways || pod.Spec.SchedulerName != corev1.DefaultSchedulerName {
		t.Errorf("pod spec defaults missing")
	}

	off := false
	pod = &corev1.Pod{Spec: corev1.PodSpec{EnableServiceLinks: &off, Containers: []corev1.Container{{Name: "a", Image: "i", Ports: []corev1.ContainerPort{{ContainerPort: 80}}}}}}
	Default(pod)
	if *pod.Spec.EnableServiceLinks || pod.Spec.Containers[0].Ports[0].HostPort != 0 || pod.Spec.Containers[0].Resources.Requests != nil {
		t.Errorf("explicit false or unset values changed: %+v", pod.Spec)
	}
}

func TestPrepareForCreate(t *testing.T) {
	pod := newPod()
	pod.Status.Phase = corev1.PodRunning
	pod.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/wait"}}
	pod.Labels = map[string]string{"app": "web", "tier": "front"}
	pod.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
		MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule,
		LabelSelector: &meta.LabelSelector{}, MatchLabelKeys: []string{"app", "absent"},
	}}
	pod.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
		{TopologyKey: "zone", LabelSelector: &meta.LabelSelector{}, MismatchLabelKeys: []string{"tier"}}}}}
	prepareForCreate(pod)
	if pod.Status.Phase != corev1.PodPending || pod.Status.QOSClass != corev1.PodQOSBestEffort {
		t.Errorf("status = %+v", pod.Status)
	}
	if len(pod.Status.Conditions) != 1 || pod.Status.Conditions[0].Reason != corev1.PodReasonSchedulingGated ||
		pod.Status.Conditions[0].Status != corev1.ConditionFalse {
		t.Errorf("conditions = %+v", pod.Status.Conditions)
	}
	exprs := pod.Spec.TopologySpreadConstraints[0].LabelSelector.MatchExpressions
	if len(exprs) != 1 || exprs[0].Key != "app" || exprs[0].Operator != meta.LabelSelectorOpIn || exprs[0].Values[0] != "web" {
		t.Errorf("spread selector = %+v", exprs)
	}
	anti := pod.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions
	if len(anti) != 1 || anti[0].Operator != meta.LabelSelectorOpNotIn || anti[0].Values[0] != "front" {
		t.Errorf("anti-affinity selector = %+v", anti)
	}
}

func hasError(errs field.ErrorList, path string, typ field.Type) bool {
	for _, e := range errs {
		if e.Field == path && e.Type == typ {
			return true
		}
	}
	return false
}

func TestValidatePodOnlyRules(t *testing.T) {
	pod := newPod()
	if errs := validate(pod); len(errs) > 0 {
		t.Fatalf("valid pod: %v", errs)
	}
	pod.Spec.Containers[0].Image = "nginx "
	if errs := validate(pod); !hasError(errs, "spec.containers[0].image", field.TypeInvalid) {
		t.Errorf("image whitespace: %v", errs)
	}
	pod = newPod()
	pod.Spec.Volumes = []corev1.Volume{{Name: "img", VolumeSource: corev1.VolumeSource{Image: &corev1.ImageVolumeSource{PullPolicy: corev1.PullAlways}}}}
	if errs := validate(pod); !hasError(errs, "spec.volumes[0].image.reference", field.TypeRequired) {
		t.Errorf("image volume reference: %v", errs)
	}
}
