package client

import (
	"context"

	"platform.io/client/api/meta"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

// Dynamic is the client of any resource, with Unstructured objects sent and
// received as JSON.
type Dynamic struct {
	rc *rest.Client
}

// NewDynamic returns the dynamic client sending its requests through rc.
func NewDynamic(rc *rest.Client) *Dynamic { return &Dynamic{rc: rc} }

// DynamicResource is the dynamic client of one resource. When the resource
// is one of Resources, its scope and subresources are checked as a typed
// client checks them; otherwise any namespace and subresource goes.
type DynamicResource struct {
	res   Resource
	known bool
	e     engine[Unstructured, *Unstructured]
}

// Resource returns the client of the resource gvr, scoped to no namespace.
func (d *Dynamic) Resource(gvr meta.GroupVersionResource) *DynamicResource {
	res, known := ResourceFor(gvr)
	r := &DynamicResource{res: res, known: known}
	r.e = engine[Unstructured, *Unstructured]{
		rc:       d.rc,
		gvr:      gvr,
		jsonOnly: true,
		body:     func(obj *Unstructured) any { return obj },
		name:     (*Unstructured).GetName,
		listInto: func(l *List[Unstructured]) any { return l },
	}
	if known {
		r.e.check = checker(res, "")
	}
	return r
}

// Namespace returns a copy of the client scoped to the namespace ns; ""
// removes the scope.
func (r *DynamicResource) Namespace(ns string) *DynamicResource {
	cp := &DynamicResource{res: r.res, known: r.known, e: r.e}
	cp.e.ns = ns
	if r.known {
		cp.e.check = checker(r.res, ns)
	}
	return cp
}

// Create creates obj and returns the object the server stored.
func (r *DynamicResource) Create(ctx context.Context, obj *Unstructured, opts meta.WriteOptions) (*Unstructured, error) {
	return r.e.create(ctx, obj, opts)
}

// Update replaces the object named by obj's metadata.name with obj.
func (r *DynamicResource) Update(ctx context.Context, obj *Unstructured, opts meta.WriteOptions) (*Unstructured, error) {
	return r.e.update(ctx, obj, opts, "")
}

// UpdateStatus replaces the status of the object named by obj's
// metadata.name with obj's.
func (r *DynamicResource) UpdateStatus(ctx context.Context, obj *Unstructured, opts meta.WriteOptions) (*Unstructured, error) {
	return r.e.update(ctx, obj, opts, SubresourceStatus)
}

// Patch applies the patch data of type pt to the object name, or to its
// subresource when one is given, and returns the patched object.
func (r *DynamicResource) Patch(ctx context.Context, name string, pt rest.PatchType, data []byte, opts meta.WriteOptions, subresources ...string) (*Unstructured, error) {
	return r.e.patch(ctx, name, pt, data, opts, subresources)
}

// Get returns the object name.
func (r *DynamicResource) Get(ctx context.Context, name string, opts meta.GetOptions) (*Unstructured, error) {
	return r.e.get(ctx, name, opts)
}

// List returns the objects that match opts, in every namespace when the
// client is not scoped to one; opts.Watch is ignored.
func (r *DynamicResource) List(ctx context.Context, opts meta.ListOptions) (*List[Unstructured], error) {
	return r.e.list(ctx, opts)
}

// Watch watches the objects that match opts, in every namespace when the
// client is not scoped to one; opts.Watch is set for the caller.
func (r *DynamicResource) Watch(ctx context.Context, opts meta.ListOptions) (watch.Interface[*Unstructured], error) {
	return r.e.watch(ctx, opts)
}

// Delete deletes the object name; opts may be nil.
func (r *DynamicResource) Delete(ctx context.Context, name string, opts *meta.DeleteOptions) error {
	return r.e.delete(ctx, name, opts)
}

// DeleteCollection deletes the objects that match lo; opts may be nil.
func (r *DynamicResource) DeleteCollection(ctx context.Context, opts *meta.DeleteOptions, lo meta.ListOptions) error {
	return r.e.deleteCollection(ctx, opts, lo)
}
