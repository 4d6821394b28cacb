package pod

import (
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

// qosResources are the resources the QoS class is computed from.
var qosResources = []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory}

// QOSClass computes a pod's quality-of-service class. When the pod sets
// pod-level requests or limits for cpu or memory, those alone count;
// otherwise every init and application container does.
//
//   - BestEffort: no positive cpu or memory request or limit anywhere.
//   - Guaranteed: every counted requirement has positive cpu and memory
//     limits, and requests equal to them.
//   - Burstable: anything else.
//
// Comparing each requirement's request with its limit gives the same answer
// as comparing the pod-wide sums, because a request may not exceed its limit.
func QOSClass(pod *corev1.Pod) corev1.PodQOSClass {
	var reqs []corev1.ResourceRequirements
	if r := pod.Spec.Resources; r != nil && (hasQOSResource(r.Requests) || hasQOSResource(r.Limits)) {
		reqs = append(reqs, *r)
	} else {
		for _, c := range pod.Spec.InitContainers {
			reqs = append(reqs, c.Resources)
		}
		for _, c := range pod.Spec.Containers {
			reqs = append(reqs, c.Resources)
		}
	}
	bestEffort, guaranteed := true, true
	for _, r := range reqs {
		for _, name := range qosResources {
			req, lim := positive(r.Requests, name), positive(r.Limits, name)
			if req != nil || lim != nil {
				bestEffort = false
			}
			if lim == nil || req == nil || req.Cmp(*lim) != 0 {
				guaranteed = false
			}
		}
	}
	switch {
	case bestEffort:
		return corev1.PodQOSBestEffort
	case guaranteed:
		return corev1.PodQOSGuaranteed
	}
	return corev1.PodQOSBurstable
}

// positive returns the quantity of name in l when it is above zero.
func positive(l corev1.ResourceList, name corev1.ResourceName) *resource.Quantity {
	q, ok := l[name]
	if !ok || q.Sign() <= 0 {
		return nil
	}
	return &q
}

func hasQOSResource(l corev1.ResourceList) bool {
	for _, name := range qosResources {
		if _, ok := l[name]; ok {
			return true
		}
	}
	return false
}
