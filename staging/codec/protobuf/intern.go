package protobuf

import "platform.io/client/internal/intern"

// The decoder interns short strings. API objects repeat most of theirs:
// enumerations ("True", "TCP", "Running"), resource names, namespaces,
// label keys and values, owner kinds, images. Each decoded string used to
// be a fresh allocation, in every object of an informer's cache. stringTable
// remembers, in each of internSlots hash buckets, the last string admitted
// there; a string is admitted on its second consecutive miss in its bucket
// (see intern.Table), so strings seen once (names, UIDs, IPs) cost no extra
// allocation and do not push out the common ones. The table is bounded:
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

// stringTable holds the interned strings; they need no value.
var stringTable = intern.New[struct{}](internSlots, internMaxLen)

// internString returns string(b), shared with earlier results when it can.
func internString(b []byte) string {
	if len(b) <= 1 {
		return string(b) // a one-byte string costs no allocation anyway
	}
	e, miss := stringTable.Lookup(b)
	if e != nil {
		return e.Key
	}
	s := string(b)
	stringTable.Admit(miss, s, struct{}{})
	return s
}
