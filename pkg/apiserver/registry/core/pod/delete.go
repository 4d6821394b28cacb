package pod

import corev1 "platform.io/client/api/core/v1"

// defaultGracePeriod is used when a pod sets no terminationGracePeriodSeconds.
const defaultGracePeriod = 30

// gracePeriod decides how long a deleted pod lingers for its node to stop
// it: the requested seconds, else the pod's terminationGracePeriodSeconds.
// A pod that no node runs (unscheduled, or already finished) goes at once.
// The node confirms the stop with a delete of grace 0.
func gracePeriod(pod *corev1.Pod, requested *int64) int64 {
	if pod.Spec.NodeName == "" || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return 0
	}
	grace := int64(defaultGracePeriod)
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil {
		grace = *g
	}
	if requested != nil {
		grace = *requested
	}
	if grace < 0 {
		// A negative period (allowed on the pod for old clients) means "as
		// soon as possible", which a node still has to confirm.
		grace = 1
	}
	return grace
}
