package job

import (
	"cmp"
	"slices"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// controllerRef returns the owner reference marked as controller, if any.
func controllerRef(refs []meta.OwnerReference) *meta.OwnerReference {
	for i := range refs {
		if c := refs[i].Controller; c != nil && *c {
			return &refs[i]
		}
	}
	return nil
}

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
		case p.DeletionTimestamp == nil:
			s.active = append(s.active, p)
		}
	}
	return s
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
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
// upstream's ActivePods does: unscheduled before scheduled, pending before
// running, not ready before ready, more restarts before fewer, newer before
// older.
func rank(pods []*corev1.Pod) []*corev1.Pod {
	phase := map[corev1.PodPhase]int{corev1.PodPending: 0, corev1.PodUnknown: 1, corev1.PodRunning: 2}
	out := slices.Clone(pods)
	slices.SortStableFunc(out, func(a, b *corev1.Pod) int {
		if c := cmp.Compare(boolInt(a.Spec.NodeName != ""), boolInt(b.Spec.NodeName != "")); c != 0 {
			return c
		}
		if c := cmp.Compare(phase[a.Status.Phase], phase[b.Status.Phase]); c != 0 {
			return c
		}
		if c := cmp.Compare(boolInt(podReady(a)), boolInt(podReady(b))); c != 0 {
			return c
		}
		if c := cmp.Compare(restarts([]*corev1.Pod{b}), restarts([]*corev1.Pod{a})); c != 0 {
			return c
		}
		return b.CreationTimestamp.Compare(a.CreationTimestamp.Time)
	})
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// newPod builds a pod of the job from its template, controlled by the job.
func newPod(job *batchv1.Job) (*corev1.Pod, error) {
	tmpl := &corev1.PodTemplateSpec{}
	if err := tmpl.UnmarshalProto(job.Spec.Template.MarshalProto(nil)); err != nil {
		return nil, err
	}
	yes := true
	pod := &corev1.Pod{
		ObjectMeta: tmpl.ObjectMeta,
		Spec:       tmpl.Spec,
	}
	pod.Name = ""
	pod.GenerateName = job.Name + "-"
	pod.Namespace = job.Namespace
	pod.ResourceVersion, pod.UID = "", ""
	pod.OwnerReferences = []meta.OwnerReference{{
		APIVersion: batchv1.SchemeGroupVersion.String(), Kind: "Job",
		Name: job.Name, UID: job.UID, Controller: &yes, BlockOwnerDeletion: &yes,
	}}
	return pod, nil
}
