package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

// call is one request of a verb.
type call struct {
	// op names the call in errors: "create", "get", ...
	op string
	// verb is the HTTP method; patch, when set, makes it a PATCH of that type.
	verb  string
	patch rest.PatchType
	// named says the call is on the object name; sub is the subresource.
	named bool
	name  string
	sub   string
	// allNamespaces says the call may go to every namespace (list, watch).
	allNamespaces bool
	query         url.Values
	body          any
}

// engine runs the verbs of one resource, scoped to one namespace or none,
// for objects of type PT. The typed and the dynamic clients are built on it.
type engine[T any, PT interface{ *T }] struct {
	rc  *rest.Client
	gvr meta.GroupVersionResource
	ns  string
	// jsonOnly sends bodies as JSON and asks for JSON responses.
	jsonOnly bool
	// check, when set, vets a call before it is sent.
	check func(c call) error
	// body returns what to send for a non-nil obj.
	body func(obj PT) any
	// name returns the name of a non-nil obj.
	name func(obj PT) string
	// listInto returns what a list response is decoded into to fill l.
	listInto func(l *List[T]) any
}

// nilObject is the error of a write given a nil object.
const nilObject = "the object is nil"

// request builds the rest request of c.
func (e *engine[T, PT]) request(c call) *rest.Request {
	var r *rest.Request
	if c.patch != "" {
		r = e.rc.Patch(c.patch)
	} else {
		r = e.rc.Verb(c.verb)
	}
	r.Group(e.gvr.Group).Version(e.gvr.Version).Namespace(e.ns).Resource(e.gvr.Resource)
	if c.named {
		r.Name(c.name)
	}
	if c.sub != "" {
		r.SubResource(c.sub)
	}
	for k, vs := range c.query {
		for _, v := range vs {
			r.Param(k, v)
		}
	}
	if e.jsonOnly {
		r.SetHeader("Accept", rest.ContentTypeJSON)
	}
	if c.body != nil {
		r.Body(c.body)
	}
	return r
}

// prepare vets c and encodes its body as JSON when the engine is JSON only.
func (e *engine[T, PT]) prepare(c call) (call, error) {
	if e.rc == nil {
		return c, errors.New("the client has no rest.Client")
	}
	if e.check != nil {
		if err := e.check(c); err != nil {
			return c, err
		}
	}
	if _, raw := c.body.([]byte); e.jsonOnly && c.body != nil && !raw {
		data, err := json.Marshal(c.body)
		if err != nil {
			return c, fmt.Errorf("encoding the body as JSON: %w", err)
		}
		c.body = data
	}
	return c, nil
}

// do sends c and decodes the response into out, or only checks it when out
// is nil.
func (e *engine[T, PT]) do(ctx context.Context, c call, out any) error {
	c, err := e.prepare(c)
	if err != nil {
		return e.wrap(c, err)
	}
	res := e.request(c).Do(ctx)
	if out == nil {
		return e.wrap(c, res.Error())
	}
	return e.wrap(c, res.Into(out))
}

// object sends c and returns the object the server answers with.
func (e *engine[T, PT]) object(ctx context.Context, c call) (PT, error) {
	out := PT(new(T))
	if err := e.do(ctx, c, out); err != nil {
		return nil, err
	}
	return out, nil
}

// wrap adds the call to err, except to a failure the server reported.
func (e *engine[T, PT]) wrap(c call, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*apierrors.StatusError](err); ok {
		return err
	}
	what := meta.GroupResource{Group: e.gvr.Group, Resource: e.gvr.Resource}.String()
	if c.sub != "" {
		what += "/" + c.sub
	}
	if c.named {
		what += fmt.Sprintf(" %q", c.name)
	}
	if e.ns != "" {
		what += fmt.Sprintf(" in namespace %q", e.ns)
	}
	return fmt.Errorf("client: %s %s: %w", c.op, what, err)
}

func (e *engine[T, PT]) create(ctx context.Context, obj PT, opts meta.WriteOptions) (PT, error) {
	c := call{op: "create", verb: http.MethodPost, query: opts.Query()}
	if obj == nil {
		return nil, e.wrap(c, errors.New(nilObject))
	}
	c.body = e.body(obj)
	return e.object(ctx, c)
}

// update replaces obj, or its subresource sub when sub is set.
func (e *engine[T, PT]) update(ctx context.Context, obj PT, opts meta.WriteOptions, sub string) (PT, error) {
	c := call{op: "update", verb: http.MethodPut, named: true, sub: sub, query: opts.Query()}
	if obj == nil {
		return nil, e.wrap(c, errors.New(nilObject))
	}
	c.name, c.body = e.name(obj), e.body(obj)
	return e.object(ctx, c)
}

func (e *engine[T, PT]) patch(ctx context.Context, name string, pt rest.PatchType, data []byte, opts meta.WriteOptions, subresources []string) (PT, error) {
	c := call{op: "patch", verb: http.MethodPatch, patch: pt, named: true, name: name, query: opts.Query(), body: data}
	switch {
	case len(subresources) > 1:
		return nil, e.wrap(c, fmt.Errorf("at most one subresource may be given, not %q", subresources))
	case len(subresources) == 1:
		c.sub = subresources[0]
	}
	if pt == "" {
		return nil, e.wrap(c, errors.New("no patch type given"))
	}
	if data == nil {
		c.body = []byte{}
	}
	return e.object(ctx, c)
}

func (e *engine[T, PT]) get(ctx context.Context, name string, opts meta.GetOptions) (PT, error) {
	return e.object(ctx, call{op: "get", verb: http.MethodGet, named: true, name: name, query: opts.Query()})
}

func (e *engine[T, PT]) list(ctx context.Context, opts meta.ListOptions) (*List[T], error) {
	opts.Watch = false
	c := call{op: "list", verb: http.MethodGet, allNamespaces: true, query: opts.Query()}
	l := &List[T]{}
	if err := e.do(ctx, c, e.listInto(l)); err != nil {
		return nil, err
	}
	return l, nil
}

func (e *engine[T, PT]) watch(ctx context.Context, opts meta.ListOptions) (watch.Interface[PT], error) {
	opts.Watch = true
	c, err := e.prepare(call{op: "watch", verb: http.MethodGet, allNamespaces: true, query: opts.Query()})
	if err != nil {
		return nil, e.wrap(c, err)
	}
	rw, err := e.request(c).Watch(ctx)
	if err != nil {
		return nil, e.wrap(c, err)
	}
	return newStreamWatcher(rw, func(ev rest.Event) (PT, error) {
		out := PT(new(T))
		return out, ev.Decode(out)
	}), nil
}

func (e *engine[T, PT]) delete(ctx context.Context, name string, opts *meta.DeleteOptions) error {
	c := call{op: "delete", verb: http.MethodDelete, named: true, name: name}
	c.body = e.deleteBody(opts)
	return e.do(ctx, c, nil)
}

func (e *engine[T, PT]) deleteCollection(ctx context.Context, opts *meta.DeleteOptions, lo meta.ListOptions) error {
	lo.Watch = false
	c := call{op: "delete collection", verb: http.MethodDelete, query: lo.Query()}
	c.body = e.deleteBody(opts)
	return e.do(ctx, c, nil)
}

// deleteBody returns the body of a delete with opts: nothing for nil, a
// copy with its kind and apiVersion set otherwise.
func (e *engine[T, PT]) deleteBody(opts *meta.DeleteOptions) any {
	if opts == nil {
		return nil
	}
	cp := *opts
	if cp.Kind == "" {
		cp.Kind = "DeleteOptions"
	}
	if cp.APIVersion == "" {
		cp.APIVersion = meta.GroupVersion{Group: e.gvr.Group, Version: e.gvr.Version}.String()
	}
	return &cp
}
