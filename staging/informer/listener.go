package informer

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// ResourceEventHandler receives an informer's changes. Nil fields are
// skipped. Calls to one handler never overlap and arrive in order.
type ResourceEventHandler[T Object] struct {
	// OnAdd is called for a new object; isInInitialList is true for the
	// objects of the first list and for the adds a late handler receives
	// for objects already cached.
	OnAdd func(obj T, isInInitialList bool)
	// OnUpdate is called for a changed object, and with old == new on resync.
	OnUpdate func(oldObj, newObj T)
	// OnDelete is called with the object's final state, or, when the
	// deletion was only noticed by a relist, its last known state.
	OnDelete func(obj T)
}

type noteKind uint8

const (
	noteAdd noteKind = iota
	noteUpdate
	noteDelete
)

// note is one pending call to a handler.
type note[T Object] struct {
	kind    noteKind
	initial bool // counts towards the handler's sync
	old     T
	obj     T
}

// listener is one handler with its own unbounded queue and goroutine, so
// that pushing never blocks.
type listener[T Object] struct {
	h ResourceEventHandler[T]

	// resync and nextResync are guarded by the informer's mu.
	resync     time.Duration
	nextResync time.Time

	mu       sync.Mutex
	pending  []note[T]
	wake     chan struct{} // capacity 1: "pending may be non-empty"
	stop     chan struct{} // closed by remove
	stopOnce sync.Once

	initialLeft atomic.Int64 // initial notes pushed but not yet delivered
}

func newListener[T Object](h ResourceEventHandler[T], resync time.Duration) *listener[T] {
	return &listener[T]{h: h, resync: resync, wake: make(chan struct{}, 1), stop: make(chan struct{})}
}

// push queues notes for the handler; it never blocks.
func (l *listener[T]) push(notes ...note[T]) {
	if len(notes) == 0 {
		return
	}
	var initial int64
	for i := range notes {
		if notes[i].initial {
			initial++
		}
	}
	l.initialLeft.Add(initial)
	l.mu.Lock()
	l.pending = append(l.pending, notes...)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// run delivers queued notes until ctx ends or the listener is removed.
func (l *listener[T]) run(ctx context.Context) {
	var batch []note[T]
	for {
		clear(batch)
		l.mu.Lock()
		batch, l.pending = l.pending, batch[:0]
		l.mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-ctx.Done():
				return
			case <-l.stop:
				return
			case <-l.wake:
			}
			continue
		}
		for i := range batch {
			select {
			case <-l.stop:
				return
			default:
			}
			l.deliver(&batch[i])
		}
	}
}

func (l *listener[T]) deliver(n *note[T]) {
	switch n.kind {
	case noteAdd:
		if l.h.OnAdd != nil {
			l.h.OnAdd(n.obj, n.initial)
		}
	case noteUpdate:
		if l.h.OnUpdate != nil {
			l.h.OnUpdate(n.old, n.obj)
		}
	case noteDelete:
		if l.h.OnDelete != nil {
			l.h.OnDelete(n.obj)
		}
	}
	if n.initial {
		l.initialLeft.Add(-1)
	}
}

func (l *listener[T]) remove() { l.stopOnce.Do(func() { close(l.stop) }) }
