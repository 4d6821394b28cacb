package statefulset

import (
	"strconv"
	"strings"
	"time"

	appsv1 "platform.io/client/api/apps/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/controller/internal/history"
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// PodNameLabel is the label holding a set pod's own name, so a Service can
// select one member.
const PodNameLabel = "statefulset.platform.io/pod-name"

// podName is the name of set's pod with ordinal.
func podName(set *appsv1.StatefulSet, ordinal int) string {
	return set.Name + "-" + strconv.Itoa(ordinal)
}

// ordinalOf returns the ordinal in the name of set's pod pod, or false when
// the name is not <set>-<ordinal>.
func ordinalOf(set *appsv1.StatefulSet, pod *corev1.Pod) (int, bool) {
	rest, ok := strings.CutPrefix(pod.Name, set.Name+"-")
	if !ok || rest == "" || (len(rest) > 1 && rest[0] == '0') {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// ordinalRange returns the first ordinal and the count of set's pods.
func ordinalRange(set *appsv1.StatefulSet) (start, count int) {
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	count = 1
	if set.Spec.Replicas != nil {
		count = int(*set.Spec.Replicas)
	}
	return start, count
}

// revisionOf is the name of the revision pod was made from.
func revisionOf(pod *corev1.Pod) string {
	return pod.Labels[history.HashLabel]
}

// newPod builds set's pod with ordinal from tmpl (the template of the
// revision named revision): its stable name, identity labels, hostname and
// the governing service's subdomain.
func newPod(set *appsv1.StatefulSet, tmpl *corev1.PodTemplateSpec, revision string, ordinal int) (*corev1.Pod, error) {
	pod, err := podcontrol.PodFromTemplate(tmpl, ownerOf(set))
	if err != nil {
		return nil, err
	}
	pod.GenerateName = ""
	pod.Name = podName(set, ordinal)
	pod.Labels[PodNameLabel] = pod.Name
	pod.Labels[history.HashLabel] = revision
	pod.Spec.Hostname = pod.Name
	pod.Spec.Subdomain = set.Spec.ServiceName
	return pod, nil
}

func isTerminating(pod *corev1.Pod) bool { return pod.DeletionTimestamp != nil }

func isFinished(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded
}

// isHealthy: running, ready and not being deleted.
func isHealthy(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodRunning && podcontrol.IsPodReady(pod) && !isTerminating(pod)
}

// availableIn returns 0 when pod is healthy and has been ready for
// minReadySeconds at now; the time left when it is healthy but not yet
// available; and -1 when it is not healthy.
func availableIn(pod *corev1.Pod, minReadySeconds int32, now time.Time) time.Duration {
	if !isHealthy(pod) {
		return -1
	}
	if minReadySeconds <= 0 || podcontrol.IsPodAvailable(pod, minReadySeconds, now) {
		return 0
	}
	c := podcontrol.ReadyCondition(pod)
	left := c.LastTransitionTime.Time.Add(time.Duration(minReadySeconds) * time.Second).Sub(now)
	if left <= 0 {
		left = time.Second
	}
	return left
}
