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
)

// writer is what the loop writes through.
type writer interface {
	CreatePod(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error)
	DeletePod(ctx context.Context, namespace, name string) error
	UpdateJobStatus(ctx context.Context, job *batchv1.Job) error
}

type clientWriter struct{ c *client.Set }

func (w clientWriter) CreatePod(ctx context.Context, pod *corev1.Pod) (*corev1.Pod, error) {
	return w.c.Pods.Namespace(pod.Namespace).Create(ctx, pod, meta.WriteOptions{})
}

func (w clientWriter) DeletePod(ctx context.Context, namespace, name string) error {
	return w.c.Pods.Namespace(namespace).Delete(ctx, name, nil)
}

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
	w            writer
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
			r.rec.Eventf(jobRef(job), e.kind, e.reason, "%s", e.message)
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
		if ref := controllerRef(p.OwnerReferences); ref != nil && ref.UID == job.UID {
			out = append(out, p)
		}
	}
	return out, nil
}

// createPods creates n pods in batches of 1, 2, 4, ..., stopping at the
// first batch with a failure, and returns how many were created.
func (r *reconciler) createPods(ctx context.Context, key string, job *batchv1.Job, n int) (int, error) {
	if n == 0 {
		return 0, nil
	}
	r.exp.Expect(key, n, 0)
	created, batch := 0, 1
	var errs []error
	for created < n && len(errs) == 0 {
		size := min(batch, n-created)
		results := make(chan error, size)
		for range size {
			go func() { results <- r.createPod(ctx, job) }()
		}
		for range size {
			if err := <-results; err != nil {
				errs = append(errs, err)
				r.exp.Observed(key, true)
				continue
			}
			created++
		}
		batch *= 2
	}
	for range n - created - len(errs) {
		r.exp.Observed(key, true) // never sent
	}
	return created, errors.Join(errs...)
}

func (r *reconciler) createPod(ctx context.Context, job *batchv1.Job) error {
	pod, err := newPod(job)
	if err != nil {
		return fmt.Errorf("pod of job %s/%s: %w", job.Namespace, job.Name, err)
	}
	out, err := r.w.CreatePod(ctx, pod)
	if err != nil {
		r.rec.Eventf(jobRef(job), corev1.EventTypeWarning, "FailedCreate", "Error creating: %v", err)
		return fmt.Errorf("create pod of job %s/%s: %w", job.Namespace, job.Name, err)
	}
	r.rec.Eventf(jobRef(job), corev1.EventTypeNormal, "SuccessfulCreate", "Created pod: %s", out.Name)
	return nil
}

// deletePods deletes pods; one already gone counts as deleted.
func (r *reconciler) deletePods(ctx context.Context, key string, job *batchv1.Job, pods []*corev1.Pod) error {
	if len(pods) == 0 {
		return nil
	}
	r.exp.Expect(key, 0, len(pods))
	var errs []error
	for _, p := range pods {
		err := r.w.DeletePod(ctx, p.Namespace, p.Name)
		switch {
		case apierrors.IsNotFound(err):
			r.exp.Observed(key, false)
		case err != nil:
			r.exp.Observed(key, false)
			r.rec.Eventf(jobRef(job), corev1.EventTypeWarning, "FailedDelete", "Error deleting: %v", err)
			errs = append(errs, fmt.Errorf("delete pod %s/%s: %w", p.Namespace, p.Name, err))
		default:
			r.rec.Eventf(jobRef(job), corev1.EventTypeNormal, "SuccessfulDelete", "Deleted pod: %s", p.Name)
		}
	}
	return errors.Join(errs...)
}

// jobRef is the involved object of the job's events.
func jobRef(job *batchv1.Job) *corev1.ObjectReference {
	return &corev1.ObjectReference{
		Kind: "Job", APIVersion: batchv1.SchemeGroupVersion.String(),
		Namespace: job.Namespace, Name: job.Name, UID: job.UID, ResourceVersion: job.ResourceVersion,
	}
}
