package resource

import (
	"platform.io/client/codec/protobuf"
	"platform.io/client/internal/intern"
)

// MarshalProto appends q as upstream's Quantity message {string string = 1},
// always written, holding String().
func (q *Quantity) MarshalProto(b []byte) []byte {
	return protobuf.AppendString(b, 1, q.String())
}

// UnmarshalProto reads a Quantity message; a string that does not parse is
// an error, and a message without one leaves q unchanged.
func (q *Quantity) UnmarshalProto(data []byte) error {
	return protobuf.DecodeFields(data, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		if num != 1 {
			return protobuf.Skip(num, typ, data)
		}
		text, rest, err := protobuf.ReadBytesView(typ, data)
		if err != nil {
			return nil, err
		}
		parsed, err := parseWire(text)
		if err != nil {
			return nil, err
		}
		*q = parsed
		return rest, nil
	})
}

// The decoding cache. Objects repeat a handful of quantities ("100m",
// "128Mi", "110", a node type's capacity) over and over, and every decode
// used to copy and parse the string afresh. wireCache remembers, in each of
// wireCacheSlots hash buckets, the last quantity admitted there, keyed by
// its wire text: a hit costs a hash and a comparison, with no lock and no
// allocation. A miss parses; the result is admitted on the text's second
// consecutive miss in its bucket (see intern.Table), so values seen once
// (unique to an object) cost no allocation and cannot push the common ones
// out. The cache is bounded: at most one entry per bucket.
//
// Sharing a cached Quantity is safe because a Quantity value owns no
// mutable memory once it holds no big.Int: its text and Format are
// immutable strings and the rest are numbers, so each decode gets an
// independent copy that is identical to what ParseQuantity returns. Values
// that needed a big.Int are not cached.
const (
	wireCacheSlots  = 1024 // a power of two
	wireCacheMaxLen = 32   // longer strings are parsed every time
)

var wireCache = intern.New[Quantity](wireCacheSlots, wireCacheMaxLen)

// parseWire returns ParseQuantity(string(text)), from the cache when it
// can. It keeps no reference to text.
func parseWire(text []byte) (Quantity, error) {
	e, miss := wireCache.Lookup(text)
	if e != nil {
		return e.Val, nil
	}
	s := string(text)
	q, err := ParseQuantity(s)
	if err == nil && q.b == nil {
		wireCache.Admit(miss, s, q)
	}
	return q, err
}
