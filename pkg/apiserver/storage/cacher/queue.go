package cacher

import (
	"sync"

	"platform.io/platform/pkg/apiserver/storage"
)

// watcherBuffer is how many events a watcher may fall behind before it is stopped.
const watcherBuffer = 1024

// keptQueueCap is the largest backing array a queue keeps for reuse once
// drained; a larger one (left by a burst) is dropped, so an idle watcher
// holds little memory whatever it once had to buffer.
const keptQueueCap = 64

// queue holds the events a watcher has not taken yet: up to watcherBuffer,
// in memory that grows with what is pending rather than being reserved up
// front (a channel of watcherBuffer events is 112 KiB per watcher, which a
// thousand watchers reconnecting at once pay before anything happens).
type queue struct {
	// mu guards pending and closed.
	mu      sync.Mutex
	pending []storage.Event
	closed  bool
	// ready has a token while pending is not empty or closed is set.
	ready chan struct{}
}

func newQueue() *queue { return &queue{ready: make(chan struct{}, 1)} }

// push appends e; false means the queue is full (or closed) and e was not
// queued.
func (q *queue) push(e storage.Event) bool {
	q.mu.Lock()
	ok := !q.closed && len(q.pending) < watcherBuffer
	if ok {
		q.pending = append(q.pending, e)
	}
	q.mu.Unlock()
	if ok {
		q.signal()
	}
	return ok
}

// close marks the end of the events; take returns the pending ones first.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
}

func (q *queue) signal() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take returns the pending events in order, handing back spare (a slice
// the caller is done with) for reuse, and whether the queue is closed.
// Once ready has fired, take returns at least one event or closed.
func (q *queue) take(spare []storage.Event) (events []storage.Event, closed bool) {
	if cap(spare) > keptQueueCap {
		spare = nil
	}
	clear(spare[:cap(spare)])
	q.mu.Lock()
	defer q.mu.Unlock()
	events, q.pending = q.pending, spare[:0]
	return events, q.closed
}
