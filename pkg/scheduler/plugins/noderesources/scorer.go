package noderesources

import (
	"math"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// scoreFunc turns per-resource requested and allocatable amounts (node's
// plus the pod's; a zero allocatable means "not scored") into 0..100.
type scoreFunc func(requested, allocatable []int64) int64

// allocationScorer scores a node by how the pod's requests would use the
// configured resources.
type allocationScorer struct {
	resources []ResourceSpec
	// useRequested scores plain requests; otherwise cpu and memory use the
	// non-zero defaults for containers that request nothing.
	useRequested bool
	score        scoreFunc
}

// podRequests returns the pod's request for each configured resource.
func (s *allocationScorer) podRequests(pod *corev1.Pod) []int64 {
	full := framework.PodRequests(pod)
	cpu, mem := full.MilliCPU, full.Memory
	if !s.useRequested {
		cpu, mem = framework.NonZeroRequests(pod)
	}
	out := make([]int64, len(s.resources))
	for i, r := range s.resources {
		switch corev1.ResourceName(r.Name) {
		case corev1.ResourceCPU:
			out[i] = cpu
		case corev1.ResourceMemory:
			out[i] = mem
		case corev1.ResourceEphemeralStorage:
			out[i] = full.EphemeralStorage
		default:
			out[i] = full.Scalar[corev1.ResourceName(r.Name)]
		}
	}
	return out
}

// nodeScore scores ni for a pod requesting podReq (from podRequests).
func (s *allocationScorer) nodeScore(ni *framework.NodeInfo, podReq []int64) int64 {
	requested := make([]int64, len(s.resources))
	allocatable := make([]int64, len(s.resources))
	for i, r := range s.resources {
		allocatable[i], requested[i] = s.amounts(ni, corev1.ResourceName(r.Name), podReq[i])
	}
	return s.score(requested, allocatable)
}

// amounts returns the node's allocatable amount of name and what would be
// requested with the pod there; (0, 0) leaves the resource out, as for an
// extended resource the pod does not ask for.
func (s *allocationScorer) amounts(ni *framework.NodeInfo, name corev1.ResourceName, podReq int64) (allocatable, requested int64) {
	used := ni.NonZeroRequested
	if s.useRequested {
		used = ni.Requested
	}
	switch name {
	case corev1.ResourceCPU:
		return ni.Allocatable.MilliCPU, used.MilliCPU + podReq
	case corev1.ResourceMemory:
		return ni.Allocatable.Memory, used.Memory + podReq
	case corev1.ResourceEphemeralStorage:
		return ni.Allocatable.EphemeralStorage, ni.Requested.EphemeralStorage + podReq
	}
	if podReq == 0 && framework.IsScalarResource(name) {
		return 0, 0
	}
	if a, ok := ni.Allocatable.Scalar[name]; ok {
		return a, ni.Requested.Scalar[name] + podReq
	}
	return 0, 0
}

// weighted averages per-resource scores by weight over the resources the
// node has.
func weighted(resources []ResourceSpec, one func(requested, allocatable int64) int64) scoreFunc {
	return func(requested, allocatable []int64) int64 {
		var sum, weights int64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			sum += one(requested[i], allocatable[i]) * resources[i].Weight
			weights += resources[i].Weight
		}
		if weights == 0 {
			return 0
		}
		return sum / weights
	}
}

// leastAllocated scores the share left free: (allocatable - requested) *
// 100 / allocatable, 0 when over.
func leastAllocated(requested, allocatable int64) int64 {
	if allocatable == 0 || requested > allocatable {
		return 0
	}
	return (allocatable - requested) * framework.MaxNodeScore / allocatable
}

// mostAllocated scores the share used: requested * 100 / allocatable,
// capped at 100.
func mostAllocated(requested, allocatable int64) int64 {
	if allocatable == 0 {
		return 0
	}
	requested = min(requested, allocatable)
	return requested * framework.MaxNodeScore / allocatable
}

// ratioScorer is RequestedToCapacityRatio: each resource's utilization
// (percent) mapped through the shape (scores scaled from 0..10 to 0..100),
// averaged by weight over the resources that score above zero, rounded.
func ratioScorer(resources []ResourceSpec, shape []UtilizationShapePoint) scoreFunc {
	scaled := make([]UtilizationShapePoint, len(shape))
	for i, p := range shape {
		scaled[i] = UtilizationShapePoint{Utilization: p.Utilization, Score: p.Score * int32(framework.MaxNodeScore/maxCustomPriorityScore)}
	}
	one := func(requested, allocatable int64) int64 {
		if allocatable == 0 || requested > allocatable {
			return brokenLinear(scaled, 100)
		}
		return brokenLinear(scaled, requested*100/allocatable)
	}
	return func(requested, allocatable []int64) int64 {
		var sum, weights int64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			if s := one(requested[i], allocatable[i]); s > 0 {
				sum += s * resources[i].Weight
				weights += resources[i].Weight
			}
		}
		if weights == 0 {
			return 0
		}
		return int64(math.Round(float64(sum) / float64(weights)))
	}
}

// brokenLinear interpolates the shape at utilization u; below the first
// point it is the first score, above the last the last score.
func brokenLinear(shape []UtilizationShapePoint, u int64) int64 {
	for i, p := range shape {
		if u > int64(p.Utilization) {
			continue
		}
		if i == 0 {
			return int64(p.Score)
		}
		q := shape[i-1]
		return int64(q.Score) + int64(p.Score-q.Score)*(u-int64(q.Utilization))/int64(p.Utilization-q.Utilization)
	}
	return int64(shape[len(shape)-1].Score)
}

// balanced scores 100 * (1 - the standard deviation of the resources'
// requested/allocatable fractions, each capped at 1); for two resources
// that is half their difference.
func balanced(requested, allocatable []int64) int64 {
	var fractions []float64
	var total float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		f := min(float64(requested[i])/float64(allocatable[i]), 1)
		fractions = append(fractions, f)
		total += f
	}
	var std float64
	switch n := len(fractions); {
	case n == 2:
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	case n > 2:
		mean := total / float64(n)
		var sq float64
		for _, f := range fractions {
			sq += (f - mean) * (f - mean)
		}
		std = math.Sqrt(sq / float64(n))
	}
	return int64((1 - std) * float64(framework.MaxNodeScore))
}
