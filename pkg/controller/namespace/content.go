package namespace

import (
	"context"
	"fmt"

	"platform.io/client/api/meta"
	"platform.io/client/client"
)

// leftover is what a resource still holds in a namespace after its delete
// collection.
type leftover struct {
	// count is the number of objects left.
	count int
	// finalizers counts the objects left per finalizer they carry.
	finalizers map[string]int
	// graceSeconds is the longest grace period of an object left that is
	// being deleted gracefully (pods), 0 when none is.
	graceSeconds int64
}

// content deletes and counts one resource's objects in a namespace.
type content interface {
	deleteCollection(ctx context.Context, r client.Resource, ns string) error
	left(ctx context.Context, r client.Resource, ns string) (leftover, error)
}

// leftPageSize bounds the objects read to describe what is left; beyond it
// the count comes from the list's remainingItemCount.
const leftPageSize = 500

// dynamicContent reaches every resource through the dynamic client.
type dynamicContent struct{ d *client.Dynamic }

var _ content = dynamicContent{}

// deleteCollection deletes every object of r in ns, in the background: the
// garbage collector takes care of their dependents. Pods get their default
// grace period.
func (c dynamicContent) deleteCollection(ctx context.Context, r client.Resource, ns string) error {
	bg := meta.DeletePropagationBackground
	err := c.d.Resource(r.GroupVersionResource()).Namespace(ns).DeleteCollection(ctx,
		&meta.DeleteOptions{PropagationPolicy: &bg}, meta.ListOptions{})
	if err != nil {
		return fmt.Errorf("delete collection of %s: %w", r.GroupResource(), err)
	}
	return nil
}

// left lists what remains of r in ns.
func (c dynamicContent) left(ctx context.Context, r client.Resource, ns string) (leftover, error) {
	l, err := c.d.Resource(r.GroupVersionResource()).Namespace(ns).List(ctx, meta.ListOptions{Limit: leftPageSize})
	if err != nil {
		return leftover{}, fmt.Errorf("list %s: %w", r.GroupResource(), err)
	}
	out := leftover{count: len(l.Items), finalizers: map[string]int{}}
	if l.RemainingItemCount != nil {
		out.count += int(*l.RemainingItemCount)
	}
	for i := range l.Items {
		u := &l.Items[i]
		for _, f := range u.GetFinalizers() {
			out.finalizers[f]++
		}
		if u.GetDeletionTimestamp() == "" {
			continue
		}
		if g, ok := u.NestedInt64("metadata", "deletionGracePeriodSeconds"); ok && g > out.graceSeconds {
			out.graceSeconds = g
		}
	}
	return out, nil
}

// namespacedResources returns the served namespaced resources, one per
// group and resource (the first served version).
func namespacedResources() []client.Resource {
	seen := map[meta.GroupResource]bool{}
	var out []client.Resource
	for _, r := range client.Resources() {
		if !r.Namespaced || seen[r.GroupResource()] {
			continue
		}
		seen[r.GroupResource()] = true
		out = append(out, r)
	}
	return out
}
