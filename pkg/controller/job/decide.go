package job

import (
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Backoff between pod re-creations after failures: 10s doubling per
// failure since the last success, capped at 6m, as upstream.
const (
	DefaultBackoff = 10 * time.Second
	MaxBackoff     = 6 * time.Minute
	// maxPodChangesPerSync bounds the creates or deletes of one sync.
	maxPodChangesPerSync = 500
)

// event is a Job event to record once the status is written.
type event struct {
	kind, reason, message string
}

// plan is what one sync of a Job decides: its next status, the pods to
// create and to delete, events, and when to look again.
type plan struct {
	status  batchv1.JobStatus
	create  int
	remove  []*corev1.Pod
	events  []event
	requeue time.Duration
}

// decide computes the plan for job, given the pods it controls, at now.
// The job must not be finished.
func decide(job *batchv1.Job, pods []*corev1.Pod, now time.Time) plan {
	spec := &job.Spec
	sets := classify(pods)
	p := plan{status: copyStatus(job.Status)}
	st := &p.status
	st.Succeeded = max(int32(len(sets.succeeded)), job.Status.Succeeded)
	st.Failed = max(int32(len(sets.failed)), job.Status.Failed)
	suspended := spec.Suspend != nil && *spec.Suspend
	if st.StartTime == nil && !suspended {
		t := meta.NewTime(now)
		st.StartTime = &t
	}
	active := int32(len(sets.active))

	if reason, msg := failure(job, st, sets, suspended, now); reason != "" {
		p.remove = sets.active
		st.Failed += active
		active = 0
		setCondition(st, batchv1.JobFailed, corev1.ConditionTrue, reason, msg, now)
		p.events = append(p.events, event{corev1.EventTypeWarning, reason, msg})
		st.Active, st.Ready = 0, ptr[int32](0)
		return p
	}
	if suspended {
		p.remove = sets.active
		active = 0
		if setCondition(st, batchv1.JobSuspended, corev1.ConditionTrue, "JobSuspended", "Job suspended", now) {
			p.events = append(p.events, event{corev1.EventTypeNormal, "Suspended", "Job suspended"})
		}
	} else {
		if c := findCondition(st, batchv1.JobSuspended); c != nil && c.Status == corev1.ConditionTrue {
			setCondition(st, batchv1.JobSuspended, corev1.ConditionFalse, "JobResumed", "Job resumed", now)
			p.events = append(p.events, event{corev1.EventTypeNormal, "Resumed", "Job resumed"})
			t := meta.NewTime(now)
			st.StartTime = &t
		}
		active = p.scale(job, sets, st.Succeeded, now)
	}
	complete := st.Succeeded > 0 && active == 0
	if spec.Completions != nil {
		complete = st.Succeeded >= *spec.Completions && active == 0
	}
	if complete {
		setCondition(st, batchv1.JobComplete, corev1.ConditionTrue, "", "", now)
		t := meta.NewTime(now)
		st.CompletionTime = &t
		p.events = append(p.events, event{corev1.EventTypeNormal, "Completed", "Job completed"})
	} else if d := spec.ActiveDeadlineSeconds; d != nil && !suspended && st.StartTime != nil {
		left := st.StartTime.Add(time.Duration(*d) * time.Second).Sub(now)
		p.requeueWithin(max(left, time.Second))
	}
	st.Active = active
	st.Ready = ptr(readyCount(sets.active, p.remove))
	return p
}

// failure returns the reason and message of the Failed condition when job
// has run out of retries or time, or "".
func failure(job *batchv1.Job, st *batchv1.JobStatus, sets podSets, suspended bool, now time.Time) (string, string) {
	limit := int32(6)
	if job.Spec.BackoffLimit != nil {
		limit = *job.Spec.BackoffLimit
	}
	onFailure := false
	if job.Spec.Template.Spec.RestartPolicy == corev1.RestartPolicyOnFailure {
		n := restarts(sets.active)
		onFailure = n >= limit && (limit > 0 || n > 0)
	}
	if st.Failed > limit || onFailure {
		return batchv1.JobReasonBackoffLimitExceeded, "Job has reached the specified backoff limit"
	}
	if d := job.Spec.ActiveDeadlineSeconds; d != nil && !suspended && st.StartTime != nil &&
		now.Sub(st.StartTime.Time) >= time.Duration(*d)*time.Second {
		return batchv1.JobReasonDeadlineExceeded, "Job was active longer than specified deadline"
	}
	return "", ""
}

// scale plans creates or deletes toward the wanted number of active pods
// and returns the number active once they are done.
func (p *plan) scale(job *batchv1.Job, sets podSets, succeeded int32, now time.Time) int32 {
	active := int32(len(sets.active))
	parallelism := int32(1)
	if job.Spec.Parallelism != nil {
		parallelism = *job.Spec.Parallelism
	}
	want := parallelism
	switch c := job.Spec.Completions; {
	case c == nil && succeeded > 0:
		want = active // one success: let the others finish, start no more
	case c != nil:
		want = max(0, min(*c-succeeded, parallelism))
	}
	switch {
	case active > want:
		n := min(active-want, maxPodChangesPerSync)
		p.remove = rank(sets.active)[:n]
		return active - n
	case active < want:
		if wait := backoffLeft(sets, now); wait > 0 {
			p.requeueWithin(wait)
			return active
		}
		p.create = int(min(want-active, maxPodChangesPerSync))
		return active + int32(p.create)
	}
	return active
}

// backoffLeft is how long to wait before creating pods again: the backoff
// for the failures since the last success, minus the time since the last
// failure.
func backoffLeft(sets podSets, now time.Time) time.Duration {
	var lastSuccess, lastFailure time.Time
	for _, pod := range sets.succeeded {
		if t := finishTime(pod); t.After(lastSuccess) {
			lastSuccess = t
		}
	}
	failures := 0
	for _, pod := range sets.failed {
		t := finishTime(pod)
		if !t.After(lastSuccess) && !lastSuccess.IsZero() {
			continue
		}
		failures++
		if t.After(lastFailure) {
			lastFailure = t
		}
	}
	if failures == 0 {
		return 0
	}
	return max(0, backoffFor(failures)-now.Sub(lastFailure))
}

// backoffFor is the wait after n consecutive failures.
func backoffFor(n int) time.Duration {
	d := DefaultBackoff
	for i := 1; i < n; i++ {
		d *= 2
		if d >= MaxBackoff {
			return MaxBackoff
		}
	}
	return d
}

func (p *plan) requeueWithin(d time.Duration) {
	if p.requeue == 0 || d < p.requeue {
		p.requeue = d
	}
}

func readyCount(active, removed []*corev1.Pod) int32 {
	gone := map[*corev1.Pod]bool{}
	for _, pod := range removed {
		gone[pod] = true
	}
	var n int32
	for _, pod := range active {
		if !gone[pod] && podcontrol.IsPodReady(pod) {
			n++
		}
	}
	return n
}

func ptr[T any](v T) *T { return &v }
