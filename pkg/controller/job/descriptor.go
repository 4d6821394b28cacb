package job

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "job"

// Options are the job loop's flags.
type Options struct {
	// Workers is --concurrent-job-syncs: Jobs synced at once.
	Workers int
}

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options { return &Options{Workers: 5} }

// AddFlags registers the loop's flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.Workers, "concurrent-job-syncs", o.Workers,
		"The number of job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load.")
}

// Validate reports invalid flag values.
func (o *Options) Validate() []error {
	if o.Workers < 1 {
		return []error{fmt.Errorf("--concurrent-job-syncs must be at least 1, got %d", o.Workers)}
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

// New declares the Job and Pod informers on c and returns the loop, which
// reads time from now.
func New(c controller.Context, opts *Options, now func() time.Time) (*ctrl.Controller, error) {
	jobs, err := client.Inform(c.Informers, c.Clients.Jobs)
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	pods, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	lg := c.Logger.Named(Name)
	r := &reconciler{
		lg: lg, jobs: jobs.Lister(), pods: pods.Lister(),
		w:   clientWriter{c.Clients},
		rec: c.Recorder, now: now,
		exp: ctrl.NewExpectations(0, now),
	}
	loop, err := ctrl.New(r, ctrl.Options{
		Name: Name, Workers: opts.Workers, MetricsProvider: c.Queues,
		OnError: func(key string, err error) { lg.Info("sync failed", zap.String("job", key), zap.Error(err)) },
	})
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	r.enqueueAfter = loop.EnqueueAfter
	if _, err := jobs.AddEventHandler(ctrl.EnqueueHandler[*batchv1.Job](loop.Enqueue)); err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	if _, err := pods.AddEventHandler(podHandler(r.exp, loop.Enqueue)); err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	return loop, nil
}

// podHandler enqueues the Job that controls a changed pod and tells the
// expectations about pods that appeared or went away.
func podHandler(exp *ctrl.Expectations, enqueue func(string)) informer.ResourceEventHandler[*corev1.Pod] {
	return informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd: func(p *corev1.Pod, _ bool) {
			if key, ok := ownerKey(p); ok {
				exp.Observed(key, true)
				enqueue(key)
			}
		},
		OnUpdate: func(old, cur *corev1.Pod) {
			if key, ok := ownerKey(cur); ok {
				if old.DeletionTimestamp == nil && cur.DeletionTimestamp != nil {
					exp.Observed(key, false)
				}
				enqueue(key)
			}
		},
		OnDelete: func(p *corev1.Pod) {
			if key, ok := ownerKey(p); ok {
				if p.DeletionTimestamp == nil {
					exp.Observed(key, false)
				}
				enqueue(key)
			}
		},
	}
}

// ownerKey is the key of the Job controlling p, if one does.
func ownerKey(p *corev1.Pod) (string, bool) {
	ref := controllerRef(p.OwnerReferences)
	if ref == nil || ref.Kind != "Job" || ref.APIVersion != batchv1.SchemeGroupVersion.String() {
		return "", false
	}
	return informer.KeyFor(p.Namespace, ref.Name), true
}
