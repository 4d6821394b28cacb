package controller

import (
	"sync"
	"time"
)

// DefaultExpectationsTimeout is how long expectations are trusted: a
// controller whose creates or deletes were never observed (a lost watch
// event) acts again after this long.
const DefaultExpectationsTimeout = 5 * time.Minute

// Expectations remember the creates and deletes a controller has sent and
// not yet seen in its informers, per key. While they are pending, the
// informer's view is stale and the controller must not act on counts it
// reads there, or it would create or delete twice. Safe for concurrent use.
type Expectations struct {
	timeout time.Duration
	now     func() time.Time

	mu      sync.Mutex
	pending map[string]*expectation // mu guards pending
}

type expectation struct {
	adds, dels int
	set        time.Time
}

// NewExpectations returns empty expectations; now may be nil for the wall
// clock, timeout 0 for DefaultExpectationsTimeout.
func NewExpectations(timeout time.Duration, now func() time.Time) *Expectations {
	if timeout <= 0 {
		timeout = DefaultExpectationsTimeout
	}
	if now == nil {
		now = time.Now
	}
	return &Expectations{timeout: timeout, now: now, pending: map[string]*expectation{}}
}

// Expect records that adds creates and dels deletes are about to be sent
// for key, replacing what was pending.
func (e *Expectations) Expect(key string, adds, dels int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pending[key] = &expectation{adds: adds, dels: dels, set: e.now()}
}

// Observed records that one create (add true) or delete of key's was seen
// in the informer, or that a sent one failed and will never be seen.
func (e *Expectations) Observed(key string, add bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.pending[key]
	if !ok {
		return
	}
	if add {
		x.adds--
	} else {
		x.dels--
	}
}

// Satisfied reports whether the informer has caught up with key's writes,
// or they have been pending longer than the timeout.
func (e *Expectations) Satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.pending[key]
	if !ok {
		return true
	}
	if (x.adds <= 0 && x.dels <= 0) || e.now().Sub(x.set) > e.timeout {
		delete(e.pending, key)
		return true
	}
	return false
}

// Forget drops key's expectations, for an owner that was deleted.
func (e *Expectations) Forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.pending, key)
}
