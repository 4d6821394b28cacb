package resourcequota

import (
	"time"

	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/informer"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/quota"
)

// source is one tracked resource: its objects in a namespace, from its
// informer.
type source struct {
	gr   meta.GroupResource
	list func(ns string) ([]meta.Object, error)
}

// sources declares the informers of the tracked resources: the core ones
// quotas name directly and the workloads most count/<resource>.<group>
// quotas name. Each calls replenish with the namespace of an object that
// is deleted or whose usage shrinks.
func sources(c controller.Context, now func() time.Time, replenish func(ns string)) ([]source, error) {
	s := c.Clients
	var out []source
	add := func(src source, err error) error {
		if err == nil {
			out = append(out, src)
		}
		return err
	}
	for _, err := range []error{
		add(track(c, s.Pods, now, replenish)),
		add(track(c, s.Services, now, replenish)),
		add(track(c, s.ConfigMaps, now, replenish)),
		add(track(c, s.Secrets, now, replenish)),
		add(track(c, s.ResourceQuotas, now, replenish)),
		add(track(c, s.Deployments, now, replenish)),
		add(track(c, s.ReplicaSets, now, replenish)),
		add(track(c, s.StatefulSets, now, replenish)),
		add(track(c, s.DaemonSets, now, replenish)),
		add(track(c, s.Jobs, now, replenish)),
		add(track(c, s.CronJobs, now, replenish)),
	} {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// track declares the informer of cl's resource and returns its source.
func track[T any, PT client.ObjectPtr[T]](c controller.Context, cl *client.Client[T, PT], now func() time.Time, replenish func(ns string)) (source, error) {
	inf, err := client.Inform(c.Informers, cl)
	if err != nil {
		return source{}, err
	}
	r := cl.Resource()
	gr := meta.GroupResource{Group: r.Group, Resource: r.Name}
	lister := inf.Lister()
	if _, err := inf.AddEventHandler(informer.ResourceEventHandler[PT]{
		OnUpdate: func(old, obj PT) {
			if shrank(gr, old, obj, now()) {
				replenish(obj.GetObjectMeta().Namespace)
			}
		},
		OnDelete: func(obj PT) { replenish(obj.GetObjectMeta().Namespace) },
	}); err != nil {
		return source{}, err
	}
	return source{gr: gr, list: func(ns string) ([]meta.Object, error) {
		objs, err := lister.Namespace(ns).List(nil)
		out := make([]meta.Object, len(objs))
		for i, o := range objs {
			out[i] = o
		}
		return out, err
	}}, nil
}

// shrank reports whether an update lowered some usage of the object (a
// pod that finished, a service that stopped being a load balancer).
func shrank(gr meta.GroupResource, old, obj meta.Object, now time.Time) bool {
	before, after := quota.Usage(gr, old, now), quota.Usage(gr, obj, now)
	for k, v := range before {
		if a, ok := after[k]; !ok || a.Cmp(v) < 0 {
			return true
		}
	}
	return false
}
