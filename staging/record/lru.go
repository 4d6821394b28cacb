package record

import (
	"container/list"
	"hash/maphash"
)

// lru is a map of at most size entries that forgets the least recently
// used key first. It is not safe for concurrent use.
//
// Keys are kept as their 64-bit hashes, not as themselves: an event's keys
// hold a dozen strings, and copies of them in the map and the list made an
// entry cost about a kilobyte, so a daemon's caches (three per sink, of
// 4,096 entries) took hours of new pods to fill and grew its memory all
// that time. Two keys share an entry with a probability of about n²/2⁶⁵,
// 5×10⁻¹³ at 4,096 entries.
type lru[K comparable, V any] struct {
	seed  maphash.Seed
	size  int
	order *list.List // of *lruEntry, most recent first
	items map[uint64]*list.Element
}

type lruEntry[V any] struct {
	key uint64
	val V
}

func newLRU[K comparable, V any](size int) *lru[K, V] {
	return &lru[K, V]{seed: maphash.MakeSeed(), size: max(size, 1), order: list.New(), items: map[uint64]*list.Element{}}
}

// get returns the value of k and marks it used.
func (c *lru[K, V]) get(k K) (V, bool) {
	el, ok := c.items[maphash.Comparable(c.seed, k)]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry[V]).val, true
}

// put sets the value of k, marks it used, and forgets the least recently
// used key when there are too many.
func (c *lru[K, V]) put(k K, v V) {
	h := maphash.Comparable(c.seed, k)
	if el, ok := c.items[h]; ok {
		el.Value.(*lruEntry[V]).val = v
		c.order.MoveToFront(el)
		return
	}
	c.items[h] = c.order.PushFront(&lruEntry[V]{key: h, val: v})
	if c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*lruEntry[V]).key)
	}
}

// len returns the number of keys held.
func (c *lru[K, V]) len() int { return c.order.Len() }
