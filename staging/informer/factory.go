package informer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"platform.io/client/api/meta"
)

// ErrNotRegistered is returned (wrapped) when reading a key no one declared
// with For.
var ErrNotRegistered = errors.New("informer: not registered")

// shared is what a Factory needs from an Informer of any type.
type shared interface {
	Run(ctx context.Context)
	HasSynced() bool
	syncedChan() <-chan struct{}
}

type entry struct {
	inf     shared
	started bool
}

// Factory holds the shared informers of a process, one per key. Informers
// are declared with For, started with Start, and read with Get; reading an
// undeclared key is an error, never a new informer.
type Factory struct {
	opts Options

	mu      sync.Mutex
	entries map[string]*entry
	wg      sync.WaitGroup
}

// NewFactory returns an empty factory whose informers use opts.
func NewFactory(opts Options) *Factory {
	return &Factory{opts: opts, entries: make(map[string]*entry)}
}

// ParseGroupResource reads a key in the "resource.group" form ("pods",
// "deployments.apps").
func ParseGroupResource(key string) meta.GroupResource {
	resource, group, _ := strings.Cut(key, ".")
	return meta.GroupResource{Group: group, Resource: resource}
}

// For declares the informer for key (the resource as "resource.group")
// and returns it: the first call creates it from lw, later calls return the
// same informer and ignore lw. A key declared with another type is an error.
// Informers declared after Start run at the next Start.
func For[T Object](f *Factory, key string, lw ListerWatcher[T]) (*Informer[T], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e, ok := f.entries[key]; ok {
		return typed[T](key, e)
	}
	inf := New(ParseGroupResource(key), lw, f.opts)
	f.entries[key] = &entry{inf: inf}
	return inf, nil
}

// Get returns the informer declared for key.
func Get[T Object](f *Factory, key string) (*Informer[T], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.entries[key]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotRegistered, key)
	}
	return typed[T](key, e)
}

// ListerFor returns a lister over the informer declared for key.
func ListerFor[T Object](f *Factory, key string) (Lister[T], error) {
	inf, err := Get[T](f, key)
	if err != nil {
		return Lister[T]{}, err
	}
	return inf.Lister(), nil
}

func typed[T Object](key string, e *entry) (*Informer[T], error) {
	inf, ok := e.inf.(*Informer[T])
	if !ok {
		return nil, fmt.Errorf("informer: %q is registered as %T, not %T", key, e.inf, (*Informer[T])(nil))
	}
	return inf, nil
}

// Start runs every declared informer not yet started, each until ctx ends.
// It does not block.
func (f *Factory) Start(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range f.entries {
		if e.started {
			continue
		}
		e.started = true
		inf := e.inf
		f.wg.Go(func() { inf.Run(ctx) })
	}
}

// WaitForCacheSync waits until every started informer has synced, and
// reports false if ctx ended first.
func (f *Factory) WaitForCacheSync(ctx context.Context) bool {
	f.mu.Lock()
	var waits []<-chan struct{}
	for _, e := range f.entries {
		if e.started {
			waits = append(waits, e.inf.syncedChan())
		}
	}
	f.mu.Unlock()
	for _, ch := range waits {
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// Synced returns a channel closed once the informer declared for key has
// synced: its first full list is in its cache.
func (f *Factory) Synced(key string) (<-chan struct{}, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.entries[key]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNotRegistered, key)
	}
	return e.inf.syncedChan(), nil
}

// Keys returns the declared keys, sorted.
func (f *Factory) Keys() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	keys := make([]string, 0, len(f.entries))
	for k := range f.entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Shutdown waits for the informers started by Start to return; cancel
// their context first.
func (f *Factory) Shutdown() { f.wg.Wait() }
