package nsobjects

import (
	"context"
	"fmt"
	"sync"
	"time"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// DefaultEmptyTTL is how long an empty consistent read is trusted:
// upstream's live-lookup TTL.
const DefaultEmptyTTL = 30 * time.Second

// Source lists the objects of namespace ns at resourceVersion rv: "0"
// for whatever the cache holds, "" for a consistent read.
type Source func(ctx context.Context, ns, rv string) ([]meta.Object, error)

// StoreSource reads a registry store. A read at "0" waits for the cache to
// hold this server's own writes (Store.ListCached), so a range or quota
// created or deleted here applies, or stops applying, to the next write.
// Objects read from the watch cache are decoded once per version and
// shared (List.SharedObjects): the lister's users must not modify them.
func StoreSource(s *registry.Store) Source {
	return func(ctx context.Context, ns, rv string) ([]meta.Object, error) {
		var (
			res *registry.List
			err error
		)
		if rv == "0" {
			res, err = s.ListCached(ctx, ns)
		} else {
			res, err = s.List(ctx, ns, registry.ListOptions{ResourceVersion: rv})
		}
		if err != nil {
			return nil, err
		}
		return res.SharedObjects()
	}
}

// Lister lists the objects of one resource, of type T, per namespace.
type Lister[T meta.Object] struct {
	src Source
	ttl time.Duration
	now func() time.Time

	mu sync.Mutex
	// emptyUntil guards nothing but itself: namespaces whose consistent
	// read found nothing, until when that answer holds.
	emptyUntil map[string]time.Time
}

// New returns a lister over src; now may be nil for time.Now.
func New[T meta.Object](src Source, ttl time.Duration, now func() time.Time) *Lister[T] {
	if now == nil {
		now = time.Now
	}
	return &Lister[T]{src: src, ttl: ttl, now: now, emptyUntil: map[string]time.Time{}}
}

// List returns the objects in namespace ns. They may be shared with other
// callers (see StoreSource): do not modify them.
func (l *Lister[T]) List(ctx context.Context, ns string) ([]T, error) {
	out, err := l.list(ctx, ns, "0")
	if err != nil || len(out) > 0 {
		return out, err
	}
	l.mu.Lock()
	until, ok := l.emptyUntil[ns]
	l.mu.Unlock()
	if ok && l.now().Before(until) {
		return nil, nil
	}
	if out, err = l.list(ctx, ns, ""); err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(out) == 0 {
		l.emptyUntil[ns] = l.now().Add(l.ttl)
	} else {
		delete(l.emptyUntil, ns)
	}
	return out, nil
}

// Forget drops what the lister remembers of ns, so the next List reads
// it afresh (a write through this server created an object there).
func (l *Lister[T]) Forget(ns string) {
	l.mu.Lock()
	delete(l.emptyUntil, ns)
	l.mu.Unlock()
}

func (l *Lister[T]) list(ctx context.Context, ns, rv string) ([]T, error) {
	objs, err := l.src(ctx, ns, rv)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		t, ok := o.(T)
		if !ok {
			return nil, fmt.Errorf("nsobjects: listed a %T", o)
		}
		out = append(out, t)
	}
	return out, nil
}
