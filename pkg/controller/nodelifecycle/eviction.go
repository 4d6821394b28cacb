package nodelifecycle

import (
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// evictionTime is when the pod must leave a node with taints, and false
// when it may stay forever. Each NoExecute taint the pod does not tolerate
// evicts it at once from when the taint was added (seen gives the time of
// a taint without timeAdded), except the not-ready and unreachable taints,
// which a pod with no toleration of them at all stands for podTimeout.
// A tolerated taint evicts it after the least tolerationSeconds of the
// tolerations that match it (negative counts as 0); tolerations without
// seconds tolerate it forever. The earliest of these times wins.
func evictionTime(pod *corev1.Pod, taints []corev1.Taint, seen func(corev1.Taint) time.Time, podTimeout time.Duration) (time.Time, bool) {
	var at time.Time
	found := false
	for i := range taints {
		t := &taints[i]
		if t.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		added := seen(*t)
		if t.TimeAdded != nil {
			added = t.TimeAdded.Time
		}
		d, ok := tolerated(pod.Spec.Tolerations, t, podTimeout)
		if !ok {
			continue
		}
		if when := added.Add(d); !found || when.Before(at) {
			at, found = when, true
		}
	}
	return at, found
}

// tolerated is how long the tolerations stand taint t, and false for
// forever.
func tolerated(tols []corev1.Toleration, t *corev1.Taint, podTimeout time.Duration) (time.Duration, bool) {
	matched, limit := false, int64(-1)
	for i := range tols {
		if !tols[i].ToleratesTaint(t) {
			continue
		}
		matched = true
		if s := tols[i].TolerationSeconds; s != nil && (limit < 0 || max(*s, 0) < limit) {
			limit = max(*s, 0)
		}
	}
	switch {
	case !matched && lifecycleKey(t.Key):
		return podTimeout, true
	case !matched:
		return 0, true
	case limit < 0:
		return 0, false
	}
	return time.Duration(limit) * time.Second, true
}
