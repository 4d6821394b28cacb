package cronjob

import (
	"context"

	batchv1 "platform.io/client/api/batch/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
)

// writer is what the loop writes and reads live through.
type writer interface {
	CreateJob(ctx context.Context, job *batchv1.Job) (*batchv1.Job, error)
	GetJob(ctx context.Context, namespace, name string) (*batchv1.Job, error)
	// DeleteJob deletes with Background propagation: the garbage
	// collector removes the pods.
	DeleteJob(ctx context.Context, namespace, name string) error
	GetCronJob(ctx context.Context, namespace, name string) (*batchv1.CronJob, error)
	UpdateCronJobStatus(ctx context.Context, cj *batchv1.CronJob) error
}

type clientWriter struct{ c *client.Set }

func (w clientWriter) CreateJob(ctx context.Context, job *batchv1.Job) (*batchv1.Job, error) {
	return w.c.Jobs.Namespace(job.Namespace).Create(ctx, job, meta.WriteOptions{})
}

func (w clientWriter) GetJob(ctx context.Context, namespace, name string) (*batchv1.Job, error) {
	return w.c.Jobs.Namespace(namespace).Get(ctx, name, meta.GetOptions{})
}

func (w clientWriter) DeleteJob(ctx context.Context, namespace, name string) error {
	bg := meta.DeletePropagationBackground
	return w.c.Jobs.Namespace(namespace).Delete(ctx, name, &meta.DeleteOptions{PropagationPolicy: &bg})
}

func (w clientWriter) GetCronJob(ctx context.Context, namespace, name string) (*batchv1.CronJob, error) {
	return w.c.CronJobs.Namespace(namespace).Get(ctx, name, meta.GetOptions{})
}

func (w clientWriter) UpdateCronJobStatus(ctx context.Context, cj *batchv1.CronJob) error {
	_, err := w.c.CronJobs.Namespace(cj.Namespace).UpdateStatus(ctx, cj, meta.WriteOptions{})
	return err
}
