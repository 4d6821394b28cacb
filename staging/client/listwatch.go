package client

import (
	"context"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/informer"
	"platform.io/client/watch"
)

// listWatch adapts a typed client to an informer's ListerWatcher.
type listWatch[T any, PT ObjectPtr[T]] struct{ c *Client[T, PT] }

var _ informer.ListerWatcher[*corev1.Pod] = listWatch[corev1.Pod, *corev1.Pod]{}

// ListWatch returns the client as the source of an informer: its lists and
// watches, with items as pointers. A client of a Set made with InformThrough
// lists and watches through the other set's client.
func (c *Client[T, PT]) ListWatch() informer.ListerWatcher[PT] {
	if c.inform != nil {
		return listWatch[T, PT]{c.inform}
	}
	return listWatch[T, PT]{c}
}

// setInform makes o (a *Client[T, PT]) the source of c's informers.
func (c *Client[T, PT]) setInform(o any) { c.inform = o.(*Client[T, PT]) }

// List implements informer.ListerWatcher.
func (lw listWatch[T, PT]) List(ctx context.Context, opts meta.ListOptions) ([]PT, meta.ListMeta, error) {
	l, err := lw.c.List(ctx, opts)
	if err != nil {
		return nil, meta.ListMeta{}, err
	}
	items := make([]PT, len(l.Items))
	for i := range l.Items {
		items[i] = &l.Items[i]
	}
	return items, l.ListMeta, nil
}

// Watch implements informer.ListerWatcher.
func (lw listWatch[T, PT]) Watch(ctx context.Context, opts meta.ListOptions) (watch.Interface[PT], error) {
	return lw.c.Watch(ctx, opts)
}

// Inform declares on f the shared informer of c's resource, keyed
// "resource.group" ("pods", "deployments.apps"), and returns it; every
// caller in a process gets the same informer.
func Inform[T any, PT ObjectPtr[T]](f *informer.Factory, c *Client[T, PT]) (*informer.Informer[PT], error) {
	key := c.res.Name
	if c.res.Group != "" {
		key += "." + c.res.Group
	}
	return informer.For(f, key, c.ListWatch())
}
