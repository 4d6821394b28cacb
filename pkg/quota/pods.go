package quota

import (
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/resource"
)

// counts reports whether a pod still uses its resources: it has not
// finished, and its deletion grace period has not run out.
func counts(pod *corev1.Pod, now time.Time) bool {
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return false
	}
	if ts := pod.DeletionTimestamp; ts != nil && pod.DeletionGracePeriodSeconds != nil {
		end := ts.Time.Add(time.Duration(*pod.DeletionGracePeriodSeconds) * time.Second)
		return !now.After(end)
	}
	return true
}

// PodRequests sums a pod's containers' requests, takes the larger of that
// and each init container's, and adds the pod's overhead.
func PodRequests(pod *corev1.Pod) corev1.ResourceList {
	return podTotal(pod, true, func(c *corev1.Container) corev1.ResourceList { return c.Resources.Requests })
}

// PodLimits is PodRequests for limits; the overhead is added only to
// resources some container limits, as upstream does.
func PodLimits(pod *corev1.Pod) corev1.ResourceList {
	return podTotal(pod, false, func(c *corev1.Container) corev1.ResourceList { return c.Resources.Limits })
}

func podTotal(pod *corev1.Pod, overheadAll bool, of func(*corev1.Container) corev1.ResourceList) corev1.ResourceList {
	sum := corev1.ResourceList{}
	for i := range pod.Spec.Containers {
		sum = Add(sum, of(&pod.Spec.Containers[i]))
	}
	for i := range pod.Spec.InitContainers {
		for k, v := range of(&pod.Spec.InitContainers[i]) {
			if cur, ok := sum[k]; !ok || v.Cmp(cur) > 0 {
				sum[k] = v.DeepCopy()
			}
		}
	}
	for k, v := range pod.Spec.Overhead {
		if q, ok := sum[k]; ok || overheadAll {
			q.Add(v)
			sum[k] = q
		}
	}
	return sum
}

// computeUsage maps requests and limits to the quota names they fill.
func computeUsage(requests, limits corev1.ResourceList) corev1.ResourceList {
	out := corev1.ResourceList{}
	for k, v := range requests {
		switch {
		case k == corev1.ResourceCPU, k == corev1.ResourceMemory, k == corev1.ResourceEphemeralStorage:
			out[k] = v
			out[corev1.DefaultResourceRequestsPrefix+k] = v
		case strings.HasPrefix(string(k), corev1.ResourceHugePagesPrefix), strings.Contains(string(k), "/"):
			out[corev1.DefaultResourceRequestsPrefix+k] = v
		}
	}
	for k, v := range limits {
		switch k {
		case corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage:
			out["limits."+k] = v
		}
	}
	return out
}

// podUsage is a counted pod's usage: one pod and its compute resources.
func podUsage(pod *corev1.Pod) corev1.ResourceList {
	out := computeUsage(PodRequests(pod), PodLimits(pod))
	out[corev1.ResourcePods] = one()
	return out
}

// constrained are the quota names that oblige every container to state
// the matching request or limit, as upstream has required since before
// QoS classes existed.
var constrained = []corev1.ResourceName{
	corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory,
	corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory,
}

// PodConstraints returns an error naming, per resource, the containers
// that do not specify what a quota on required obliges them to:
// "must specify limits.cpu for: app; requests.memory for: app,init".
func PodConstraints(pod *corev1.Pod, required []corev1.ResourceName) error {
	need := Intersect(required, constrained)
	if len(need) == 0 {
		return nil
	}
	missing := map[corev1.ResourceName][]string{}
	check := func(c *corev1.Container) {
		has := computeUsage(c.Resources.Requests, c.Resources.Limits)
		for _, n := range need {
			if _, ok := has[n]; !ok && !slices.Contains(missing[n], c.Name) {
				missing[n] = append(missing[n], c.Name)
			}
		}
	}
	for i := range pod.Spec.Containers {
		check(&pod.Spec.Containers[i])
	}
	for i := range pod.Spec.InitContainers {
		check(&pod.Spec.InitContainers[i])
	}
	if len(missing) == 0 {
		return nil
	}
	var msgs []string
	for _, n := range need {
		if names := missing[n]; len(names) > 0 {
			slices.Sort(names)
			msgs = append(msgs, fmt.Sprintf("%s for: %s", n, strings.Join(names, ",")))
		}
	}
	return fmt.Errorf("must specify %s", strings.Join(msgs, "; "))
}

// isBestEffort reports a pod whose containers request and limit no cpu
// or memory: the BestEffort QoS class.
func isBestEffort(pod *corev1.Pod) bool {
	all := append(slices.Clone(pod.Spec.InitContainers), pod.Spec.Containers...)
	for i := range all {
		for _, l := range []corev1.ResourceList{all[i].Resources.Requests, all[i].Resources.Limits} {
			for _, k := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				if q, ok := l[k]; ok && q.Sign() > 0 {
					return false
				}
			}
		}
	}
	return true
}

func quantity(n int64) resource.Quantity { return *resource.NewQuantity(n, resource.DecimalSI) }
