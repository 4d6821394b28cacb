package job

import (
	"fmt"
	"time"

	batchv1 "platform.io/client/api/batch/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/internal/podcontrol"
)

// Name is the loop's name in --controllers.
const Name = "job"

// Options are the job loop's flags: --concurrent-job-syncs, the Jobs
// synced at once.
type Options struct{ controller.Syncs }

// NewOptions returns the flags at upstream's defaults.
func NewOptions() *Options {
	return &Options{controller.NewSyncs("concurrent-job-syncs", 5,
		"The number of job objects that are allowed to sync concurrently. Larger number = more responsive jobs, but more CPU (and network) load.")}
}

// Descriptor registers the loop with the controller manager.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (*ctrl.Controller, error) {
		return New(c, o, time.Now)
	})
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
		control: podcontrol.New(lg, podcontrol.ClientWriter(c.Clients.Pods), c.Recorder),
		w:       clientWriter{c.Clients},
		rec:     c.Recorder, now: now,
		exp: ctrl.NewExpectations(0, now),
	}
	loop, err := c.NewLoop(Name, r, opts.Workers)
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
	ref := podcontrol.ControllerOf(&p.ObjectMeta)
	if ref == nil || ref.Kind != "Job" || ref.APIVersion != batchv1.SchemeGroupVersion.String() {
		return "", false
	}
	return informer.KeyFor(p.Namespace, ref.Name), true
}
