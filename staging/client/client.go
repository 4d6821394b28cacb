package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	autoscalingv1 "platform.io/client/api/autoscaling/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

// ObjectPtr is the pointer type of an API object struct T: it has metadata
// and a protobuf form.
type ObjectPtr[T any] interface {
	*T
	meta.Object
	protobuf.Message
}

// Client is the typed client of one resource whose objects are T. It is
// safe for concurrent use; Namespace returns a scoped copy.
type Client[T any, PT ObjectPtr[T]] struct {
	res Resource
	e   engine[T, PT]
	// inform, when set, is the client whose lists and watches feed the
	// informers declared through c (ListWatch, Inform): a daemon part that
	// writes as another identity still shares the daemon's own informers.
	inform *Client[T, PT]
}

// New returns the client of the resource r, sending its requests through
// rc. It is scoped to no namespace.
func New[T any, PT ObjectPtr[T]](rc *rest.Client, r Resource) *Client[T, PT] {
	r.Subresources = append([]string(nil), r.Subresources...)
	c := &Client[T, PT]{res: r}
	c.e = engine[T, PT]{
		rc:       rc,
		gvr:      r.GroupVersionResource(),
		check:    checker(r, ""),
		body:     withTypeMeta[T, PT](r.Kind, r.APIVersion()),
		name:     func(obj PT) string { return obj.GetObjectMeta().Name },
		listInto: func(l *List[T]) any { return &listCodec[T, PT]{l} },
	}
	return c
}

// Resource returns the descriptor the client was built with.
func (c *Client[T, PT]) Resource() Resource { return c.res }

// Namespace returns a copy of the client scoped to the namespace ns; ""
// removes the scope.
func (c *Client[T, PT]) Namespace(ns string) *Client[T, PT] {
	cp := &Client[T, PT]{res: c.res, e: c.e}
	cp.e.check, cp.e.ns = checker(c.res, ns), ns
	if c.inform != nil {
		cp.inform = c.inform.Namespace(ns)
	}
	return cp
}

// checker returns the check of the calls of a client of res scoped to ns:
// their scope and subresource.
func checker(res Resource, ns string) func(call) error {
	gr := res.GroupResource()
	return func(c call) error {
		switch {
		case res.Namespaced && ns == "" && !c.allNamespaces:
			return fmt.Errorf("%s is namespaced: scope the client with Namespace", gr)
		case !res.Namespaced && ns != "":
			return fmt.Errorf("%s is not namespaced, but the client is scoped to namespace %q", gr, ns)
		case c.sub != "" && !res.Has(c.sub):
			return fmt.Errorf("%s has no %s subresource", gr, c.sub)
		}
		return nil
	}
}

// Create creates obj and returns the object the server stored.
func (c *Client[T, PT]) Create(ctx context.Context, obj PT, opts meta.WriteOptions) (PT, error) {
	return c.e.create(ctx, obj, opts)
}

// Update replaces the object named by obj's metadata.name with obj.
func (c *Client[T, PT]) Update(ctx context.Context, obj PT, opts meta.WriteOptions) (PT, error) {
	return c.e.update(ctx, obj, opts, "")
}

// UpdateStatus replaces the status of the object named by obj's
// metadata.name with obj's.
func (c *Client[T, PT]) UpdateStatus(ctx context.Context, obj PT, opts meta.WriteOptions) (PT, error) {
	return c.e.update(ctx, obj, opts, SubresourceStatus)
}

// Patch applies the patch data of type pt to the object name, or to its
// status when subresources is "status" (the one subresource that answers
// with the object itself), and returns the patched object.
func (c *Client[T, PT]) Patch(ctx context.Context, name string, pt rest.PatchType, data []byte, opts meta.WriteOptions, subresources ...string) (PT, error) {
	for _, sub := range subresources {
		if sub != SubresourceStatus {
			cl := call{op: "patch", named: true, name: name, sub: sub}
			return nil, c.e.wrap(cl, fmt.Errorf("the %s subresource does not answer with a %s; patch it with Dynamic", sub, c.res.Kind))
		}
	}
	return c.e.patch(ctx, name, pt, data, opts, subresources)
}

// Get returns the object name.
func (c *Client[T, PT]) Get(ctx context.Context, name string, opts meta.GetOptions) (PT, error) {
	return c.e.get(ctx, name, opts)
}

// List returns the objects that match opts, in every namespace when the
// client is not scoped to one; opts.Watch is ignored.
func (c *Client[T, PT]) List(ctx context.Context, opts meta.ListOptions) (*List[T], error) {
	return c.e.list(ctx, opts)
}

// Watch watches the objects that match opts, in every namespace when the
// client is not scoped to one; opts.Watch is set for the caller.
func (c *Client[T, PT]) Watch(ctx context.Context, opts meta.ListOptions) (watch.Interface[PT], error) {
	return c.e.watch(ctx, opts)
}

// Delete deletes the object name; opts may be nil.
func (c *Client[T, PT]) Delete(ctx context.Context, name string, opts *meta.DeleteOptions) error {
	return c.e.delete(ctx, name, opts)
}

// DeleteCollection deletes the objects that match lo; opts may be nil.
func (c *Client[T, PT]) DeleteCollection(ctx context.Context, opts *meta.DeleteOptions, lo meta.ListOptions) error {
	return c.e.deleteCollection(ctx, opts, lo)
}

// GetScale returns the scale subresource of the object name.
func (c *Client[T, PT]) GetScale(ctx context.Context, name string, opts meta.GetOptions) (*autoscalingv1.Scale, error) {
	out := &autoscalingv1.Scale{}
	cl := call{op: "get", verb: http.MethodGet, named: true, name: name, sub: SubresourceScale, query: opts.Query()}
	if err := c.e.do(ctx, cl, out); err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateScale replaces the scale subresource of the object name with scale.
func (c *Client[T, PT]) UpdateScale(ctx context.Context, name string, scale *autoscalingv1.Scale, opts meta.WriteOptions) (*autoscalingv1.Scale, error) {
	cl := call{op: "update", verb: http.MethodPut, named: true, name: name, sub: SubresourceScale, query: opts.Query()}
	if scale == nil {
		return nil, c.e.wrap(cl, errors.New(nilObject))
	}
	cl.body = withTypeMeta[autoscalingv1.Scale]("Scale", autoscalingv1.SchemeGroupVersion.String())(scale)
	out := &autoscalingv1.Scale{}
	if err := c.e.do(ctx, cl, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Bind posts binding to the binding subresource of the pod it names,
// placing the pod on binding's target node.
func (c *Client[T, PT]) Bind(ctx context.Context, binding *corev1.Binding, opts meta.WriteOptions) error {
	cl := call{op: "create", verb: http.MethodPost, named: true, sub: SubresourceBinding, query: opts.Query()}
	if binding == nil {
		return c.e.wrap(cl, errors.New(nilObject))
	}
	cl.name = binding.Name
	cl.body = withTypeMeta[corev1.Binding]("Binding", corev1.SchemeGroupVersion.String())(binding)
	return c.e.do(ctx, cl, nil)
}

// withTypeMeta returns the function that makes the body of an object: a
// shallow copy whose empty kind and apiVersion are set to these.
func withTypeMeta[T any, PT ObjectPtr[T]](kind, apiVersion string) func(PT) any {
	return func(obj PT) any {
		cp := *obj
		tm := PT(&cp).GetTypeMeta()
		if tm.Kind == "" {
			tm.Kind = kind
		}
		if tm.APIVersion == "" {
			tm.APIVersion = apiVersion
		}
		return PT(&cp)
	}
}
