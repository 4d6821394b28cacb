package ttlafterfinished

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	batchv1 "platform.io/client/api/batch/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "ttl-after-finished"

// Options are the loop's flags.
type Options struct {
	// Workers is --concurrent-ttl-after-finished-syncs.
	Workers int
}

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options { return &Options{Workers: 5} }

// AddFlags registers the loop's flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Workers, "concurrent-ttl-after-finished-syncs", o.Workers,
		"The number of TTL-after-finished controller workers that are allowed to sync concurrently.")
}

// Validate reports invalid flag values.
func (o *Options) Validate() []error {
	if o.Workers < 1 {
		return []error{fmt.Errorf("--concurrent-ttl-after-finished-syncs must be at least 1, got %d", o.Workers)}
	}
	return nil
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Descriptor{
		Name:       Name,
		NewOptions: func() controller.Options { return NewOptions() },
		New: func(c controller.Context, opts controller.Options) (run.Runnable, error) {
			return New(c, opts.(*Options), time.Now)
		},
	}
}

// New declares the Job informer on c and returns the loop, which reads the
// time from now.
func New(c controller.Context, opts *Options, now func() time.Time) (*ctrl.Controller, error) {
	jobs, err := client.Inform(c.Informers, c.Clients.Jobs)
	if err != nil {
		return nil, fmt.Errorf("ttl-after-finished: %w", err)
	}
	lg := c.Logger.Named(Name)
	r := &reconciler{jobs: jobs.Lister(), live: liveJobs{c.Clients}, now: now}
	loop, err := ctrl.New(r, ctrl.Options{
		Name: "ttl_jobs_to_delete", Workers: opts.Workers, MetricsProvider: c.Queues,
		OnError: func(key string, err error) { lg.Info("sync failed", zap.String("job", key), zap.Error(err)) },
	})
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
