package framework

import (
	"strings"

	corev1 "platform.io/client/api/core/v1"
)

// Default requests counted for scoring a container that sets none, as
// upstream: 0.1 core and 200 MiB, so that many "free" pods do not all land
// on one node.
const (
	DefaultMilliCPURequest int64 = 100
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024
)

// Resource is an amount of compute resources: cpu in millicores, memory
// and ephemeral storage in bytes, a pod count, and extended resources
// (devices, hugepages) by name.
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	AllowedPodNumber int64
	Scalar           map[corev1.ResourceName]int64
}

// NewResource returns the amounts in rl.
func NewResource(rl corev1.ResourceList) *Resource {
	r := &Resource{}
	r.Add(rl)
	return r
}

// Add adds the amounts in rl.
func (r *Resource) Add(rl corev1.ResourceList) {
	for name, q := range rl {
		switch name {
		case corev1.ResourceCPU:
			r.MilliCPU += q.MilliValue()
		case corev1.ResourceMemory:
			r.Memory += q.Value()
		case corev1.ResourceEphemeralStorage:
			r.EphemeralStorage += q.Value()
		case corev1.ResourcePods:
			r.AllowedPodNumber += q.Value()
		default:
			if IsScalarResource(name) {
				r.SetScalar(name, r.Scalar[name]+q.Value())
			}
		}
	}
}

// SetMax raises each amount to rl's where rl's is larger.
func (r *Resource) SetMax(rl corev1.ResourceList) {
	o := NewResource(rl)
	r.MilliCPU = max(r.MilliCPU, o.MilliCPU)
	r.Memory = max(r.Memory, o.Memory)
	r.EphemeralStorage = max(r.EphemeralStorage, o.EphemeralStorage)
	for name, v := range o.Scalar {
		if v > r.Scalar[name] {
			r.SetScalar(name, v)
		}
	}
}

// AddResource adds o.
func (r *Resource) AddResource(o *Resource) {
	r.MilliCPU += o.MilliCPU
	r.Memory += o.Memory
	r.EphemeralStorage += o.EphemeralStorage
	r.AllowedPodNumber += o.AllowedPodNumber
	for name, v := range o.Scalar {
		r.SetScalar(name, r.Scalar[name]+v)
	}
}

// SubResource subtracts o.
func (r *Resource) SubResource(o *Resource) {
	r.MilliCPU -= o.MilliCPU
	r.Memory -= o.Memory
	r.EphemeralStorage -= o.EphemeralStorage
	r.AllowedPodNumber -= o.AllowedPodNumber
	for name, v := range o.Scalar {
		r.SetScalar(name, r.Scalar[name]-v)
	}
}

// SetScalar sets an extended resource's amount.
func (r *Resource) SetScalar(name corev1.ResourceName, v int64) {
	if r.Scalar == nil {
		r.Scalar = map[corev1.ResourceName]int64{}
	}
	r.Scalar[name] = v
}

// Clone returns a copy.
func (r *Resource) Clone() *Resource {
	c := *r
	if r.Scalar != nil {
		c.Scalar = make(map[corev1.ResourceName]int64, len(r.Scalar))
		for k, v := range r.Scalar {
			c.Scalar[k] = v
		}
	}
	return &c
}

// IsScalarResource reports an extended resource: a name with a domain
// ("example.com/gpu"), hugepages-*, or attachable-volumes-*.
func IsScalarResource(name corev1.ResourceName) bool {
	s := string(name)
	return strings.Contains(s, "/") || strings.HasPrefix(s, "hugepages-") || strings.HasPrefix(s, "attachable-volumes-")
}

// PodRequests returns what a pod asks of a node, as upstream computes it:
// the larger of the sum of its containers' requests and the largest init
// container's request (init containers run one at a time, before the
// others), plus the pod's overhead.
func PodRequests(pod *corev1.Pod) *Resource {
	r := &Resource{}
	for i := range pod.Spec.Containers {
		r.Add(pod.Spec.Containers[i].Resources.Requests)
	}
	for i := range pod.Spec.InitContainers {
		r.SetMax(pod.Spec.InitContainers[i].Resources.Requests)
	}
	r.Add(pod.Spec.Overhead)
	return r
}

// NonZeroRequests returns cpu and memory requests with the defaults above
// in place of a container's unset request, for scoring.
func NonZeroRequests(pod *corev1.Pod) (milliCPU, memory int64) {
	nonzero := func(c *corev1.Container) (int64, int64) {
		cpu, mem := DefaultMilliCPURequest, DefaultMemoryRequest
		if q, ok := c.Resources.Requests[corev1.ResourceCPU]; ok {
			cpu = q.MilliValue()
		}
		if q, ok := c.Resources.Requests[corev1.ResourceMemory]; ok {
			mem = q.Value()
		}
		return cpu, mem
	}
	for i := range pod.Spec.Containers {
		c, m := nonzero(&pod.Spec.Containers[i])
		milliCPU += c
		memory += m
	}
	for i := range pod.Spec.InitContainers {
		c, m := nonzero(&pod.Spec.InitContainers[i])
		milliCPU = max(milliCPU, c)
		memory = max(memory, m)
	}
	if q, ok := pod.Spec.Overhead[corev1.ResourceCPU]; ok {
		milliCPU += q.MilliValue()
	}
	if q, ok := pod.Spec.Overhead[corev1.ResourceMemory]; ok {
		memory += q.Value()
	}
	return milliCPU, memory
}
