package simnode

import (
	"math"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/api/resource"
)

func TestContainerUsage(t *testing.T) {
	def := Usage{CPU: resource.MustParse("10m"), Memory: resource.MustParse("32Mi")}
	tests := []struct {
		name        string
		annotations map[string]string
		container   string
		wantCores   float64
		wantBytes   int64
	}{
		{name: "default", container: "app", wantCores: 0.01, wantBytes: 32 << 20},
		{name: "pod-wide", annotations: map[string]string{AnnotationCPUUsage: "250m", AnnotationMemoryUsage: "64Mi"},
			container: "app", wantCores: 0.25, wantBytes: 64 << 20},
		{name: "per container wins", annotations: map[string]string{AnnotationCPUUsage: "250m", AnnotationCPUUsage + ".app": "1500m"},
			container: "app", wantCores: 1.5, wantBytes: 32 << 20},
		{name: "other container's key ignored", annotations: map[string]string{AnnotationCPUUsage + ".side": "2"},
			container: "app", wantCores: 0.01, wantBytes: 32 << 20},
		{name: "bad value falls back", annotations: map[string]string{AnnotationCPUUsage: "lots", AnnotationMemoryUsage: "-1Mi"},
			container: "app", wantCores: 0.01, wantBytes: 32 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Annotations: tt.annotations}}
			cores, bytes := containerUsage(pod, tt.container, def)
			if cores != tt.wantCores || bytes != tt.wantBytes {
				t.Fatalf("usage %v cores %d bytes, want %v %d", cores, bytes, tt.wantCores, tt.wantBytes)
			}
		})
	}
}

func runningPod(name, cpu string, started time.Time, containers ...string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: meta.ObjectMeta{Namespace: "ns", Name: name, Annotations: map[string]string{AnnotationCPUUsage: cpu}}}
	p.Status.Phase = corev1.PodRunning
	for _, c := range containers {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: c, ContainerID: "docker://" + name + c,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: meta.NewTime(started)}}})
	}
	return p
}

// TestMeterCountsAtTheModelledRate: the counters advance at the rate in
// force over each stretch of time, so a rate over a window gives back
// the modelled cores, and a change counts from when it is seen.
func TestMeterCountsAtTheModelledRate(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sec := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	def := Usage{CPU: resource.MustParse("0"), Memory: resource.MustParse("1Mi")}
	m := newMeter(t0)
	a := runningPod("a", "500m", t0, "c1", "c2")
	m.sync(sec(0), []*corev1.Pod{a}, def)
	m.sync(sec(10), []*corev1.Pod{a}, def)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("%s = %v, want %v", what, got, want)
		}
	}
	snap := m.snapshot()
	near("node after 10s at 2x0.5 cores", snap.nodeCPU, 10)
	near("c1 after 10s at 0.5 cores", snap.containers[0].cpu, 5)
	// The annotation changes at 10s: from then on c1 and c2 count at 2 cores.
	b := runningPod("a", "2", t0, "c1", "c2")
	m.sync(sec(10), []*corev1.Pod{b}, def)
	m.sync(sec(15), []*corev1.Pod{b}, def)
	snap = m.snapshot()
	near("c1 after 5s more at 2 cores", snap.containers[0].cpu, 15)
	near("node", snap.nodeCPU, 30)
	if snap.nodeMemory != 2<<20 {
		t.Fatalf("node memory %d, want 2Mi", snap.nodeMemory)
	}
	// The pod goes: its containers are dropped, the node's counter stays.
	m.sync(sec(20), nil, def)
	snap = m.snapshot()
	near("node after the pod left", snap.nodeCPU, 50)
	if len(snap.containers) != 0 {
		t.Fatalf("containers %v after the pod left", snap.containers)
	}
}
