package informer

import (
	"context"

	"platform.io/client/api/meta"
	"platform.io/client/watch"
	"platform.io/client/workqueue"
)

// Object constrains the element types of this package: a pointer to an API
// struct such as *corev1.Pod. The zero value (nil) never enters a store.
type Object interface {
	comparable
	GetObjectMeta() *meta.ObjectMeta
}

// ListerWatcher is what an informer needs from a typed client of one
// resource: a list that honors Limit and Continue, and a watch.
type ListerWatcher[T Object] interface {
	List(ctx context.Context, opts meta.ListOptions) (items []T, lm meta.ListMeta, err error)
	Watch(ctx context.Context, opts meta.ListOptions) (watch.Interface[T], error)
}

// Sink receives what a Reflector learns, in order: Replace after every full
// list, then Add, Update and Delete for each watch event.
type Sink[T Object] interface {
	Add(obj T)
	Update(obj T)
	Delete(obj T)
	Replace(items []T, resourceVersion string)
}

// Clock is the time source for backoff and resync; it is the work queue's, so
// one fake drives both in tests.
type Clock = workqueue.Clock

// Key is the store key of obj: "namespace/name", or "name" when the object
// has no namespace.
func Key[T Object](obj T) string {
	m := obj.GetObjectMeta()
	return KeyFor(m.Namespace, m.Name)
}

// KeyFor is the store key of the object with the given namespace and name.
func KeyFor(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// isNil reports whether obj is the zero value of T.
func isNil[T Object](obj T) bool {
	var zero T
	return obj == zero
}
