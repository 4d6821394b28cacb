package simnode

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

const (
	// AnnotationExitCode on a pod with restartPolicy Never or OnFailure
	// is the exit code its containers end with when the pod completes;
	// unset or not a number means 0.
	AnnotationExitCode = "simnode.platform.io/exit-code"
	// maxRestartCount caps restartCount, as the spec's Limits table says.
	maxRestartCount = 5

	reasonCompleted   = "Completed"
	reasonError       = "Error"
	reasonPodComplete = "PodCompleted"
	reasonNotReady    = "ContainersNotReady"
)

// podEnv is what the next step of a pod depends on besides the pod.
type podEnv struct {
	hostIP, podIP  string
	readinessDelay time.Duration
	jobDuration    time.Duration
}

// step is what the agent does next with a pod: write status (nil for no
// change), confirm its deletion, and come back after a while (0: only on
// a change).
type step struct {
	status *corev1.PodStatus
	delete bool
	after  time.Duration
}

// nextStep decides a pod's next step at now. It never changes pod.
func nextStep(pod *corev1.Pod, env podEnv, now time.Time) step {
	phase := pod.Status.Phase
	terminal := phase == corev1.PodSucceeded || phase == corev1.PodFailed
	if pod.DeletionTimestamp != nil {
		return terminating(pod, terminal, now)
	}
	if terminal {
		return step{}
	}
	if pod.Status.StartTime == nil || len(pod.Status.ContainerStatuses) != len(pod.Spec.Containers) {
		st := started(pod, env, now)
		return step{status: st, after: nextVisit(pod, st, env, now)}
	}
	st := progressed(pod, env, now)
	cur := st
	if cur == nil {
		cur = &pod.Status
	}
	return step{status: st, after: nextVisit(pod, cur, env, now)}
}

// terminating stops a pod being deleted: its containers end, it turns
// not ready, and once its grace period is over the deletion is confirmed.
func terminating(pod *corev1.Pod, terminal bool, now time.Time) step {
	deadline := pod.DeletionTimestamp.Time
	var st *corev1.PodStatus
	if !terminal && slices.ContainsFunc(pod.Status.ContainerStatuses, func(c corev1.ContainerStatus) bool { return c.State.Terminated == nil }) {
		st = copyStatus(&pod.Status)
		for i := range st.ContainerStatuses {
			terminate(&st.ContainerStatuses[i], 0, reasonCompleted, now)
		}
		setReady(st, false, reasonNotReady, now)
	}
	if !now.Before(deadline) {
		return step{status: st, delete: true}
	}
	return step{status: st, after: deadline.Sub(now)}
}

// started moves a pending pod to Running: addresses, start time, running
// containers (ready at once when there is no readiness delay).
func started(pod *corev1.Pod, env podEnv, now time.Time) *corev1.PodStatus {
	st := copyStatus(&pod.Status)
	t := meta.NewTime(now.UTC().Truncate(time.Second))
	st.Phase = corev1.PodRunning
	st.HostIP, st.HostIPs = env.hostIP, []corev1.HostIP{{IP: env.hostIP}}
	st.PodIP, st.PodIPs = env.podIP, []corev1.PodIP{{IP: env.podIP}}
	st.StartTime = &t
	ready := env.readinessDelay <= 0
	st.InitContainerStatuses = nil
	for _, c := range pod.Spec.InitContainers {
		cs := containerStatus(pod, c, 0)
		terminate(&cs, 0, reasonCompleted, now)
		st.InitContainerStatuses = append(st.InitContainerStatuses, cs)
	}
	st.ContainerStatuses = nil
	for _, c := range pod.Spec.Containers {
		cs := containerStatus(pod, c, 0)
		cs.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: t}}
		cs.Ready = ready
		st.ContainerStatuses = append(st.ContainerStatuses, cs)
	}
	setCondition(st, corev1.PodScheduled, corev1.ConditionTrue, "", now)
	setCondition(st, corev1.PodInitialized, corev1.ConditionTrue, "", now)
	setReady(st, ready, reasonNotReady, now)
	return st
}

// progressed makes running containers ready after the delay and completes
// the pods that complete; nil when nothing changes.
func progressed(pod *corev1.Pod, env podEnv, now time.Time) *corev1.PodStatus {
	if completes(pod) {
		if end, ok := runningSince(&pod.Status); ok && !now.Before(end.Add(env.jobDuration)) {
			return completed(pod, now)
		}
	}
	if allReady(&pod.Status) {
		if readyCondition(&pod.Status) == corev1.ConditionTrue {
			return nil
		}
		// Someone else (the node lifecycle loop) marked the pod not
		// ready while its containers are: report them again.
		st := copyStatus(&pod.Status)
		setReady(st, true, "", now)
		return st
	}
	st := copyStatus(&pod.Status)
	changed := false
	for i := range st.ContainerStatuses {
		cs := &st.ContainerStatuses[i]
		if r := cs.State.Running; r != nil && !cs.Ready && !now.Before(r.StartedAt.Add(env.readinessDelay)) {
			cs.Ready, changed = true, true
		}
	}
	if !changed {
		return nil
	}
	setReady(st, allReady(st), reasonNotReady, now)
	return st
}

// completed ends a completing pod's run: with exit code 0 it Succeeded;
// otherwise under restartPolicy Never it Failed, and under OnFailure its
// containers restart (restartCount capped at 5) and run again.
func completed(pod *corev1.Pod, now time.Time) *corev1.PodStatus {
	st := copyStatus(&pod.Status)
	code := exitCode(pod)
	if code != 0 && pod.Spec.RestartPolicy == corev1.RestartPolicyOnFailure {
		t := meta.NewTime(now.UTC().Truncate(time.Second))
		for i := range st.ContainerStatuses {
			cs := &st.ContainerStatuses[i]
			terminate(cs, code, reasonError, now)
			cs.LastTerminationState = cs.State
			cs.RestartCount = min(cs.RestartCount+1, maxRestartCount)
			cs.ContainerID = containerID(pod, cs.Name, cs.RestartCount)
			cs.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: t}}
			cs.Ready = false
		}
		setReady(st, false, reasonNotReady, now)
		return st
	}
	reason := reasonCompleted
	st.Phase = corev1.PodSucceeded
	if code != 0 {
		reason, st.Phase = reasonError, corev1.PodFailed
	}
	for i := range st.ContainerStatuses {
		terminate(&st.ContainerStatuses[i], code, reason, now)
	}
	setReady(st, false, reasonPodComplete, now)
	return st
}

// nextVisit is how long until the pod's next change under st: a
// container's readiness or the pod's completion; 0 for none.
func nextVisit(pod *corev1.Pod, st *corev1.PodStatus, env podEnv, now time.Time) time.Duration {
	var next time.Duration
	consider := func(at time.Time) {
		if d := max(at.Sub(now), time.Millisecond); next == 0 || d < next {
			next = d
		}
	}
	for _, cs := range st.ContainerStatuses {
		if r := cs.State.Running; r != nil && !cs.Ready {
			consider(r.StartedAt.Add(env.readinessDelay))
		}
	}
	if since, ok := runningSince(st); ok && completes(pod) && st.Phase == corev1.PodRunning {
		consider(since.Add(env.jobDuration))
	}
	return next
}

// completes reports whether the pod ends by itself: a Job's pod, or a pod
// that does not restart always and carries an exit code.
func completes(pod *corev1.Pod) bool {
	for _, o := range pod.OwnerReferences {
		if o.Kind == "Job" && o.Controller != nil && *o.Controller {
			return true
		}
	}
	_, ok := pod.Annotations[AnnotationExitCode]
	return ok && pod.Spec.RestartPolicy != corev1.RestartPolicyAlways && pod.Spec.RestartPolicy != ""
}

func exitCode(pod *corev1.Pod) int32 {
	if pod.Spec.RestartPolicy == corev1.RestartPolicyAlways {
		return 0
	}
	n, err := strconv.ParseInt(pod.Annotations[AnnotationExitCode], 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// runningSince is the latest start of the pod's running containers.
func runningSince(st *corev1.PodStatus) (time.Time, bool) {
	var since time.Time
	ok := false
	for _, cs := range st.ContainerStatuses {
		if r := cs.State.Running; r != nil {
			if !ok || r.StartedAt.After(since) {
				since = r.StartedAt.Time
			}
			ok = true
		}
	}
	return since, ok
}

func allReady(st *corev1.PodStatus) bool {
	for _, cs := range st.ContainerStatuses {
		if !cs.Ready {
			return false
		}
	}
	return len(st.ContainerStatuses) > 0
}

// containerStatus is a container's identity: name, image, ids.
func containerStatus(pod *corev1.Pod, c corev1.Container, restarts int32) corev1.ContainerStatus {
	sum := sha256.Sum256([]byte(c.Image))
	started := true
	return corev1.ContainerStatus{
		Name: c.Name, Image: c.Image, RestartCount: restarts, Started: &started,
		ImageID:     "docker-pullable://" + c.Image + "@sha256:" + hex.EncodeToString(sum[:]),
		ContainerID: containerID(pod, c.Name, restarts),
	}
}

// containerID is "docker://" and 64 hex digits, fixed for one run of one
// container of one pod.
func containerID(pod *corev1.Pod, name string, restarts int32) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%s/%d", pod.UID, name, restarts))
	return "docker://" + hex.EncodeToString(sum[:])
}

// terminate ends a container's run with code, unless it has ended.
func terminate(cs *corev1.ContainerStatus, code int32, reason string, now time.Time) {
	if cs.State.Terminated != nil {
		return
	}
	t := &corev1.ContainerStateTerminated{ExitCode: code, Reason: reason, FinishedAt: meta.NewTime(now.UTC().Truncate(time.Second)), ContainerID: cs.ContainerID}
	if r := cs.State.Running; r != nil {
		t.StartedAt = r.StartedAt
	}
	cs.State, cs.Ready = corev1.ContainerState{Terminated: t}, false
	started := false
	cs.Started = &started
}

// setReady sets the ContainersReady and Ready conditions.
func setReady(st *corev1.PodStatus, ready bool, reason string, now time.Time) {
	s := corev1.ConditionFalse
	if ready {
		s, reason = corev1.ConditionTrue, ""
	}
	setCondition(st, corev1.ContainersReady, s, reason, now)
	setCondition(st, corev1.PodReady, s, reason, now)
}

// setCondition sets one pod condition, keeping its transition time when
// its status does not change.
func setCondition(st *corev1.PodStatus, typ corev1.PodConditionType, s corev1.ConditionStatus, reason string, now time.Time) {
	c := corev1.PodCondition{Type: typ, Status: s, Reason: reason, LastTransitionTime: meta.NewTime(now.UTC().Truncate(time.Second))}
	for i := range st.Conditions {
		if st.Conditions[i].Type == typ {
			if st.Conditions[i].Status == s {
				c.LastTransitionTime = st.Conditions[i].LastTransitionTime
			}
			st.Conditions[i] = c
			return
		}
	}
	st.Conditions = append(st.Conditions, c)
}

// copyStatus copies the parts of a status the agent changes, so that the
// cached pod is never written to.
func copyStatus(in *corev1.PodStatus) *corev1.PodStatus {
	st := *in
	st.Conditions = slices.Clone(in.Conditions)
	st.HostIPs, st.PodIPs = slices.Clone(in.HostIPs), slices.Clone(in.PodIPs)
	st.InitContainerStatuses = slices.Clone(in.InitContainerStatuses)
	st.ContainerStatuses = slices.Clone(in.ContainerStatuses)
	return &st
}

func readyCondition(st *corev1.PodStatus) corev1.ConditionStatus {
	for _, c := range st.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status
		}
	}
	return ""
}
