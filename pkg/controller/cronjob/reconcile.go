package cronjob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/record"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// ScheduledTimestampAnnotation records on each Job the slot it runs for,
// in the CronJob's time zone, as upstream's
// batch.kubernetes.io/cronjob-scheduled-timestamp.
const ScheduledTimestampAnnotation = "batch.platform.io/cronjob-scheduled-timestamp"

// reconciler syncs one CronJob.
type reconciler struct {
	lg       *zap.Logger
	cronJobs informer.Lister[*batchv1.CronJob]
	jobs     informer.Lister[*batchv1.Job]
	w        writer
	rec      record.Recorder
	now      func() time.Time

	mu sync.Mutex
	// reported is the latest skipped start time already reported per
	// CronJob, so a MissSchedule event is recorded once per slot; mu
	// guards it.
	reported map[meta.UID]time.Time
}

var _ ctrl.Reconciler = (*reconciler)(nil)

// Reconcile syncs the CronJob named by key.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	cached, err := r.cronJobs.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("get cronjob %s: %w", key, err)
	}
	cj := podcontrol.Clone(cached)
	jobs, err := r.ownedJobs(cj)
	if err != nil {
		return ctrl.Result{}, err
	}
	stale, err := r.syncActive(ctx, cj, jobs)
	if err != nil || stale {
		return ctrl.Result{}, err
	}
	var requeue time.Duration
	var errs []error
	if cj.DeletionTimestamp == nil {
		requeue, err = r.syncSchedule(ctx, cj, lastFinished(cj, jobs))
		errs = append(errs, err)
	}
	// The status is written before finished Jobs are deleted: what it
	// learnt from them (lastSuccessfulTime, which Forbid reads) must not be
	// lost with them when the write fails.
	if !bytes.Equal(cj.Status.MarshalProto(nil), cached.Status.MarshalProto(nil)) {
		if err := r.w.UpdateCronJobStatus(ctx, cj); err != nil {
			errs = append(errs, fmt.Errorf("update status of cronjob %s: %w", key, err))
			return ctrl.Result{RequeueAfter: requeue}, errors.Join(errs...)
		}
	}
	errs = append(errs, r.cleanup(ctx, cj, jobs))
	return ctrl.Result{RequeueAfter: requeue}, errors.Join(errs...)
}

// ownedJobs lists the Jobs cj controls.
func (r *reconciler) ownedJobs(cj *batchv1.CronJob) ([]*batchv1.Job, error) {
	all, err := r.jobs.Namespace(cj.Namespace).List(nil)
	if err != nil {
		return nil, fmt.Errorf("list jobs of cronjob %s/%s: %w", cj.Namespace, cj.Name, err)
	}
	var out []*batchv1.Job
	for _, j := range all {
		if ref := podcontrol.ControllerOf(&j.ObjectMeta); ref != nil && ref.UID == cj.UID {
			out = append(out, j)
		}
	}
	return out, nil
}

// syncActive brings status.active and lastSuccessfulTime in line with the
// Jobs seen. It reports stale when the cached CronJob is older than the
// server's, in which case nothing should be decided from it yet.
func (r *reconciler) syncActive(ctx context.Context, cj *batchv1.CronJob, jobs []*batchv1.Job) (bool, error) {
	seen := map[meta.UID]bool{}
	for _, j := range jobs {
		seen[j.UID] = true
		cond, done := finishedCondition(j)
		active := inActive(cj, j.UID)
		switch {
		case !active && !done:
			live, err := r.w.GetCronJob(ctx, cj.Namespace, cj.Name)
			if err != nil {
				return false, fmt.Errorf("get cronjob %s/%s: %w", cj.Namespace, cj.Name, err)
			}
			if live.ResourceVersion != cj.ResourceVersion {
				return true, nil // the informer will bring the newer one
			}
			r.rec.Eventf(cronJobRef(cj), corev1.EventTypeWarning, "UnexpectedJob", "Saw a job that the controller did not create or forgot: %s", j.Name)
		case active && done:
			removeActive(cj, j.UID)
			r.rec.Eventf(cronJobRef(cj), corev1.EventTypeNormal, "SawCompletedJob", "Saw completed job: %s, condition: %s", j.Name, cond)
		}
		if cond == batchv1.JobComplete && j.Status.CompletionTime != nil {
			if last := cj.Status.LastSuccessfulTime; last == nil || j.Status.CompletionTime.After(last.Time) {
				t := *j.Status.CompletionTime
				cj.Status.LastSuccessfulTime = &t
			}
		}
	}
	for _, ref := range append([]corev1.ObjectReference(nil), cj.Status.Active...) {
		if seen[ref.UID] {
			continue
		}
		_, err := r.w.GetJob(ctx, ref.Namespace, ref.Name)
		switch {
		case apierrors.IsNotFound(err):
			removeActive(cj, ref.UID)
			r.rec.Eventf(cronJobRef(cj), corev1.EventTypeNormal, "MissingJob", "Active job went missing: %s", ref.Name)
		case err != nil:
			return false, fmt.Errorf("get job %s/%s: %w", ref.Namespace, ref.Name, err)
		}
	}
	return false, nil
}

// syncSchedule starts the Job of the due slot, if any and if the policies
// allow, and returns how long until the next slot.
//
// Forbid skips a slot that came while a prior execution ran, as the spec
// says ("skip the next run if the previous has not finished"): upstream
// would start it late once the prior one finished. A slot is known to have
// come during a prior execution when one is still active, or when the
// latest finish of any of the CronJob's Jobs is after it (that Job started
// at an earlier slot, so it ran across this one).
func (r *reconciler) syncSchedule(ctx context.Context, cj *batchv1.CronJob, finished time.Time) (time.Duration, error) {
	if cj.Spec.Suspend != nil && *cj.Spec.Suspend {
		return 0, nil
	}
	sched, loc, err := parseSchedule(&cj.Spec)
	if err != nil {
		reason := "UnparseableSchedule"
		if errors.Is(err, errUnknownTimeZone) {
			reason = "UnknownTimeZone"
		}
		r.rec.Eventf(cronJobRef(cj), corev1.EventTypeWarning, reason, "%v", err)
		return 0, nil // a retry cannot fix it; a change to the spec enqueues
	}
	now := r.now()
	last := cj.CreationTimestamp.Time
	if cj.Status.LastScheduleTime != nil {
		last = cj.Status.LastScheduleTime.Time
	}
	s := compute(sched, last, cj.Spec.StartingDeadlineSeconds, now)
	var requeue time.Duration
	if !s.next.IsZero() {
		requeue = s.next.Sub(now) + 100*time.Millisecond
	}
	r.reportMissed(cj, s)
	if s.due.IsZero() {
		return requeue, nil
	}
	if s.missed > tooManyMissed {
		r.rec.Eventf(cronJobRef(cj), corev1.EventTypeWarning, "TooManyMissedTimes",
			"too many missed start times: %d. Set or decrease .spec.startingDeadlineSeconds or check clock skew", s.missed)
	}
	switch cj.Spec.ConcurrencyPolicy {
	case batchv1.ForbidConcurrent:
		if len(cj.Status.Active) > 0 || finished.After(s.due) {
			r.rec.Eventf(cronJobRef(cj), corev1.EventTypeNormal, "JobAlreadyActive",
				"Not starting job because prior execution is running and concurrency policy is Forbid")
			return requeue, nil
		}
	case batchv1.ReplaceConcurrent:
		for _, ref := range append([]corev1.ObjectReference(nil), cj.Status.Active...) {
			if err := r.deleteJob(ctx, cj, ref.Namespace, ref.Name, ref.UID); err != nil {
				return requeue, fmt.Errorf("replace job %s/%s: %w", ref.Namespace, ref.Name, err)
			}
		}
	}
	return requeue, r.start(ctx, cj, s.due, loc)
}

// reportMissed records MissSchedule once per skipped slot.
func (r *reconciler) reportMissed(cj *batchv1.CronJob, s slots) {
	r.mu.Lock()
	if s.skipped == 0 {
		delete(r.reported, cj.UID)
		r.mu.Unlock()
		return
	}
	old := r.reported[cj.UID]
	if !s.lastSkipped.After(old) {
		r.mu.Unlock()
		return
	}
	r.reported[cj.UID] = s.lastSkipped
	r.mu.Unlock()
	r.rec.Eventf(cronJobRef(cj), corev1.EventTypeWarning, "MissSchedule",
		"Missed scheduled time to start a job: %s", s.lastSkipped.UTC().Format(time.RFC1123Z))
}
