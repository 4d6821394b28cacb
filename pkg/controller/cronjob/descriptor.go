package cronjob

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	batchv1 "platform.io/client/api/batch/v1"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "cronjob"

// Options are the cronjob loop's flags.
type Options struct {
	// Workers is --concurrent-cron-job-syncs.
	Workers int
}

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options { return &Options{Workers: 5} }

// AddFlags registers the loop's flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Workers, "concurrent-cron-job-syncs", o.Workers,
		"The number of cron job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load.")
}

// Validate reports invalid flag values.
func (o *Options) Validate() []error {
	if o.Workers < 1 {
		return []error{fmt.Errorf("--concurrent-cron-job-syncs must be at least 1, got %d", o.Workers)}
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
	loop, err := ctrl.New(r, ctrl.Options{
		Name: Name, Workers: opts.Workers, MetricsProvider: c.Queues,
		OnError: func(key string, err error) { lg.Info("sync failed", zap.String("cronjob", key), zap.Error(err)) },
	})
	if err != nil {
		return nil, fmt.Errorf("cronjob: %w", err)
	}
	if _, err := cronJobs.AddEventHandler(ctrl.EnqueueHandler[*batchv1.CronJob](loop.Enqueue)); err != nil {
		return nil, fmt.Errorf("cronjob: %w", err)
	}
	onJob := func(j *batchv1.Job) {
		if ref := controllerRef(j.OwnerReferences); ref != nil && ref.Kind == "CronJob" {
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
