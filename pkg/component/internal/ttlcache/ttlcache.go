package ttlcache

import (
	"sync"
	"time"
)

// Cache maps keys to values that expire. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	now func() time.Time

	mu        sync.Mutex // mu guards entries and sweepAt
	entries   map[K]entry[V]
	sweepAt   int
	minSweeps int
}

type entry[V any] struct {
	value   V
	expires time.Time
}

// New returns an empty cache reading the time from now (time.Now when nil).
func New[K comparable, V any](now func() time.Time) *Cache[K, V] {
	if now == nil {
		now = time.Now
	}
	return &Cache[K, V]{now: now, entries: map[K]entry[V]{}, sweepAt: 64, minSweeps: 64}
}

// Get returns the value of key when it is present and not expired.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	if !c.now().Before(e.expires) {
		delete(c.entries, key)
		var zero V
		return zero, false
	}
	return e.value, true
}

// Set stores value under key for ttl; a ttl of zero or less stores nothing.
func (c *Cache[K, V]) Set(key K, value V, ttl time.Duration) {
	if ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	c.entries[key] = entry[V]{value: value, expires: now.Add(ttl)}
	if len(c.entries) >= c.sweepAt {
		c.sweepLocked(now)
	}
}

// Len returns the number of entries held, expired ones included.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// sweepLocked drops expired entries and sets the size of the next sweep to
// twice what is left.
func (c *Cache[K, V]) sweepLocked(now time.Time) {
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
		}
	}
	c.sweepAt = max(2*len(c.entries), c.minSweeps)
}
