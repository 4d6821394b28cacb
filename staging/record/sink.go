package record

import (
	"context"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/rest"
)

// Sink stores events. Each method returns the event as stored; errors are
// expected to be *errors.StatusError for failures the server reports, so
// that the Broadcaster can tell them apart.
type Sink interface {
	// Create stores a new event in ev.Namespace.
	Create(ctx context.Context, ev *corev1.Event) (*corev1.Event, error)
	// Update replaces the event named ev.Name in ev.Namespace; an empty
	// resourceVersion makes it unconditional.
	Update(ctx context.Context, ev *corev1.Event) (*corev1.Event, error)
	// Patch applies a strategic merge patch to the event named ev.Name in
	// ev.Namespace.
	Patch(ctx context.Context, ev *corev1.Event, patch []byte) (*corev1.Event, error)
}

// RESTSink is a Sink writing to the core/v1 events of an API server.
type RESTSink struct {
	c *rest.Client
}

var _ Sink = (*RESTSink)(nil)

// NewRESTSink returns a Sink that writes through c.
func NewRESTSink(c *rest.Client) *RESTSink { return &RESTSink{c: c} }

// Create POSTs ev to the events of its namespace.
func (s *RESTSink) Create(ctx context.Context, ev *corev1.Event) (*corev1.Event, error) {
	out := &corev1.Event{}
	err := s.c.Post().Version("v1").Namespace(ev.Namespace).Resource("events").
		Body(typed(ev)).Do(ctx).Into(out)
	return out, err
}

// Update PUTs ev under its name.
func (s *RESTSink) Update(ctx context.Context, ev *corev1.Event) (*corev1.Event, error) {
	out := &corev1.Event{}
	err := s.c.Put().Version("v1").Namespace(ev.Namespace).Resource("events").Name(ev.Name).
		Body(typed(ev)).Do(ctx).Into(out)
	return out, err
}

// Patch PATCHes the event named ev.Name with a strategic merge patch.
func (s *RESTSink) Patch(ctx context.Context, ev *corev1.Event, patch []byte) (*corev1.Event, error) {
	out := &corev1.Event{}
	err := s.c.Patch(rest.StrategicMergePatchType).Version("v1").Namespace(ev.Namespace).Resource("events").Name(ev.Name).
		Body(patch).Do(ctx).Into(out)
	return out, err
}

// typed returns a copy of ev with its TypeMeta set, as the protobuf
// envelope needs.
func typed(ev *corev1.Event) *corev1.Event {
	cp := *ev
	cp.APIVersion, cp.Kind = "v1", "Event"
	return &cp
}
