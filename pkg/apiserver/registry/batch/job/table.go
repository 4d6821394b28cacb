package job

import (
	"fmt"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/table"
)

// tableColumns are the columns of kubectl get jobs.
var tableColumns = &registry.TableColumns{
	Columns: []meta.TableColumnDefinition{
		table.NameColumn(),
		table.Column("Status", table.TypeString, "The job's state: Running, Complete, Failed, Suspended, FailureTarget or Terminating."),
		table.Column("Completions", table.TypeString, "Succeeded pods out of the completions the job needs."),
		table.Column("Duration", table.TypeString, "How long the job ran, or has been running."),
		table.AgeColumn(),
		table.ContainersColumn(),
		table.ImagesColumn(),
		table.SelectorColumn("The labels of the pods the job runs."),
	},
	Row: func(obj meta.Object) []any { return tableRow(obj.(*batchv1.Job)) },
}

func tableRow(j *batchv1.Job) []any {
	names, images := table.Containers(j.Spec.Template.Spec.Containers)
	return []any{
		j.Name, jobStatus(j), completions(j), duration(&j.Status), table.Age(&j.ObjectMeta),
		names, images, table.Selector(j.Spec.Selector),
	}
}

// completions is "succeeded/completions"; a job without completions needs
// one success, shown "n/1", or "n/1 of p" when it runs p pods in parallel.
func completions(j *batchv1.Job) string {
	done := j.Status.Succeeded
	if c := j.Spec.Completions; c != nil {
		return fmt.Sprintf("%d/%d", done, *c)
	}
	if p := j.Spec.Parallelism; p != nil && *p > 1 {
		return fmt.Sprintf("%d/1 of %d", done, *p)
	}
	return fmt.Sprintf("%d/1", done)
}

// duration is from start to completion, or to now while the job runs;
// empty before it starts.
func duration(st *batchv1.JobStatus) string {
	switch {
	case st.StartTime == nil:
		return ""
	case st.CompletionTime == nil:
		return table.HumanDuration(time.Since(st.StartTime.Time))
	}
	return table.HumanDuration(st.CompletionTime.Sub(st.StartTime.Time))
}

// jobStatus picks, in order, the first that holds: Complete, Failed,
// Terminating (being deleted), Suspended, FailureTarget, else Running.
func jobStatus(j *batchv1.Job) string {
	switch {
	case hasCondition(j, batchv1.JobComplete):
		return "Complete"
	case hasCondition(j, batchv1.JobFailed):
		return "Failed"
	case j.DeletionTimestamp != nil:
		return "Terminating"
	case hasCondition(j, batchv1.JobSuspended):
		return "Suspended"
	case hasCondition(j, batchv1.JobFailureTarget):
		return "FailureTarget"
	}
	return "Running"
}

// hasCondition reports whether the job's first condition of type t is True.
func hasCondition(j *batchv1.Job, t batchv1.JobConditionType) bool {
	for _, c := range j.Status.Conditions {
		if c.Type == t {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
