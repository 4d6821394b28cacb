package cronjob

import (
	"fmt"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Name is the loop's name in --controllers.
const Name = "cronjob"

// Options are the cronjob loop's flags: --concurrent-cron-job-syncs.
type Options struct{ controller.Syncs }

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options {
	return &Options{controller.NewSyncs("concurrent-cron-job-syncs", 5,
		"The number of cron job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load.")}
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (*ctrl.Controller, error) {
		return New(c, o, time.Now)
	})
}

// New declares the CronJob and Job informers on c and returns the loop,
// which reads the time from now (tests pass a fake clock and Enqueue the
// CronJobs after moving it).
func New(c controller.Context, opts *Options, now func() time.Time) (*ctrl.Controller, error) {
	cronJobs, err := client.Inform(c.Informers, c.Clients.CronJobs)
	if err != nil {
		return nil, fmt.Errorf("cronjob: %w", err)
	}
	jobs, err := client.Inform(c.Informers, c.Clients.Jobs)
	if err != nil {
		return nil, fmt.Errorf("cronjob: %w", err)
	}
	lg := c.Logger.Named(Name)
	r := &reconciler{
		lg: lg, cronJobs: cronJobs.Lister(), jobs: jobs.Lister(),
		w: clientWriter{c.Clients}, rec: c.Recorder, now: now,
		reported: map[meta.UID]time.Time{},
	}
	loop, err := c.NewLoop(Name, r, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("cronjob: %w", err)
	}
	if _, err := cronJobs.AddEventHandler(ctrl.EnqueueHandler[*batchv1.CronJob](loop.Enqueue)); err != nil {
		return nil, fmt.Errorf("cronjob: %w", err)
	}
	onJob := func(j *batchv1.Job) {
		if ref := podcontrol.ControllerOf(&j.ObjectMeta); ref != nil && ref.Kind == "CronJob" {
			loop.Enqueue(informer.KeyFor(j.Namespace, ref.Name))
		}
	}
	_, err = jobs.AddEventHandler(informer.ResourceEventHandler[*batchv1.Job]{
		OnAdd:    func(j *batchv1.Job, _ bool) { onJob(j) },
		OnUpdate: func(_, j *batchv1.Job) { onJob(j) },
		OnDelete: onJob,
	})
	if err != nil {
		return nil, fmt.Errorf("cronjob: %w", err)
	}
	return loop, nil
}
