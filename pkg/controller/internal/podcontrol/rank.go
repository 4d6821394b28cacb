package podcontrol

import (
	"sort"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// IsPodActive reports whether pod still counts toward its owner: it has
// not finished and is not being deleted.
func IsPodActive(pod *corev1.Pod) bool {
	return pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed && pod.DeletionTimestamp == nil
}

// FilterActive returns the active pods of pods.
func FilterActive(pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range pods {
		if IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// ReadyCondition returns pod's Ready condition, or nil.
func ReadyCondition(pod *corev1.Pod) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodReady {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether pod's Ready condition is True.
func IsPodReady(pod *corev1.Pod) bool {
	c := ReadyCondition(pod)
	return c != nil && c.Status == corev1.ConditionTrue
}

// IsPodAvailable reports whether pod has been ready for at least
// minReadySeconds at now.
func IsPodAvailable(pod *corev1.Pod, minReadySeconds int32, now time.Time) bool {
	c := ReadyCondition(pod)
	if c == nil || c.Status != corev1.ConditionTrue {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	need := time.Duration(minReadySeconds) * time.Second
	return !c.LastTransitionTime.Time.IsZero() && !c.LastTransitionTime.Time.Add(need).After(now)
}

// phaseRank orders phases from least to most valuable.
func phaseRank(p corev1.PodPhase) int {
	switch p {
	case corev1.PodPending:
		return 0
	case corev1.PodUnknown:
		return 1
	case corev1.PodRunning:
		return 2
	}
	return 3
}

// maxRestarts is the highest restart count among pod's containers.
func maxRestarts(pod *corev1.Pod) int32 {
	var n int32
	for _, s := range pod.Status.ContainerStatuses {
		n = max(n, s.RestartCount)
	}
	return n
}

// LessValuable reports whether a should be deleted before b, by upstream's
// order: unassigned before assigned; Pending before Unknown before
// Running; not ready before ready; ready for less time before more;
// more restarts before fewer; newer before older.
func LessValuable(a, b *corev1.Pod) bool {
	if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	if ra, rb := phaseRank(a.Status.Phase), phaseRank(b.Status.Phase); ra != rb {
		return ra < rb
	}
	readyA, readyB := IsPodReady(a), IsPodReady(b)
	if readyA != readyB {
		return !readyA
	}
	if readyA {
		ta, tb := ReadyCondition(a).LastTransitionTime.Time, ReadyCondition(b).LastTransitionTime.Time
		if !ta.Equal(tb) {
			// A zero time (unknown) counts as ready for the least time.
			if ta.IsZero() || tb.IsZero() {
				return ta.IsZero()
			}
			return ta.After(tb)
		}
	}
	if na, nb := maxRestarts(a), maxRestarts(b); na != nb {
		return na > nb
	}
	ca, cb := a.CreationTimestamp.Time, b.CreationTimestamp.Time
	if !ca.Equal(cb) {
		if ca.IsZero() || cb.IsZero() {
			return ca.IsZero()
		}
		return ca.After(cb)
	}
	return a.Name < b.Name
}

// SortLeastValuableFirst orders pods for deletion: the first are the ones
// to delete first.
func SortLeastValuableFirst(pods []*corev1.Pod) {
	sort.SliceStable(pods, func(i, j int) bool { return LessValuable(pods[i], pods[j]) })
}
