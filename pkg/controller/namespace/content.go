package namespace

import (
	"context"
	"fmt"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"
	"platform.io/client/discovery"
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
	deleteAll(ctx context.Context, r discovery.Resource, ns string) error
	left(ctx context.Context, r discovery.Resource, ns string) (leftover, error)
}

// leftPageSize bounds the objects read to describe what is left; beyond it
// the count comes from the list's remainingItemCount.
const leftPageSize = 500

// dynamicContent reaches every resource through the dynamic client.
type dynamicContent struct{ d *client.Dynamic }

var _ content = dynamicContent{}

// deleteAll deletes every object of r in ns, in the background: the
// garbage collector takes care of their dependents. Pods get their default
// grace period. A resource without deletecollection has its objects
// listed and deleted one by one.
func (c dynamicContent) deleteAll(ctx context.Context, r discovery.Resource, ns string) error {
	bg := meta.DeletePropagationBackground
	opts := &meta.DeleteOptions{PropagationPolicy: &bg}
	dr := c.d.Resource(r.GroupVersionResource()).Namespace(ns)
	if r.Supports(discovery.VerbDeleteCollection) {
		if err := dr.DeleteCollection(ctx, opts, meta.ListOptions{}); err != nil {
			return fmt.Errorf("delete collection of %s: %w", r.GroupResource(), err)
		}
		return nil
	}
	l, err := dr.List(ctx, meta.ListOptions{})
	if err != nil {
		return fmt.Errorf("list %s: %w", r.GroupResource(), err)
	}
	for i := range l.Items {
		err := dr.Delete(ctx, l.Items[i].GetName(), opts)
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete %s %q: %w", r.GroupResource(), l.Items[i].GetName(), err)
		}
	}
	return nil
}

// left lists what remains of r in ns.
func (c dynamicContent) left(ctx context.Context, r discovery.Resource, ns string) (leftover, error) {
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

// deletable returns the resources whose content a namespace's deletion
// removes: the namespaced ones, in their preferred version, that can be
// listed and deleted (which leaves out subresources and virtual resources
// such as bindings).
func deletable(snap discovery.Snapshot) []discovery.Resource {
	var out []discovery.Resource
	for _, r := range discovery.Supporting(snap.Preferred(), discovery.VerbList, discovery.VerbDelete) {
		if r.Namespaced {
			out = append(out, r)
		}
	}
	return out
}
