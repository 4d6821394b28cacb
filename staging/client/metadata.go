package client

import (
	"context"

	"platform.io/client/api/meta"
	"platform.io/client/informer"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

// MetadataResource is the dynamic client of one resource reduced to its
// objects' metadata: responses are read as JSON and only apiVersion, kind
// and metadata are kept, so a cache of them costs what their metadata
// costs whatever the resource holds. The server still sends whole objects.
type MetadataResource struct {
	e engine[meta.PartialObjectMetadata, *meta.PartialObjectMetadata]
}

var _ informer.ListerWatcher[*meta.PartialObjectMetadata] = (*MetadataResource)(nil)

// Metadata returns the metadata client of the resource gvr, scoped to no
// namespace. Like Resource's client, it checks the scope of the resources
// in Resources only.
func (d *Dynamic) Metadata(gvr meta.GroupVersionResource) *MetadataResource {
	r := &MetadataResource{}
	r.e = engine[meta.PartialObjectMetadata, *meta.PartialObjectMetadata]{
		rc:       d.rc,
		gvr:      gvr,
		jsonOnly: true,
		body:     func(obj *meta.PartialObjectMetadata) any { return obj },
		name:     func(obj *meta.PartialObjectMetadata) string { return obj.Name },
		listInto: func(l *List[meta.PartialObjectMetadata]) any { return l },
	}
	if res, known := ResourceFor(gvr); known {
		r.e.check = checker(res, "")
	}
	return r
}

// Namespace returns a copy of the client scoped to the namespace ns; ""
// removes the scope.
func (r *MetadataResource) Namespace(ns string) *MetadataResource {
	cp := &MetadataResource{e: r.e}
	cp.e.ns = ns
	if res, known := ResourceFor(r.e.gvr); known {
		cp.e.check = checker(res, ns)
	}
	return cp
}

// Get returns the metadata of the object name.
func (r *MetadataResource) Get(ctx context.Context, name string, opts meta.GetOptions) (*meta.PartialObjectMetadata, error) {
	return r.e.get(ctx, name, opts)
}

// Patch applies the patch data of type pt to the object name and returns
// the patched object's metadata.
func (r *MetadataResource) Patch(ctx context.Context, name string, pt rest.PatchType, data []byte, opts meta.WriteOptions) (*meta.PartialObjectMetadata, error) {
	return r.e.patch(ctx, name, pt, data, opts, nil)
}

// Delete deletes the object name; opts may be nil.
func (r *MetadataResource) Delete(ctx context.Context, name string, opts *meta.DeleteOptions) error {
	return r.e.delete(ctx, name, opts)
}

// List implements informer.ListerWatcher: the objects that match opts, in
// every namespace when the client is not scoped to one.
func (r *MetadataResource) List(ctx context.Context, opts meta.ListOptions) ([]*meta.PartialObjectMetadata, meta.ListMeta, error) {
	l, err := r.e.list(ctx, opts)
	if err != nil {
		return nil, meta.ListMeta{}, err
	}
	items := make([]*meta.PartialObjectMetadata, len(l.Items))
	for i := range l.Items {
		items[i] = &l.Items[i]
	}
	return items, l.ListMeta, nil
}

// Watch implements informer.ListerWatcher.
func (r *MetadataResource) Watch(ctx context.Context, opts meta.ListOptions) (watch.Interface[*meta.PartialObjectMetadata], error) {
	return r.e.watch(ctx, opts)
}
