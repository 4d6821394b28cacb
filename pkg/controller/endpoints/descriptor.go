package endpoints

import (
	"fmt"
	"maps"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/labels"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers.
const Name = "endpoint"

// Options are the loop's flags: --concurrent-endpoint-syncs.
type Options struct{ controller.Syncs }

// NewOptions returns the defaults: 5 workers.
func NewOptions() *Options {
	return &Options{controller.NewSyncs("concurrent-endpoint-syncs", 5,
		"The number of endpoint syncing operations that will be done concurrently.")}
}

// Descriptor registers the loop.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (*ctrl.Controller, error) {
		return New(c, *o)
	})
}

// New builds the loop on c's informers.
func New(c controller.Context, opts Options) (*ctrl.Controller, error) {
	services, err := client.Inform(c.Informers, c.Clients.Services)
	if err != nil {
		return nil, fmt.Errorf("%s: services: %w", Name, err)
	}
	pods, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("%s: pods: %w", Name, err)
	}
	eps, err := client.Inform(c.Informers, c.Clients.Endpoints)
	if err != nil {
		return nil, fmt.Errorf("%s: endpoints: %w", Name, err)
	}
	r := &reconciler{services: services.Lister(), pods: pods.Lister(), endpoints: eps.Lister(), clients: c.Clients,
		rec: c.Recorder, triggers: newTriggerTracker()}
	loop, err := c.NewLoop(Name, r, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	if _, err := services.AddEventHandler(ctrl.EnqueueHandler[*corev1.Service](loop.Enqueue)); err != nil {
		return nil, fmt.Errorf("%s: service handler: %w", Name, err)
	}
	podChanged := func(p *corev1.Pod) { enqueueServicesOf(r.services, p, loop.Enqueue) }
	if _, err := pods.AddEventHandler(informer.ResourceEventHandler[*corev1.Pod]{
		OnAdd: func(p *corev1.Pod, _ bool) { podChanged(p) },
		OnUpdate: func(old, cur *corev1.Pod) {
			podChanged(cur)
			if !maps.Equal(old.Labels, cur.Labels) {
				podChanged(old)
			}
		},
		OnDelete: podChanged,
	}); err != nil {
		return nil, fmt.Errorf("%s: pod handler: %w", Name, err)
	}
	// Endpoints left by services deleted while no loop ran are found in
	// the first list.
	if _, err := eps.AddEventHandler(informer.ResourceEventHandler[*corev1.Endpoints]{
		OnAdd: func(e *corev1.Endpoints, initial bool) {
			if initial {
				loop.Enqueue(informer.Key(e))
			}
		},
		OnDelete: func(e *corev1.Endpoints) { loop.Enqueue(informer.Key(e)) },
	}); err != nil {
		return nil, fmt.Errorf("%s: endpoints handler: %w", Name, err)
	}
	return loop, nil
}

// enqueueServicesOf enqueues the services in the pod's namespace whose
// selector matches its labels.
func enqueueServicesOf(services informer.Lister[*corev1.Service], p *corev1.Pod, enqueue func(string)) {
	svcs, err := services.Namespace(p.Namespace).List(labels.Everything())
	if err != nil {
		return
	}
	for _, s := range svcs {
		if s.Spec.Selector != nil && selects(s.Spec.Selector, p.Labels) {
			enqueue(informer.Key(s))
		}
	}
}

// selects is labels.SelectorFromSet(sel).Matches(labels.Set(ls)) without
// building a selector per service on every pod event: each key of sel must
// be in ls with the same value.
func selects(sel, ls map[string]string) bool {
	for k, v := range sel {
		if got, ok := ls[k]; !ok || got != v {
			return false
		}
	}
	return true
}
