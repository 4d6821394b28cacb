package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"
	"platform.io/client/record"

	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// statusWriter writes a Job's status.
type statusWriter interface {
	UpdateJobStatus(ctx context.Context, job *batchv1.Job) error
}

type clientWriter struct{ c *client.Set }

func (w clientWriter) UpdateJobStatus(ctx context.Context, job *batchv1.Job) error {
	_, err := w.c.Jobs.Namespace(job.Namespace).UpdateStatus(ctx, job, meta.WriteOptions{})
	return err
}

// reconciler syncs one Job: it reads the Job and its pods from the
// informers, creates or deletes pods, and writes the status.
type reconciler struct {
	lg           *zap.Logger
	jobs         informer.Lister[*batchv1.Job]
	pods         informer.Lister[*corev1.Pod]
	control      *podcontrol.Control
	w            statusWriter
	rec          record.Recorder
	exp          *ctrl.Expectations
	now          func() time.Time
	enqueueAfter func(key string, d time.Duration)
}

var _ ctrl.Reconciler = (*reconciler)(nil)

// Reconcile syncs the Job named by key.
func (r *reconciler) Reconcile(ctx context.Context, key string) (ctrl.Result, error) {
	ns, name, _ := strings.Cut(key, "/")
	job, err := r.jobs.Namespace(ns).Get(name)
	if apierrors.IsNotFound(err) {
		r.exp.Forget(key)
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("get job %s: %w", key, err)
	}
	if _, done := finished(job); done || job.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	if !r.exp.Satisfied(key) {
		// The pod events awaited enqueue the job; the timeout covers a lost one.
		return ctrl.Result{RequeueAfter: ctrl.DefaultExpectationsTimeout}, nil
	}
	pods, err := r.ownedPods(job)
	if err != nil {
		return ctrl.Result{}, err
	}
	p := decide(job, pods, r.now())
	errs := []error{r.deletePods(ctx, key, job, p.remove)}
	created, err := r.createPods(ctx, key, job, p.create)
	if err != nil {
		errs = append(errs, err)
		p.status.Active -= int32(p.create - created)
	}
	if !bytes.Equal(p.status.MarshalProto(nil), job.Status.MarshalProto(nil)) {
		up := *job
		up.Status = p.status
		if err := r.w.UpdateJobStatus(ctx, &up); err != nil {
			return ctrl.Result{}, errors.Join(append(errs, fmt.Errorf("update status of job %s: %w", key, err))...)
		}
		for _, e := range p.events {
			r.rec.Eventf(ownerOf(job).Reference(), e.kind, e.reason, "%s", e.message)
		}
	}
	return ctrl.Result{RequeueAfter: p.requeue}, errors.Join(errs...)
}

// ownedPods lists the pods matching job's selector that job controls.
func (r *reconciler) ownedPods(job *batchv1.Job) ([]*corev1.Pod, error) {
	sel, err := labels.FromLabelSelector(job.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("job %s/%s: %w: %w", job.Namespace, job.Name, ctrl.ErrTerminal, err)
	}
	all, err := r.pods.Namespace(job.Namespace).List(sel)
	if err != nil {
		return nil, fmt.Errorf("list pods of job %s/%s: %w", job.Namespace, job.Name, err)
	}
	var out []*corev1.Pod
	for _, p := range all {
		if podcontrol.IsControlledBy(&p.ObjectMeta, job.UID) {
			out = append(out, p)
		}
	}
	return out, nil
}

// createPods creates n pods in slow-start batches of 1, 2, 4, ...,
// stopping at the first batch with a failure, and returns how many were
// created.
func (r *reconciler) createPods(ctx context.Context, key string, job *batchv1.Job, n int) (int, error) {
	if n == 0 {
		return 0, nil
	}
	r.exp.Expect(key, n, 0)
	owner := ownerOf(job)
	created, err := podcontrol.SlowStartBatch(n, 1, func() error {
		_, err := r.control.CreatePod(ctx, &job.Spec.Template, owner, nil)
		return err
	})
	for range n - created {
		r.exp.Observed(key, true) // failed or never sent
	}
	return created, err
}

// deletePods deletes pods; one already gone counts as deleted.
func (r *reconciler) deletePods(ctx context.Context, key string, job *batchv1.Job, pods []*corev1.Pod) error {
	if len(pods) == 0 {
		return nil
	}
	r.exp.Expect(key, 0, len(pods))
	owner := ownerOf(job)
	var errs []error
	for _, p := range pods {
		err := r.control.DeletePod(ctx, owner, p.Name)
		if err == nil {
			continue
		}
		r.exp.Observed(key, false)
		if !apierrors.IsNotFound(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
