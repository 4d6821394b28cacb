package protobuf

import (
	"hash/maphash"
	"sync/atomic"
)

// The decoder interns short strings. API objects repeat most of theirs:
// enumerations ("True", "TCP", "Running"), resource names, namespaces,
// label keys and values, owner kinds, images. Each decoded string used to
// be a fresh allocation, in every object of an informer's cache. The
// intern table remembers, in each of internSlots hash buckets, the last
// string admitted there: a lookup hashes the bytes, loads the bucket's
// string and compares, with no lock and no allocation. A string is
// admitted only when it missed in its bucket just before, so strings seen
// once (names, UIDs, IPs) cost a hash and an atomic store but no extra
// allocation, and do not push out the common ones. The table is bounded:
// one string per bucket, none longer than internMaxLen.
//
// Returning a shared string is invisible to callers: Go strings are
// immutable, and an interned string is a copy of the input, never a view
// of it, so decoded objects hold no reference to the buffer they were
// decoded from.
const (
	internSlots  = 4096 // a power of two
	internMaxLen = 64
)

// internSlot is one bucket of the table.
type internSlot struct {
	s atomic.Pointer[string]
	// missed is the hash of the string that last missed here, the
	// candidate for admission.
	missed atomic.Uint64
}

var (
	internTable [internSlots]internSlot
	internSeed  = maphash.MakeSeed()
)

// intern returns string(b), shared with earlier results when it can.
func intern(b []byte) string {
	if len(b) <= 1 || len(b) > internMaxLen {
		return string(b) // a one-byte string costs no allocation anyway
	}
	h := maphash.Bytes(internSeed, b)
	slot := &internTable[h&(internSlots-1)]
	if p := slot.s.Load(); p != nil && *p == string(b) {
		return *p
	}
	s := string(b)
	if slot.missed.Load() == h {
		p := new(string)
		*p = s
		slot.s.Store(p)
	} else {
		slot.missed.Store(h)
	}
	return s
}
