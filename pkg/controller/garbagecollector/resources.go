package garbagecollector

import (
	"context"
	"fmt"
	"sync"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/discovery"
	"platform.io/client/informer"
	"platform.io/client/rest"
)

// groupKind names a kind whatever its version: owner references may name
// any served version of their owner's kind.
type groupKind struct{ Group, Kind string }

// change is one informer notification reduced to what the graph needs.
type change struct {
	res     resourceInfo
	old     *meta.ObjectMeta // nil for an add
	obj     *meta.ObjectMeta
	deleted bool
}

// resourceInfo is what the graph knows of a resource.
type resourceInfo struct {
	APIVersion string
	Kind       string
	Namespaced bool
}

// metaChange is one change of an object's metadata by the collector.
type metaChange struct {
	// removeOwners drops the references to these owners.
	removeOwners []meta.UID
	// unblock sets blockOwnerDeletion=false on the references to these.
	unblock []meta.UID
	// finalizer, when set, is removed.
	finalizer string
}

// ops reads and writes the objects of one resource by namespace and name.
type ops struct {
	info   resourceInfo
	gr     meta.GroupResource
	get    func(ctx context.Context, ns, name string) (*meta.ObjectMeta, error)
	delete func(ctx context.Context, ns, name string, opts *meta.DeleteOptions) error
	// edit applies c to the object id, never to another object of that
	// name (uid checked by the server). An object gone or replaced is a
	// NotFound or Invalid error.
	edit func(ctx context.Context, id ref, c metaChange) error
	// inform declares the informer of the resource and sends its
	// notifications to sink until the returned registration is removed.
	// A shared informer new to the process is started to run until ctx
	// ends; an informer of the collector's own is returned as run, for the
	// caller to run.
	inform func(ctx context.Context, sink func(change)) (reg *informer.Registration, run func(context.Context), err error)
	// shared says the informer is the process's: removing the collector's
	// registration is all there is to stop; otherwise it is the
	// collector's own, stopped by ending its context.
	shared bool
}

// typedOps builds the ops of a resource with a typed client: its informer
// is the process's shared one (started on f when no other loop declared
// it), its objects are decoded from protobuf, and its metadata changed by
// strategic merge patches.
func typedOps[T any, PT client.ObjectPtr[T]](c *client.Client[T, PT], f *informer.Factory) ops {
	r := c.Resource()
	info := resourceInfo{APIVersion: r.APIVersion(), Kind: r.Kind, Namespaced: r.Namespaced}
	return ops{
		info:   info,
		gr:     r.GroupResource(),
		shared: true,
		get: func(ctx context.Context, ns, name string) (*meta.ObjectMeta, error) {
			obj, err := c.Namespace(ns).Get(ctx, name, meta.GetOptions{})
			if err != nil {
				return nil, err
			}
			return obj.GetObjectMeta(), nil
		},
		delete: func(ctx context.Context, ns, name string, opts *meta.DeleteOptions) error {
			return c.Namespace(ns).Delete(ctx, name, opts)
		},
		edit: func(ctx context.Context, id ref, mc metaChange) error {
			_, err := c.Namespace(id.Namespace).Patch(ctx, id.Name, rest.StrategicMergePatchType, strategicPatch(id.UID, mc), meta.WriteOptions{})
			return err
		},
		inform: func(ctx context.Context, sink func(change)) (*informer.Registration, func(context.Context), error) {
			inf, err := client.Inform(f, c)
			if err != nil {
				return nil, nil, fmt.Errorf("informer of %s: %w", r.GroupResource(), err)
			}
			f.Start(ctx)
			reg, err := inf.AddEventHandler(informer.ResourceEventHandler[PT]{
				OnAdd: func(obj PT, _ bool) { sink(change{res: info, obj: obj.GetObjectMeta()}) },
				OnUpdate: func(old, obj PT) {
					sink(change{res: info, old: old.GetObjectMeta(), obj: obj.GetObjectMeta()})
				},
				OnDelete: func(obj PT) { sink(change{res: info, obj: obj.GetObjectMeta(), deleted: true}) },
			})
			return reg, nil, err
		},
	}
}

// metadataOps builds the ops of a resource known from discovery only (a
// custom resource): a metadata informer of the collector's own, and JSON
// merge patches, since such resources take no strategic merge patch.
func metadataOps(d *client.Dynamic, r discovery.Resource, onError func(error)) ops {
	m := d.Metadata(r.GroupVersionResource())
	info := resourceInfo{APIVersion: r.APIVersion(), Kind: r.Kind, Namespaced: r.Namespaced}
	return ops{
		info: info,
		gr:   r.GroupResource(),
		get: func(ctx context.Context, ns, name string) (*meta.ObjectMeta, error) {
			obj, err := m.Namespace(ns).Get(ctx, name, meta.GetOptions{})
			if err != nil {
				return nil, err
			}
			return &obj.ObjectMeta, nil
		},
		delete: func(ctx context.Context, ns, name string, opts *meta.DeleteOptions) error {
			return m.Namespace(ns).Delete(ctx, name, opts)
		},
		edit: func(ctx context.Context, id ref, mc metaChange) error {
			return mergeEdit(ctx, m.Namespace(id.Namespace), id, mc)
		},
		inform: func(_ context.Context, sink func(change)) (*informer.Registration, func(context.Context), error) {
			inf := informer.New(r.GroupResource(), informer.ListerWatcher[*meta.PartialObjectMetadata](m),
				informer.Options{Reflector: informer.ReflectorOptions{OnError: onError}})
			reg, err := inf.AddEventHandler(informer.ResourceEventHandler[*meta.PartialObjectMetadata]{
				OnAdd: func(obj *meta.PartialObjectMetadata, _ bool) { sink(change{res: info, obj: &obj.ObjectMeta}) },
				OnUpdate: func(old, obj *meta.PartialObjectMetadata) {
					sink(change{res: info, old: &old.ObjectMeta, obj: &obj.ObjectMeta})
				},
				OnDelete: func(obj *meta.PartialObjectMetadata) {
					sink(change{res: info, obj: &obj.ObjectMeta, deleted: true})
				},
			})
			if err != nil {
				return nil, nil, err
			}
			return reg, inf.Run, nil
		},
	}
}

// ignored reports the resources the collector does not watch, as
// upstream: events are many, short-lived, and own nothing. They can still
// be named as owners, and are then looked up live.
func ignored(gr meta.GroupResource) bool {
	return gr == meta.GroupResource{Group: "", Resource: "events"}
}

// watchable reports whether the collector keeps r's objects in its graph:
// it can list, watch and delete them, and they are not ignored.
func watchable(r discovery.Resource) bool {
	return r.Supports(discovery.VerbList, discovery.VerbWatch, discovery.VerbDelete) && !ignored(r.GroupResource())
}

// typedTable returns the ops of every resource with a typed client, by
// group and resource, and the served resources of the client's table it
// could not cover (a new row in client.Resources with no typed client
// here). Discovery decides which of them are used.
func typedTable(set *client.Set, f *informer.Factory) (map[meta.GroupResource]ops, []client.Resource) {
	all := []ops{
		typedOps(set.Namespaces, f), typedOps(set.Pods, f), typedOps(set.Nodes, f), typedOps(set.Services, f),
		typedOps(set.Endpoints, f), typedOps(set.ConfigMaps, f), typedOps(set.Secrets, f), typedOps(set.Events, f),
		typedOps(set.ServiceAccounts, f), typedOps(set.Deployments, f), typedOps(set.ReplicaSets, f),
		typedOps(set.DaemonSets, f), typedOps(set.StatefulSets, f), typedOps(set.ControllerRevisions, f),
		typedOps(set.Jobs, f), typedOps(set.CronJobs, f), typedOps(set.Leases, f),
		typedOps(set.LimitRanges, f), typedOps(set.ResourceQuotas, f), typedOps(set.HorizontalPodAutoscalers, f),
	}
	byGR := map[meta.GroupResource]ops{}
	for _, o := range all {
		byGR[o.gr] = o
	}
	var missing []client.Resource
	for _, r := range client.Resources() {
		if _, ok := byGR[r.GroupResource()]; !ok {
			missing = append(missing, r)
		}
	}
	return byGR, missing
}

// catalog is the ops of every kind discovery last found, by group and
// kind; it changes as resources come and go.
type catalog struct {
	mu   sync.RWMutex
	byGK map[groupKind]ops // mu guards byGK
}

func (c *catalog) get(gk groupKind) (ops, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	o, ok := c.byGK[gk]
	return o, ok
}

// scope answers the graph's scope questions.
func (c *catalog) scope(gk groupKind) (namespaced, known bool) {
	o, ok := c.get(gk)
	return o.info.Namespaced, ok
}

func (c *catalog) replace(byGK map[groupKind]ops) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byGK = byGK
}
