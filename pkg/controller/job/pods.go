package job

import (
	"slices"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// podSets splits a Job's pods: active ones (not terminal and not being
// deleted), and those that ended in success or failure.
type podSets struct {
	active, succeeded, failed []*corev1.Pod
}

func classify(pods []*corev1.Pod) podSets {
	var s podSets
	for _, p := range pods {
		switch {
		case p.Status.Phase == corev1.PodSucceeded:
			s.succeeded = append(s.succeeded, p)
		case p.Status.Phase == corev1.PodFailed:
			s.failed = append(s.failed, p)
		case podcontrol.IsPodActive(p):
			s.active = append(s.active, p)
		}
	}
	return s
}

// restarts sums the container restarts of the pods still running or
// pending, which count toward backoffLimit under restartPolicy OnFailure.
func restarts(pods []*corev1.Pod) int32 {
	var n int32
	for _, p := range pods {
		if p.Status.Phase != corev1.PodRunning && p.Status.Phase != corev1.PodPending {
			continue
		}
		for _, cs := range p.Status.InitContainerStatuses {
			n += cs.RestartCount
		}
		for _, cs := range p.Status.ContainerStatuses {
			n += cs.RestartCount
		}
	}
	return n
}

// finishTime is when a terminated pod ended: its last container's finish,
// else the last change of its conditions, else its deletion or creation.
func finishTime(p *corev1.Pod) time.Time {
	var t time.Time
	for _, cs := range p.Status.ContainerStatuses {
		if term := cs.State.Terminated; term != nil && term.FinishedAt.After(t) {
			t = term.FinishedAt.Time
		}
	}
	if !t.IsZero() {
		return t
	}
	for _, c := range p.Status.Conditions {
		if c.LastTransitionTime.After(t) {
			t = c.LastTransitionTime.Time
		}
	}
	switch {
	case !t.IsZero():
		return t
	case p.DeletionTimestamp != nil:
		return p.DeletionTimestamp.Time
	}
	return p.CreationTimestamp.Time
}

// rank orders pods from the least to the most valuable to keep, as
// upstream's ActivePods does (podcontrol.LessValuable), without changing
// pods.
func rank(pods []*corev1.Pod) []*corev1.Pod {
	out := slices.Clone(pods)
	podcontrol.SortLeastValuableFirst(out)
	return out
}

// ownerOf is job as the owner of its pods.
func ownerOf(job *batchv1.Job) podcontrol.Owner {
	return podcontrol.Owner{Meta: &job.ObjectMeta, GVK: batchv1.Kind("Job")}
}
