package job

import (
	"slices"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// finished reports whether job has a Complete or Failed condition that is
// true, and which.
func finished(job *batchv1.Job) (batchv1.JobConditionType, bool) {
	for _, c := range job.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return c.Type, true
		}
	}
	return "", false
}

func findCondition(st *batchv1.JobStatus, t batchv1.JobConditionType) *batchv1.JobCondition {
	for i := range st.Conditions {
		if st.Conditions[i].Type == t {
			return &st.Conditions[i]
		}
	}
	return nil
}

// setCondition sets condition t and reports whether its status changed;
// the transition time moves only then.
func setCondition(st *batchv1.JobStatus, t batchv1.JobConditionType, status corev1.ConditionStatus, reason, msg string, now time.Time) bool {
	ts := meta.NewTime(now)
	c := findCondition(st, t)
	if c == nil {
		st.Conditions = append(st.Conditions, batchv1.JobCondition{
			Type: t, Status: status, Reason: reason, Message: msg, LastProbeTime: ts, LastTransitionTime: ts,
		})
		return true
	}
	if c.Status == status && c.Reason == reason && c.Message == msg {
		return false
	}
	changed := c.Status != status
	if changed {
		c.LastTransitionTime = ts
	}
	c.Status, c.Reason, c.Message, c.LastProbeTime = status, reason, msg, ts
	return changed
}

// copyStatus returns a copy of st that shares no slices or pointers with it.
func copyStatus(st batchv1.JobStatus) batchv1.JobStatus {
	out := st
	out.Conditions = slices.Clone(st.Conditions)
	return out
}
