package simnode

import (
	"strings"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

// Annotations that set the usage a pod's containers report. The value of
// AnnotationCPUUsage (cores, "250m") or AnnotationMemoryUsage (bytes of
// working set, "64Mi") applies to each container of the pod; the same key
// followed by "." and a container's name applies to that container only
// and wins. A value that does not parse is ignored. A change takes effect
// from the moment the agent sees it.
const (
	AnnotationCPUUsage    = "simnode.platform.io/cpu-usage"
	AnnotationMemoryUsage = "simnode.platform.io/memory-usage"
)

// Usage is what one container uses: CPU in cores and memory in bytes.
type Usage struct {
	CPU    resource.Quantity
	Memory resource.Quantity
}

// containerUsage is the modelled usage of one container of pod: the
// per-container annotation, else the pod's, else def.
func containerUsage(pod *corev1.Pod, container string, def Usage) (cores float64, bytes int64) {
	cpu, mem := def.CPU, def.Memory
	if q, ok := annotated(pod, AnnotationCPUUsage, container); ok {
		cpu = q
	}
	if q, ok := annotated(pod, AnnotationMemoryUsage, container); ok {
		mem = q
	}
	return float64(cpu.MilliValue()) / 1000, mem.Value()
}

// annotated reads the per-container key, then the pod-wide one.
func annotated(pod *corev1.Pod, key, container string) (resource.Quantity, bool) {
	for _, k := range []string{key + "." + container, key} {
		v, ok := pod.Annotations[k]
		if !ok {
			continue
		}
		if q, err := resource.ParseQuantity(strings.TrimSpace(v)); err == nil && q.Sign() >= 0 {
			return q, true
		}
	}
	return resource.Quantity{}, false
}

// counter is cumulative CPU time in core-seconds that advances at rate
// cores from at on.
type counter struct {
	total float64
	rate  float64
	at    time.Time
}

// advance brings the counter to now at its current rate.
func (c *counter) advance(now time.Time) {
	if now.After(c.at) {
		c.total += c.rate * now.Sub(c.at).Seconds()
		c.at = now
	}
}

// containerKey names one run of one container: a restart (a new
// container ID) starts a new counter, as a restarted container's
// cumulative CPU starts from zero on a real node.
type containerKey struct {
	namespace, pod, container, id string
}

// containerMeter is one running container's counter and memory.
type containerMeter struct {
	cpu     counter
	memory  int64
	started time.Time
}

// meter keeps a node's CPU counters, its own and its running containers',
// so each advances at the modelled rate between observations and the rate
// computed over any window gives back the modelled cores. The node's rate
// is the sum of its containers'. It is not safe for concurrent use; the
// node's mutex guards it.
type meter struct {
	node       counter
	containers map[containerKey]*containerMeter
}

// meterResolution is the meter's clock resolution: that of the samples'
// timestamps (Prometheus text format stamps them in milliseconds), so the
// counters written are their values at the very time they are stamped
// with, and a rate over two samples is the modelled one exactly.
const meterResolution = time.Millisecond

func newMeter(now time.Time) *meter {
	return &meter{node: counter{at: now.Truncate(meterResolution)}, containers: map[containerKey]*containerMeter{}}
}

// sync brings every counter to now (in meterResolution), then applies the model to the
// running containers of pods (those bound to the node): new ones start at
// zero, changed rates apply from now, and containers no longer running
// are dropped.
func (m *meter) sync(now time.Time, pods []*corev1.Pod, def Usage) {
	now = now.Truncate(meterResolution)
	m.node.advance(now)
	for _, c := range m.containers {
		c.cpu.advance(now)
	}
	seen := make(map[containerKey]bool, len(m.containers))
	total := 0.0
	for _, pod := range pods {
		if pod.Status.Phase != corev1.PodRunning || pod.DeletionTimestamp != nil {
			continue
		}
		for _, cs := range pod.Status.ContainerStatuses {
			run := cs.State.Running
			if run == nil {
				continue
			}
			k := containerKey{namespace: pod.Namespace, pod: pod.Name, container: cs.Name, id: cs.ContainerID}
			cores, bytes := containerUsage(pod, cs.Name, def)
			c := m.containers[k]
			if c == nil {
				c = &containerMeter{cpu: counter{at: now}, started: run.StartedAt.Time}
				m.containers[k] = c
			}
			c.cpu.rate, c.memory = cores, bytes
			seen[k] = true
			total += cores
		}
	}
	for k := range m.containers {
		if !seen[k] {
			delete(m.containers, k)
		}
	}
	m.node.rate = total
}
