package informer

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"platform.io/client/api/meta"
	"platform.io/client/workqueue"
)

// MinResyncPeriod is the shortest resync period a handler can ask for;
// shorter positive periods are raised to it.
const MinResyncPeriod = time.Second

// ErrStopped is returned when adding a handler to an informer whose Run has
// returned.
var ErrStopped = errors.New("informer: stopped")

// Options configures an Informer. The zero value is usable.
type Options struct {
	// Clock drives resync and, unless Reflector.Clock is set, backoff.
	// Defaults to the wall clock.
	Clock Clock
	// ResyncPeriod is the resync period of handlers added with
	// AddEventHandler; zero means no resync.
	ResyncPeriod time.Duration
	// Reflector configures the list and watch.
	Reflector ReflectorOptions
}

// Informer is a shared informer: one Store kept current by one Reflector,
// whose changes are fanned out to any number of handlers. Create it with
// New (or For on a Factory) and call Run once.
type Informer[T Object] struct {
	gr            meta.GroupResource
	store         *Store[T]
	reflector     *Reflector[T]
	clock         Clock
	defaultResync time.Duration

	synced        atomic.Bool
	syncedCh      chan struct{} // closed when synced turns true
	resyncChanged chan struct{} // capacity 1: the set of resync periods changed
	listenerWG    sync.WaitGroup

	// mu orders store writes with pushes to listeners, so every handler
	// sees changes in store order, and late handlers see a consistent cut.
	mu        sync.Mutex
	listeners []*listener[T]
	runCtx    context.Context // non-nil once Run has started
	stopped   bool
}

// New returns an informer for the resource gr (used in NotFound errors)
// fed by lw.
func New[T Object](gr meta.GroupResource, lw ListerWatcher[T], opts Options) *Informer[T] {
	if opts.Clock == nil {
		opts.Clock = workqueue.RealClock{}
	}
	if opts.Reflector.Clock == nil {
		opts.Reflector.Clock = opts.Clock
	}
	inf := &Informer[T]{
		gr:            gr,
		store:         NewStore[T](),
		clock:         opts.Clock,
		defaultResync: opts.ResyncPeriod,
		syncedCh:      make(chan struct{}),
		resyncChanged: make(chan struct{}, 1),
	}
	inf.reflector = NewReflector[T](lw, informerSink[T]{inf}, opts.Reflector)
	return inf
}

// GroupResource names the informer's resource.
func (inf *Informer[T]) GroupResource() meta.GroupResource { return inf.gr }

// GetStore returns the informer's cache. Read it; never write it.
func (inf *Informer[T]) GetStore() *Store[T] { return inf.store }

// Lister returns a lister over the informer's cache.
func (inf *Informer[T]) Lister() Lister[T] { return NewLister(inf.store, inf.gr) }

// AddIndexers adds indexes to the informer's cache; see Store.AddIndexers.
func (inf *Informer[T]) AddIndexers(indexers Indexers[T]) error {
	return inf.store.AddIndexers(indexers)
}

// HasSynced reports whether the first full list is in the cache.
func (inf *Informer[T]) HasSynced() bool { return inf.synced.Load() }

// syncedChan is closed once HasSynced is true.
func (inf *Informer[T]) syncedChan() <-chan struct{} { return inf.syncedCh }

// LastSyncResourceVersion is the resourceVersion the cache reflects.
func (inf *Informer[T]) LastSyncResourceVersion() string {
	return inf.reflector.LastSyncResourceVersion()
}

// Run starts the watch, the handlers and the resync timer, and returns once
// ctx has ended and they have all stopped. Later calls return at once.
func (inf *Informer[T]) Run(ctx context.Context) {
	inf.mu.Lock()
	if inf.runCtx != nil || inf.stopped {
		inf.mu.Unlock()
		return
	}
	inf.runCtx = ctx
	for _, l := range inf.listeners {
		inf.startListener(l)
	}
	inf.mu.Unlock()

	var wg sync.WaitGroup
	wg.Go(func() { inf.reflector.Run(ctx) })
	wg.Go(func() { inf.resyncLoop(ctx) })
	wg.Wait()

	inf.mu.Lock()
	inf.stopped = true
	inf.mu.Unlock()
	inf.listenerWG.Wait()
}

// startListener runs l's goroutine. The caller holds mu and Run has started.
func (inf *Informer[T]) startListener(l *listener[T]) {
	ctx := inf.runCtx
	inf.listenerWG.Go(func() { l.run(ctx) })
}

// broadcast queues notes for every handler. The caller holds mu.
func (inf *Informer[T]) broadcast(notes ...note[T]) {
	for _, l := range inf.listeners {
		l.push(notes...)
	}
}

// informerSink is how the reflector writes to an informer, without giving
// the informer exported mutators.
type informerSink[T Object] struct{ inf *Informer[T] }

func (s informerSink[T]) Add(obj T)    { s.inf.upsert(obj) }
func (s informerSink[T]) Update(obj T) { s.inf.upsert(obj) }

func (s informerSink[T]) Delete(obj T) {
	inf := s.inf
	inf.mu.Lock()
	defer inf.mu.Unlock()
	inf.store.drop(Key(obj))
	inf.broadcast(note[T]{kind: noteDelete, obj: obj})
}

func (s informerSink[T]) Replace(items []T, rv string) { s.inf.replace(items, rv) }

func (inf *Informer[T]) upsert(obj T) {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	old, existed := inf.store.upsert(obj)
	if existed {
		inf.broadcast(note[T]{kind: noteUpdate, old: old, obj: obj})
		return
	}
	inf.broadcast(note[T]{kind: noteAdd, obj: obj})
}

// replace installs a full list and tells handlers what differs from the
// previous content.
func (inf *Informer[T]) replace(items []T, rv string) {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	prev := inf.store.swap(items, rv)
	first := !inf.synced.Load()
	if len(inf.listeners) > 0 {
		inf.broadcast(diff(prev, items, first)...)
	}
	if first {
		inf.synced.Store(true)
		close(inf.syncedCh)
	}
}

// diff turns a relist into notes: adds (initial on the first list) for new
// keys, updates where the resourceVersion moved, deletes in key order for
// keys that are gone. It consumes prev.
func diff[T Object](prev map[string]T, items []T, initial bool) []note[T] {
	notes := make([]note[T], 0, len(items))
	for _, obj := range items {
		if isNil(obj) {
			continue
		}
		key := Key(obj)
		old, ok := prev[key]
		switch {
		case !ok:
			notes = append(notes, note[T]{kind: noteAdd, initial: initial, obj: obj})
		case old.GetObjectMeta().ResourceVersion != obj.GetObjectMeta().ResourceVersion:
			notes = append(notes, note[T]{kind: noteUpdate, old: old, obj: obj})
		}
		delete(prev, key)
	}
	for _, key := range slices.Sorted(maps.Keys(prev)) {
		notes = append(notes, note[T]{kind: noteDelete, obj: prev[key]})
	}
	return notes
}
