package leaderelection

import (
	"context"

	"platform.io/client/rest"
)

// Resource names an API resource: its group ("" for the core group),
// version and plural name.
type Resource struct {
	Group, Version, Resource string
}

// Client is the little of the API that locks use: reading, creating and
// replacing one namespaced object. Errors are those of the API (test them
// with the predicates of platform.io/client/api/errors); Update must send
// the object's resourceVersion so that a stale write fails with a Conflict.
type Client interface {
	// Get reads namespace/name into out.
	Get(ctx context.Context, res Resource, namespace, name string, out any) error
	// Create creates obj in namespace and reads the stored object into out.
	Create(ctx context.Context, res Resource, namespace string, obj, out any) error
	// Update replaces namespace/name with obj and reads the stored object
	// into out.
	Update(ctx context.Context, res Resource, namespace, name string, obj, out any) error
}

// NewRESTClient returns a Client sending its requests through c.
func NewRESTClient(c *rest.Client) Client { return restClient{c} }

type restClient struct{ c *rest.Client }

func (r restClient) Get(ctx context.Context, res Resource, ns, name string, out any) error {
	return r.c.Get().Group(res.Group).Version(res.Version).Namespace(ns).
		Resource(res.Resource).Name(name).Do(ctx).Into(out)
}

func (r restClient) Create(ctx context.Context, res Resource, ns string, obj, out any) error {
	return r.c.Post().Group(res.Group).Version(res.Version).Namespace(ns).
		Resource(res.Resource).Body(obj).Do(ctx).Into(out)
}

func (r restClient) Update(ctx context.Context, res Resource, ns, name string, obj, out any) error {
	return r.c.Put().Group(res.Group).Version(res.Version).Namespace(ns).
		Resource(res.Resource).Name(name).Body(obj).Do(ctx).Into(out)
}
