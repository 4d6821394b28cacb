package ttlafterfinished

import (
	"context"
	"fmt"
	"strings"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
)

// jobStore is the server side of the loop: a live read, and a delete that
// holds only if the Job is still the one read.
type jobStore interface {
	Get(ctx context.Context, ns, name string) (*batchv1.Job, error)
	Delete(ctx context.Context, job *batchv1.Job) error
}

type reconciler struct {
	jobs informer.Lister[*batchv1.Job]
	live jobStore
	now  func() time.Time
}

var _ ctrl.Reconciler = (*reconciler)(nil)

// Reconcile deletes the Job named by key if its TTL has expired, or asks
// to be called again when it will.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	job, err := r.jobs.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("get job %s: %w", key, err)
	}
	left, ok := timeLeft(job, r.now())
	if !ok || left > 0 {
		return ctrl.Result{RequeueAfter: left}, nil
	}
	// The cache may be behind a change of the TTL: decide on the live Job.
	fresh, err := r.live.Get(ctx, ns, name)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("get job %s: %w", key, err)
	}
	left, ok = timeLeft(fresh, r.now())
	if !ok || left > 0 {
		return ctrl.Result{RequeueAfter: left}, nil
	}
	err = r.live.Delete(ctx, fresh)
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		// A conflict means the Job changed since it was read: look again.
		return ctrl.Result{}, fmt.Errorf("delete job %s: %w", key, err)
	}
	return ctrl.Result{}, nil
}

// timeLeft reports how long until job's TTL expires (zero or less when it
// has), and false when the Job is not subject to one: no TTL, not
// finished, or already being deleted.
func timeLeft(job *batchv1.Job, now time.Time) (time.Duration, bool) {
	ttl := job.Spec.TTLSecondsAfterFinished
	if ttl == nil || job.DeletionTimestamp != nil {
		return 0, false
	}
	finishedAt, ok := finishTime(job)
	if !ok {
		return 0, false
	}
	return finishedAt.Add(time.Duration(*ttl) * time.Second).Sub(now), true
}

// finishTime is the transition time of the Job's true Complete or Failed
// condition.
func finishTime(job *batchv1.Job) (time.Time, bool) {
	for _, c := range job.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			if c.LastTransitionTime.IsZero() {
				return job.CreationTimestamp.Time, true
			}
			return c.LastTransitionTime.Time, true
		}
	}
	return time.Time{}, false
}
