package ttlafterfinished

import (
	"context"
	"fmt"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"

	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "ttl-after-finished"

// Options are the loop's flags: --concurrent-ttl-after-finished-syncs.
type Options struct{ controller.Syncs }

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options {
	return &Options{controller.NewSyncs("concurrent-ttl-after-finished-syncs", 5,
		"The number of TTL-after-finished controller workers that are allowed to sync concurrently.")}
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (*ctrl.Controller, error) {
		return New(c, o, time.Now)
	})
}

// New declares the Job informer on c and returns the loop, which reads the
// time from now.
func New(c controller.Context, opts *Options, now func() time.Time) (*ctrl.Controller, error) {
	jobs, err := client.Inform(c.Informers, c.Clients.Jobs)
	if err != nil {
		return nil, fmt.Errorf("ttl-after-finished: %w", err)
	}
	r := &reconciler{jobs: jobs.Lister(), live: liveJobs{c.Clients}, now: now}
	loop, err := c.NewLoop("ttl_jobs_to_delete", r, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("ttl-after-finished: %w", err)
	}
	if _, err := jobs.AddEventHandler(ctrl.EnqueueHandler[*batchv1.Job](loop.Enqueue)); err != nil {
		return nil, fmt.Errorf("ttl-after-finished: %w", err)
	}
	return loop, nil
}

// liveJobs reads and deletes Jobs on the server.
type liveJobs struct{ c *client.Set }

func (l liveJobs) Get(ctx context.Context, ns, name string) (*batchv1.Job, error) {
	return l.c.Jobs.Namespace(ns).Get(ctx, name, meta.GetOptions{})
}

func (l liveJobs) Delete(ctx context.Context, job *batchv1.Job) error {
	bg := meta.DeletePropagationBackground
	uid, rv := job.UID, job.ResourceVersion
	return l.c.Jobs.Namespace(job.Namespace).Delete(ctx, job.Name, &meta.DeleteOptions{
		PropagationPolicy: &bg,
		Preconditions:     &meta.Preconditions{UID: &uid, ResourceVersion: &rv},
	})
}
