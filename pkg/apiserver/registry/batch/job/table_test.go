package job

import (
	"testing"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

func TestJobTableRow(t *testing.T) {
	i32 := func(n int32) *int32 { return &n }
	at := func(ago time.Duration) *meta.Time { t := meta.NewTime(time.Now().Add(-ago)); return &t }
	cond := func(t batchv1.JobConditionType, s corev1.ConditionStatus) batchv1.JobCondition {
		return batchv1.JobCondition{Type: t, Status: s}
	}
	cases := []struct {
		name                          string
		spec                          batchv1.JobSpec
		status                        batchv1.JobStatus
		deleting                      bool
		wantStatus, wantComp, wantDur string
	}{
		{"not started", batchv1.JobSpec{Completions: i32(1), Parallelism: i32(1)}, batchv1.JobStatus{}, false, "Running", "0/1", ""},
		{"running", batchv1.JobSpec{Completions: i32(5)}, batchv1.JobStatus{Succeeded: 2, StartTime: at(3 * time.Minute)}, false,
			"Running", "2/5", "3m"},
		{"work queue", batchv1.JobSpec{Parallelism: i32(4)}, batchv1.JobStatus{StartTime: at(30 * time.Second)}, false,
			"Running", "0/1 of 4", "30s"},
		{"single, no completions", batchv1.JobSpec{}, batchv1.JobStatus{}, false, "Running", "0/1", ""},
		{"complete", batchv1.JobSpec{Completions: i32(1)}, batchv1.JobStatus{Succeeded: 1, StartTime: at(time.Hour), CompletionTime: at(time.Hour - 75*time.Second),
			Conditions: []batchv1.JobCondition{cond(batchv1.JobSuccessCriteriaMet, corev1.ConditionTrue), cond(batchv1.JobComplete, corev1.ConditionTrue)}}, true,
			"Complete", "1/1", "75s"},
		{"failed", batchv1.JobSpec{Completions: i32(1)}, batchv1.JobStatus{Conditions: []batchv1.JobCondition{
			cond(batchv1.JobFailureTarget, corev1.ConditionTrue), cond(batchv1.JobFailed, corev1.ConditionTrue)}}, false, "Failed", "0/1", ""},
		{"failure target", batchv1.JobSpec{Completions: i32(1)}, batchv1.JobStatus{Conditions: []batchv1.JobCondition{
			cond(batchv1.JobFailureTarget, corev1.ConditionTrue)}}, false, "FailureTarget", "0/1", ""},
		{"suspended", batchv1.JobSpec{Completions: i32(1)}, batchv1.JobStatus{Conditions: []batchv1.JobCondition{
			cond(batchv1.JobSuspended, corev1.ConditionTrue)}}, false, "Suspended", "0/1", ""},
		{"resumed", batchv1.JobSpec{Completions: i32(1)}, batchv1.JobStatus{Conditions: []batchv1.JobCondition{
			cond(batchv1.JobSuspended, corev1.ConditionFalse)}}, false, "Running", "0/1", ""},
		{"terminating", batchv1.JobSpec{Completions: i32(1)}, batchv1.JobStatus{Conditions: []batchv1.JobCondition{
			cond(batchv1.JobSuspended, corev1.ConditionTrue)}}, true, "Terminating", "0/1", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := &batchv1.Job{ObjectMeta: meta.ObjectMeta{Name: "pi", CreationTimestamp: meta.NewTime(time.Now().Add(-2 * time.Hour))}, Spec: c.spec, Status: c.status}
			j.Spec.Template.Spec.Containers = []corev1.Container{{Name: "pi", Image: "perl"}}
			j.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"batch.platform.io/controller-uid": "u1"}}
			if c.deleting {
				j.DeletionTimestamp = at(0)
			}
			got := tableRow(j)
			want := []any{"pi", c.wantStatus, c.wantComp, c.wantDur, "120m", "pi", "perl", "batch.platform.io/controller-uid=u1"}
			if len(got) != len(tableColumns.Columns) {
				t.Fatalf("%d cells", len(got))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("cells %q, want %q", got, want)
				}
			}
		})
	}
}
