package podautoscaler

import (
	"context"
	"fmt"
	"time"

	autoscalingv2 "platform.io/client/api/autoscaling/v2"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	ctrl "platform.io/client/controller"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller"
)

// Name is the loop's name in --controllers, as upstream.
const Name = "horizontalpodautoscaling"

// Descriptor registers the loop with the controller manager. It reads
// metrics through the API server's resource metrics API.
func Descriptor() controller.Descriptor {
	return controller.Register(Name, NewOptions, func(c controller.Context, o *Options) (*ctrl.Controller, error) {
		return New(c, o, ResourceMetrics{REST: c.REST}, time.Now)
	})
}

// New declares the autoscaler and pod informers on c and returns the loop,
// reading pod usage from metrics and the time from now.
func New(c controller.Context, opts *Options, metrics MetricsSource, now func() time.Time) (*ctrl.Controller, error) {
	hpas, err := client.Inform(c.Informers, c.Clients.HorizontalPodAutoscalers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	pods, err := client.Inform(c.Informers, c.Clients.Pods)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	r := &reconciler{
		hpas: hpas.Lister(), pods: pods.Lister(),
		scales:   &RESTScales{REST: c.REST, Discovery: c.DiscoverySet()},
		metrics:  metrics,
		status:   liveStatus{c.Clients},
		recorder: c.Recorder,
		calc: Calculator{
			Tolerance: opts.Tolerance, CPUInitializationPeriod: opts.CPUInitializationPeriod,
			InitialReadinessDelay: opts.InitialReadinessDelay, Now: now,
		},
		history:    NewHistory(now),
		syncPeriod: opts.SyncPeriod,
		downWindow: opts.DownscaleStabilization,
	}
	loop, err := c.NewLoop("horizontalpodautoscaler", r, opts.Workers)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	// Status writes (the loop's own) do not call for another pass: each
	// autoscaler is evaluated on its sync period, and again at once when
	// it is created or its spec changes.
	_, err = hpas.AddEventHandler(informer.ResourceEventHandler[*autoscalingv2.HorizontalPodAutoscaler]{
		OnAdd: func(h *autoscalingv2.HorizontalPodAutoscaler, _ bool) { loop.Enqueue(informer.Key(h)) },
		OnUpdate: func(old, h *autoscalingv2.HorizontalPodAutoscaler) {
			if old.Generation != h.Generation {
				loop.Enqueue(informer.Key(h))
			}
		},
		OnDelete: func(h *autoscalingv2.HorizontalPodAutoscaler) { loop.Enqueue(informer.Key(h)) },
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return loop, nil
}

// liveStatus writes status through the API server.
type liveStatus struct{ c *client.Set }

func (l liveStatus) UpdateStatus(ctx context.Context, h *autoscalingv2.HorizontalPodAutoscaler) error {
	_, err := l.c.HorizontalPodAutoscalers.Namespace(h.Namespace).UpdateStatus(ctx, h, meta.WriteOptions{})
	return err
}
