package noderesources

import (
	"math"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/scheduler/framework"
)

// scoreFunc turns per-resource requested and allocatable amounts (node's
// plus the pod's; a zero allocatable means "not scored") into 0..100. It
// is a struct rather than a func value so that the compiler sees the
// slices do not escape and nodeScore can keep them on the stack.
type scoreFunc struct {
	kind      scoreKind
	resources []ResourceSpec
	// one scores one resource (weighted and ratio).
	one func(requested, allocatable int64) int64
}

type scoreKind int

const (
	kindWeighted scoreKind = iota
	kindRatio
	kindBalanced
)

// score scores the amounts of one node; neither slice is kept.
func (f *scoreFunc) score(requested, allocatable []int64) int64 {
	switch f.kind {
	case kindWeighted:
		var sum, weights int64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			sum += f.one(requested[i], allocatable[i]) * f.resources[i].Weight
			weights += f.resources[i].Weight
		}
		if weights == 0 {
			return 0
		}
		return sum / weights
	case kindRatio:
		var sum, weights int64
		for i := range requested {
			if allocatable[i] == 0 {
				continue
			}
			if s := f.one(requested[i], allocatable[i]); s > 0 {
				sum += s * f.resources[i].Weight
				weights += f.resources[i].Weight
			}
		}
		if weights == 0 {
			return 0
		}
		return int64(math.Round(float64(sum) / float64(weights)))
	}
	return balanced(requested, allocatable)
}

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
// The per-resource amounts live in arrays on the stack for up to
// maxInline resources, so that scoring a node allocates nothing.
func (s *allocationScorer) nodeScore(ni *framework.NodeInfo, podReq []int64) int64 {
	n := len(s.resources)
	var rbuf, abuf [maxInline]int64
	requested, allocatable := rbuf[:], abuf[:]
	if n > maxInline {
		requested, allocatable = make([]int64, n), make([]int64, n)
	}
	requested, allocatable = requested[:n], allocatable[:n]
	for i, r := range s.resources {
		allocatable[i], requested[i] = s.amounts(ni, corev1.ResourceName(r.Name), podReq[i])
	}
	return s.score.score(requested, allocatable)
}

// maxInline is how many scored resources nodeScore keeps on the stack.
const maxInline = 8

// amounts returns the node's allocatable amount of name and what would be
// requested with the pod there; (0, 0) leaves the resource out, as for an
// extended resource the pod does not ask for.
func (s *allocationScorer) amounts(ni *framework.NodeInfo, name corev1.ResourceName, podReq int64) (allocatable, requested int64) {
	used := &ni.NonZeroRequested
	if s.useRequested {
		used = &ni.Requested
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
	return scoreFunc{kind: kindWeighted, resources: resources, one: one}
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
	return scoreFunc{kind: kindRatio, resources: resources, one: one}
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
	var buf [maxInline]float64
	fractions := buf[:0]
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
