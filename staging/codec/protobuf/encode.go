// Package protobuf is the protobuf wire codec of the API types: the helpers
// the generated MarshalProto and UnmarshalProto methods (zz_generated.proto.go
// in each API package) are built from, and the envelope that frames an
// encoded object on the wire and in storage.
//
// The encoding is byte for byte the one upstream's gogo-generated marshalers
// produce: fields in ascending number order; a non-pointer string, number,
// bool or embedded message always written, even when empty or zero; a
// pointer only when non-nil; a []byte only when non-nil; repeated fields one
// element per entry (proto2, so numbers are not packed), nothing for an empty
// list; maps as repeated {key = 1, value = 2} entries sorted by key.
package protobuf

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Number is a protobuf field number.
type Number = protowire.Number

// Type is a protobuf wire type.
type Type = protowire.Type

// Message is implemented by every API type with a protobuf encoding.
type Message interface {
	// MarshalProto appends the message's encoding (without a tag or length
	// of its own) to b and returns the extended slice.
	MarshalProto(b []byte) []byte
	// UnmarshalProto decodes data into the message, merging as protobuf
	// does: scalars are overwritten, repeated fields and maps appended to.
	UnmarshalProto(data []byte) error
}

// Integer is every Go type encoded as a protobuf varint number.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// messagePtr is the pointer type of a message struct T.
type messagePtr[T any] interface {
	*T
	Message
}

// Marshal returns m's encoding.
func Marshal(m Message) []byte { return m.MarshalProto(nil) }

// AppendString appends field num holding s, even when s is empty.
func AppendString[S ~string](b []byte, num Number, s S) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendStringPtr appends field num holding *s when s is not nil.
func AppendStringPtr[S ~string](b []byte, num Number, s *S) []byte {
	if s == nil {
		return b
	}
	return AppendString(b, num, *s)
}

// AppendBytes appends field num holding v when v is not nil (an empty,
// non-nil v is written as an empty field).
func AppendBytes[B ~[]byte](b []byte, num Number, v B) []byte {
	if v == nil {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// AppendInt appends field num holding the varint v, even when v is zero.
// Negative numbers take ten bytes, as in every protobuf int32 and int64.
func AppendInt[T Integer](b []byte, num Number, v T) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(v))
}

// AppendIntPtr appends field num holding *v when v is not nil.
func AppendIntPtr[T Integer](b []byte, num Number, v *T) []byte {
	if v == nil {
		return b
	}
	return AppendInt(b, num, *v)
}

// AppendBool appends field num holding v, even when v is false.
func AppendBool[B ~bool](b []byte, num Number, v B) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, protowire.EncodeBool(bool(v)))
}

// AppendBoolPtr appends field num holding *v when v is not nil.
func AppendBoolPtr[B ~bool](b []byte, num Number, v *B) []byte {
	if v == nil {
		return b
	}
	return AppendBool(b, num, *v)
}

// AppendLength appends the tag of the length-delimited field num and the
// length n of its content, which the caller writes next.
func AppendLength(b []byte, num Number, n int) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendVarint(b, uint64(n))
}

// AppendMessage appends field num holding the embedded message m, even when
// m encodes to nothing.
func AppendMessage(b []byte, num Number, m Message) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	start := len(b)
	b = append(b, 0) // one byte of length, the common case
	b = m.MarshalProto(b)
	return fixLength(b, start)
}

// fixLength writes the length of b[start+1:] as a varint at b[start], where
// one byte was reserved for it, moving the body when it needs more.
func fixLength(b []byte, start int) []byte {
	n := len(b) - start - 1
	if n < 0x80 {
		b[start] = byte(n)
		return b
	}
	size := protowire.SizeVarint(uint64(n))
	b = slices.Grow(b, size-1)[:len(b)+size-1]
	copy(b[start+size:], b[start+1:start+1+n])
	protowire.AppendVarint(b[:start], uint64(n))
	return b
}

// AppendStrings appends one field num for each element of list.
func AppendStrings[S ~string](b []byte, num Number, list []S) []byte {
	for _, s := range list {
		b = AppendString(b, num, s)
	}
	return b
}

// AppendInts appends one varint field num for each element of list
// (unpacked, as proto2 repeated numbers are).
func AppendInts[T Integer](b []byte, num Number, list []T) []byte {
	for _, v := range list {
		b = AppendInt(b, num, v)
	}
	return b
}

// AppendMessages appends one embedded message field num for each element of list.
func AppendMessages[T any, P messagePtr[T]](b []byte, num Number, list []T) []byte {
	for i := range list {
		b = AppendMessage(b, num, P(&list[i]))
	}
	return b
}

// AppendStringList appends list as an embedded message whose field 1
// repeats the strings (upstream's named string lists such as Verbs), when
// list is not nil.
func AppendStringList[S ~string](b []byte, num Number, list []S) []byte {
	if list == nil {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	start := len(b)
	b = AppendStrings(append(b, 0), 1, list)
	return fixLength(b, start)
}

// AppendRawExtension appends raw as an embedded RawExtension message
// {bytes raw = 1}: the message is always written, raw only when not nil.
func AppendRawExtension[B ~[]byte](b []byte, num Number, raw B) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	start := len(b)
	b = AppendBytes(append(b, 0), 1, raw)
	return fixLength(b, start)
}

// smallMap is the size of map whose keys are sorted in a buffer on the
// stack rather than in an allocated slice.
const smallMap = 8

// appendSortedKeys appends m's keys to keys in ascending byte order.
func appendSortedKeys[K ~string, V any](keys []K, m map[K]V) []K {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendEntry appends one map entry message: key = 1, then value = 2 as
// value appends it.
func appendEntry[K ~string](b []byte, num Number, key K, value func([]byte) []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	start := len(b)
	b = AppendString(append(b, 0), 1, key)
	b = value(b)
	return fixLength(b, start)
}

// AppendStringMap appends one entry per key of m, sorted by key; both key
// and value are always written. The entry's size is known up front, so its
// length is written first rather than fixed up after.
func AppendStringMap[K ~string, V ~string](b []byte, num Number, m map[K]V) []byte {
	var buf [smallMap]K
	for _, k := range appendSortedKeys(buf[:0], m) {
		b = protowire.AppendTag(b, num, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(stringFieldSize(1, len(k))+stringFieldSize(2, len(m[k]))))
		b = AppendString(AppendString(b, 1, k), 2, m[k])
	}
	return b
}

// stringFieldSize is the encoded size of a string field numbered num
// holding n bytes.
func stringFieldSize(num Number, n int) int {
	return protowire.SizeTag(num) + protowire.SizeBytes(n)
}

// AppendBytesMap appends one entry per key of m, sorted by key; a nil value
// leaves the entry without field 2.
func AppendBytesMap[K ~string, V ~[]byte](b []byte, num Number, m map[K]V) []byte {
	var buf [smallMap]K
	for _, k := range appendSortedKeys(buf[:0], m) {
		b = appendEntry(b, num, k, func(b []byte) []byte { return AppendBytes(b, 2, m[k]) })
	}
	return b
}

// AppendMessageMap appends one entry per key of m, sorted by key; the value
// message is always written. The entries are copied out of the map into one
// slice (a map value is not addressable), not one allocation per value.
func AppendMessageMap[K ~string, V any, P messagePtr[V]](b []byte, num Number, m map[K]V) []byte {
	if len(m) == 0 {
		return b
	}
	type entry struct {
		k K
		v V
	}
	entries := make([]entry, 0, len(m))
	for k, v := range m {
		entries = append(entries, entry{k, v})
	}
	slices.SortFunc(entries, func(x, y entry) int { return strings.Compare(string(x.k), string(y.k)) })
	for i := range entries {
		e := &entries[i]
		b = appendEntry(b, num, e.k, func(b []byte) []byte { return AppendMessage(b, 2, P(&e.v)) })
	}
	return b
}
