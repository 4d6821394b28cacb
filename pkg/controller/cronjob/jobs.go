package cronjob

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// JobName is the name of the Job of cj's slot at t: the CronJob's name and
// the slot in minutes since the epoch, so a slot maps to one name however
// often it is tried.
func JobName(cronJobName string, t time.Time) string {
	return fmt.Sprintf("%s-%d", cronJobName, t.Unix()/60)
}

// start creates the Job of the slot at t and records it as active. A Job
// of that name that cj already controls means the slot was started
// before (by this process before a crash, or by another leader).
func (r *reconciler) start(ctx context.Context, cj *batchv1.CronJob, t time.Time, loc *time.Location) error {
	job := jobFor(cj, t, loc)
	out, err := r.w.CreateJob(ctx, job)
	if apierrors.IsAlreadyExists(err) {
		out, err = r.w.GetJob(ctx, job.Namespace, job.Name)
		if err != nil {
			return fmt.Errorf("get job %s/%s: %w", job.Namespace, job.Name, err)
		}
		if ref := podcontrol.ControllerOf(&out.ObjectMeta); ref == nil || ref.UID != cj.UID {
			r.rec.Eventf(cronJobRef(cj), corev1.EventTypeWarning, "FailedCreate", "Error creating job: %s exists and is not controlled by this cronjob", job.Name)
			return fmt.Errorf("job %s/%s exists and is not controlled by cronjob %s", job.Namespace, job.Name, cj.Name)
		}
	} else if err != nil {
		r.rec.Eventf(cronJobRef(cj), corev1.EventTypeWarning, "FailedCreate", "Error creating job: %v", err)
		return fmt.Errorf("create job %s/%s: %w", job.Namespace, job.Name, err)
	} else {
		r.rec.Eventf(cronJobRef(cj), corev1.EventTypeNormal, "SuccessfulCreate", "Created job %s", out.Name)
	}
	if _, done := finishedCondition(out); !done && !inActive(cj, out.UID) {
		cj.Status.Active = append(cj.Status.Active, corev1.ObjectReference{
			Kind: "Job", APIVersion: batchv1.SchemeGroupVersion.String(),
			Namespace: out.Namespace, Name: out.Name, UID: out.UID, ResourceVersion: out.ResourceVersion,
		})
	}
	ts := meta.NewTime(t)
	cj.Status.LastScheduleTime = &ts
	return nil
}

// jobFor builds the Job of cj's slot at t from the job template.
func jobFor(cj *batchv1.CronJob, t time.Time, loc *time.Location) *batchv1.Job {
	tmpl := podcontrol.Clone(&cj.Spec.JobTemplate)
	annotations := maps.Clone(tmpl.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[ScheduledTimestampAnnotation] = t.In(loc).Format(time.RFC3339)
	return &batchv1.Job{
		ObjectMeta: meta.ObjectMeta{
			Name: JobName(cj.Name, t), Namespace: cj.Namespace,
			Labels: tmpl.Labels, Annotations: annotations,
			OwnerReferences: []meta.OwnerReference{
				podcontrol.Owner{Meta: &cj.ObjectMeta, GVK: batchv1.Kind("CronJob")}.Ref(),
			},
		},
		Spec: tmpl.Spec,
	}
}

// deleteJob deletes one of cj's Jobs and drops it from status.active; a
// Job already gone counts as deleted.
func (r *reconciler) deleteJob(ctx context.Context, cj *batchv1.CronJob, ns, name string, uid meta.UID) error {
	err := r.w.DeleteJob(ctx, ns, name)
	if err != nil && !apierrors.IsNotFound(err) {
		r.rec.Eventf(cronJobRef(cj), corev1.EventTypeWarning, "FailedDelete", "Deleted job: %v", err)
		return fmt.Errorf("delete job %s/%s: %w", ns, name, err)
	}
	removeActive(cj, uid)
	if err == nil {
		r.rec.Eventf(cronJobRef(cj), corev1.EventTypeNormal, "SuccessfulDelete", "Deleted job %s", name)
	}
	return nil
}

// cleanup deletes the oldest finished Jobs beyond the history limits. An
// unset limit keeps every Job of its kind; zero keeps none.
func (r *reconciler) cleanup(ctx context.Context, cj *batchv1.CronJob, jobs []*batchv1.Job) error {
	var errs []error
	for _, h := range []struct {
		cond  batchv1.JobConditionType
		limit *int32
	}{{batchv1.JobComplete, cj.Spec.SuccessfulJobsHistoryLimit}, {batchv1.JobFailed, cj.Spec.FailedJobsHistoryLimit}} {
		for _, j := range beyondLimit(jobs, h.cond, h.limit) {
			errs = append(errs, r.deleteJob(ctx, cj, j.Namespace, j.Name, j.UID))
		}
	}
	return errors.Join(errs...)
}

// beyondLimit returns the Jobs finished with cond that the limit does not
// keep, oldest first.
func beyondLimit(jobs []*batchv1.Job, cond batchv1.JobConditionType, limit *int32) []*batchv1.Job {
	if limit == nil {
		return nil
	}
	var done []*batchv1.Job
	for _, j := range jobs {
		if c, ok := finishedCondition(j); ok && c == cond && j.DeletionTimestamp == nil {
			done = append(done, j)
		}
	}
	if len(done) <= int(*limit) {
		return nil
	}
	slices.SortFunc(done, func(a, b *batchv1.Job) int {
		if c := startOf(a).Compare(startOf(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return done[:len(done)-int(*limit)]
}

func startOf(j *batchv1.Job) time.Time {
	if j.Status.StartTime != nil {
		return j.Status.StartTime.Time
	}
	return j.CreationTimestamp.Time
}

// finishedCondition returns Complete or Failed when j has that condition
// true.
func finishedCondition(j *batchv1.Job) (batchv1.JobConditionType, bool) {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return c.Type, true
		}
	}
	return "", false
}

func inActive(cj *batchv1.CronJob, uid meta.UID) bool {
	return slices.ContainsFunc(cj.Status.Active, func(r corev1.ObjectReference) bool { return r.UID == uid })
}

func removeActive(cj *batchv1.CronJob, uid meta.UID) {
	cj.Status.Active = slices.DeleteFunc(cj.Status.Active, func(r corev1.ObjectReference) bool { return r.UID == uid })
	if len(cj.Status.Active) == 0 {
		cj.Status.Active = nil
	}
}

// cronJobRef is the involved object of the CronJob's events.
func cronJobRef(cj *batchv1.CronJob) *corev1.ObjectReference {
	return &corev1.ObjectReference{
		Kind: "CronJob", APIVersion: batchv1.SchemeGroupVersion.String(),
		Namespace: cj.Namespace, Name: cj.Name, UID: cj.UID, ResourceVersion: cj.ResourceVersion,
	}
}

// lastFinished returns the latest time one of jobs, or the last successful
// one recorded in cj's status, finished; zero when none has.
func lastFinished(cj *batchv1.CronJob, jobs []*batchv1.Job) time.Time {
	var t time.Time
	if cj.Status.LastSuccessfulTime != nil {
		t = cj.Status.LastSuccessfulTime.Time
	}
	for _, j := range jobs {
		if j.Status.CompletionTime != nil && j.Status.CompletionTime.After(t) {
			t = j.Status.CompletionTime.Time
		}
		for _, c := range j.Status.Conditions {
			if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue && c.LastTransitionTime.After(t) {
				t = c.LastTransitionTime.Time
			}
		}
	}
	return t
}
