package intern

import (
	"hash/maphash"
	"sync/atomic"
)

// A Table maps short byte strings to a shared copy of the string and a
// value computed from it. It is a lossy cache with a fixed number of hash
// buckets, each remembering the last entry admitted there:
//
//   - Memory is bounded: one entry per bucket, and keys longer than the
//     table's maximum length are never stored.
//   - It is lock-free and safe for concurrent use. A lookup hashes the key,
//     loads its bucket's entry and compares, with no lock and no allocation.
//   - A key is admitted on its second consecutive miss in its bucket (the
//     bucket remembers the hash of the last key that missed there), so keys
//     seen once cost a hash and an atomic store but no extra allocation,
//     and do not push out the common ones.
//   - Entries are shared by every later hit, so their values must be
//     immutable once stored, or be copies that own no mutable memory.
//   - The table never keeps a reference to the key bytes it is given, so
//     callers may reuse their buffers.
type Table[V any] struct {
	slots  []slot[V]
	mask   uint64
	maxLen int
	seed   maphash.Seed
}

// An Entry is an immutable table entry: Key computed to Val. Val comes
// first so that a zero-size V adds no padding.
type Entry[V any] struct {
	Val V
	Key string
}

// slot is one bucket of a Table.
type slot[V any] struct {
	e atomic.Pointer[Entry[V]]
	// missed is the hash of the key that last missed here, the candidate
	// for admission.
	missed atomic.Uint64
}

// A Miss is what Lookup learned of a key it did not find, for Admit.
type Miss[V any] struct {
	sl   *slot[V] // nil for a key the table never stores
	hash uint64
}

// New returns a table of slots buckets (a power of two) that stores keys
// of at most maxLen bytes.
func New[V any](slots, maxLen int) *Table[V] {
	if slots <= 0 || slots&(slots-1) != 0 {
		panic("intern: the number of slots must be a power of two")
	}
	return &Table[V]{
		slots:  make([]slot[V], slots),
		mask:   uint64(slots - 1),
		maxLen: maxLen,
		seed:   maphash.MakeSeed(),
	}
}

// Lookup returns the entry stored for key, or nil and the Miss to pass to
// Admit once the caller has computed the key's value.
func (t *Table[V]) Lookup(key []byte) (*Entry[V], Miss[V]) {
	if len(key) > t.maxLen {
		return nil, Miss[V]{}
	}
	h := maphash.Bytes(t.seed, key)
	sl := &t.slots[h&t.mask]
	if e := sl.e.Load(); e != nil && e.Key == string(key) {
		return e, Miss[V]{}
	}
	return nil, Miss[V]{sl: sl, hash: h}
}

// Admit records the miss of key (the text Lookup was given, as a string
// the caller will not change) whose value is val. The entry is stored when
// the same key missed in its bucket just before; a miss the caller does
// not admit (a value that must not be shared) does not count.
func (t *Table[V]) Admit(m Miss[V], key string, val V) {
	if m.sl == nil {
		return
	}
	if m.sl.missed.Load() == m.hash {
		m.sl.e.Store(&Entry[V]{Val: val, Key: key})
	} else {
		m.sl.missed.Store(m.hash)
	}
}
