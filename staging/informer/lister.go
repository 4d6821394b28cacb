package informer

import (
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/labels"
	"platform.io/client/api/meta"
)

// Lister reads a Store the way controllers read the API: by name, by
// namespace and by label selector. Results are in no particular order.
type Lister[T Object] struct {
	store *Store[T]
	gr    meta.GroupResource
}

// NewLister returns a lister over store; gr names the resource in NotFound
// errors.
func NewLister[T Object](store *Store[T], gr meta.GroupResource) Lister[T] {
	return Lister[T]{store: store, gr: gr}
}

// List returns the objects, in every namespace, whose labels match sel. A
// nil selector matches everything.
func (l Lister[T]) List(sel labels.Selector) ([]T, error) {
	return filter(l.store.List(), sel), nil
}

// Get returns the cluster-scoped object name, or a NotFound error.
func (l Lister[T]) Get(name string) (T, error) {
	return l.get("", name)
}

// Namespace narrows the lister to one namespace.
func (l Lister[T]) Namespace(namespace string) NamespaceLister[T] {
	return NamespaceLister[T]{l: l, ns: namespace}
}

func (l Lister[T]) get(namespace, name string) (T, error) {
	obj, ok := l.store.Get(KeyFor(namespace, name))
	if !ok {
		var zero T
		return zero, apierrors.NewNotFound(l.gr, name)
	}
	return obj, nil
}

// NamespaceLister is a Lister narrowed to one namespace.
type NamespaceLister[T Object] struct {
	l  Lister[T]
	ns string
}

// List returns the namespace's objects whose labels match sel. A nil
// selector matches everything.
func (n NamespaceLister[T]) List(sel labels.Selector) ([]T, error) {
	objs, err := n.l.store.ByIndex(NamespaceIndex, n.ns)
	if err != nil {
		return nil, err
	}
	return filter(objs, sel), nil
}

// Get returns the object name in the namespace, or a NotFound error.
func (n NamespaceLister[T]) Get(name string) (T, error) {
	return n.l.get(n.ns, name)
}

// filter keeps the objects whose labels match sel, in place.
func filter[T Object](objs []T, sel labels.Selector) []T {
	if sel == nil || sel.Empty() {
		return objs
	}
	out := objs[:0]
	for _, obj := range objs {
		if sel.Matches(labels.Set(obj.GetObjectMeta().Labels)) {
			out = append(out, obj)
		}
	}
	return out
}
