package garbagecollector

import (
	"context"
	"fmt"

	"platform.io/client/api/meta"
	"platform.io/client/client"
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

// ops reads and writes the objects of one resource by namespace and name.
type ops struct {
	info   resourceInfo
	watch  bool // the collector keeps the resource's objects in its graph
	gr     meta.GroupResource
	get    func(ctx context.Context, ns, name string) (*meta.ObjectMeta, error)
	delete func(ctx context.Context, ns, name string, opts *meta.DeleteOptions) error
	patch  func(ctx context.Context, ns, name string, data []byte) error
	// inform declares the shared informer of the resource on f and sends
	// its notifications to sink.
	inform func(f *informer.Factory, sink func(change)) error
}

// typedOps builds the ops of a typed client.
func typedOps[T any, PT client.ObjectPtr[T]](c *client.Client[T, PT]) ops {
	r := c.Resource()
	info := resourceInfo{APIVersion: r.APIVersion(), Kind: r.Kind, Namespaced: r.Namespaced}
	return ops{
		info:  info,
		gr:    r.GroupResource(),
		watch: !ignored(r.GroupResource()),
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
		patch: func(ctx context.Context, ns, name string, data []byte) error {
			_, err := c.Namespace(ns).Patch(ctx, name, rest.StrategicMergePatchType, data, meta.WriteOptions{})
			return err
		},
		inform: func(f *informer.Factory, sink func(change)) error {
			inf, err := client.Inform(f, c)
			if err != nil {
				return fmt.Errorf("informer of %s: %w", r.GroupResource(), err)
			}
			_, err = inf.AddEventHandler(informer.ResourceEventHandler[PT]{
				OnAdd: func(obj PT, _ bool) { sink(change{res: info, obj: obj.GetObjectMeta()}) },
				OnUpdate: func(old, obj PT) {
					sink(change{res: info, old: old.GetObjectMeta(), obj: obj.GetObjectMeta()})
				},
				OnDelete: func(obj PT) { sink(change{res: info, obj: obj.GetObjectMeta(), deleted: true}) },
			})
			return err
		},
	}
}

// ignored reports the resources the collector does not watch, as
// upstream: events are many, short-lived, and own nothing. They can still
// be named as owners, and are then looked up live.
func ignored(gr meta.GroupResource) bool {
	return gr == meta.GroupResource{Group: "", Resource: "events"}
}

// resourceTable returns the ops of every served resource, one per group
// and kind (the first served version wins), and the
// served resources it could not cover (a new row in client.Resources with
// no typed client here).
func resourceTable(set *client.Set) (map[groupKind]ops, []client.Resource) {
	all := []ops{
		typedOps(set.Namespaces), typedOps(set.Pods), typedOps(set.Nodes), typedOps(set.Services),
		typedOps(set.Endpoints), typedOps(set.ConfigMaps), typedOps(set.Secrets), typedOps(set.Events),
		typedOps(set.ServiceAccounts), typedOps(set.Deployments), typedOps(set.ReplicaSets),
		typedOps(set.DaemonSets), typedOps(set.StatefulSets), typedOps(set.ControllerRevisions),
		typedOps(set.Jobs), typedOps(set.CronJobs), typedOps(set.Leases),
		typedOps(set.LimitRanges), typedOps(set.ResourceQuotas), typedOps(set.HorizontalPodAutoscalers),
	}
	byGK := map[groupKind]ops{}
	byGR := map[meta.GroupResource]bool{}
	for _, o := range all {
		gk := groupKind{meta.ParseGroupVersion(o.info.APIVersion).Group, o.info.Kind}
		byGK[gk] = o
		byGR[o.gr] = true
	}
	var missing []client.Resource
	for _, r := range client.Resources() {
		if !byGR[r.GroupResource()] {
			missing = append(missing, r)
		}
	}
	return byGK, missing
}
