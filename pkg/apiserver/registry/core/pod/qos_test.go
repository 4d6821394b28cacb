package pod

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

func rl(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func ctr(lim, req corev1.ResourceList) corev1.Container {
	return corev1.Container{Name: "c", Image: "i", Resources: corev1.ResourceRequirements{Limits: lim, Requests: req}}
}

func TestQOSClass(t *testing.T) {
	cases := []struct {
		name string
		spec corev1.PodSpec
		want corev1.PodQOSClass
	}{
		{"no resources", corev1.PodSpec{Containers: []corev1.Container{ctr(nil, nil)}}, corev1.PodQOSBestEffort},
		{"only zero quantities", corev1.PodSpec{Containers: []corev1.Container{ctr(rl("cpu", "0"), rl("memory", "0"))}}, corev1.PodQOSBestEffort},
		{"only extended resources", corev1.PodSpec{Containers: []corev1.Container{ctr(rl("example.com/gpu", "1"), rl("example.com/gpu", "1"))}}, corev1.PodQOSBestEffort},
		{"equal cpu and memory", corev1.PodSpec{Containers: []corev1.Container{
			ctr(rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1000m", "memory", "1024Mi"))}}, corev1.PodQOSGuaranteed},
		{"limits only, as defaulted later", corev1.PodSpec{Containers: []corev1.Container{
			ctr(rl("cpu", "1", "memory", "1Gi"), nil)}}, corev1.PodQOSBurstable},
		{"request below limit", corev1.PodSpec{Containers: []corev1.Container{
			ctr(rl("cpu", "1", "memory", "1Gi"), rl("cpu", "500m", "memory", "1Gi"))}}, corev1.PodQOSBurstable},
		{"memory limit missing", corev1.PodSpec{Containers: []corev1.Container{ctr(rl("cpu", "1"), rl("cpu", "1"))}}, corev1.PodQOSBurstable},
		{"requests only", corev1.PodSpec{Containers: []corev1.Container{ctr(nil, rl("cpu", "100m"))}}, corev1.PodQOSBurstable},
		{"one guaranteed, one best effort", corev1.PodSpec{Containers: []corev1.Container{
			ctr(rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi")), ctr(nil, nil)}}, corev1.PodQOSBurstable},
		{"init container counts", corev1.PodSpec{
			InitContainers: []corev1.Container{ctr(nil, rl("memory", "10Mi"))},
			Containers:     []corev1.Container{ctr(nil, nil)}}, corev1.PodQOSBurstable},
		{"pod-level resources win", corev1.PodSpec{
			Resources:  &corev1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "2Gi"), Requests: rl("cpu", "2", "memory", "2Gi")},
			Containers: []corev1.Container{ctr(nil, rl("cpu", "100m"))}}, corev1.PodQOSGuaranteed},
	}
	for _, tc := range cases {
		pod := &corev1.Pod{Spec: tc.spec}
		if got := QOSClass(pod); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

// The QoS class is computed after defaulting, so limits alone give Guaranteed.
func TestQOSClassAfterDefaulting(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr(rl("cpu", "1", "memory", "1Gi"), nil)}}}
	Default(pod)
	prepareForCreate(pod)
	if pod.Status.QOSClass != corev1.PodQOSGuaranteed {
		t.Errorf("got %s", pod.Status.QOSClass)
	}
}
