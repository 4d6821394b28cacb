package protobuf

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
)

// ErrTruncated reports input that ends inside a field. It wraps
// io.ErrUnexpectedEOF.
var ErrTruncated = fmt.Errorf("protobuf: truncated input: %w", io.ErrUnexpectedEOF)

// FieldFunc decodes the value of one field, numbered num and of wire type
// typ, from the start of data and returns what follows it. Fields it does
// not know it passes to Skip.
type FieldFunc func(num Number, typ Type, data []byte) ([]byte, error)

// DecodeFields calls field for each field of the message data.
func DecodeFields(data []byte, field FieldFunc) error {
	for len(data) > 0 {
		num, typ, rest, err := ReadTag(data)
		if err != nil {
			return err
		}
		if data, err = field(num, typ, rest); err != nil {
			return err
		}
	}
	return nil
}

// ReadTag reads the tag at the start of data: the number and wire type of
// the next field, and the data after the tag, where its value starts. The
// generated decoders loop over it as DecodeFields does, without the
// indirect call per field.
func ReadTag(data []byte) (num Number, typ Type, rest []byte, err error) {
	// Fields 1 to 15 have one-byte tags; 0 is not a field number.
	if len(data) > 0 && data[0] >= 1<<3 && data[0] < 0x80 {
		return Number(data[0] >> 3), Type(data[0] & 7), data[1:], nil
	}
	return readTag(data)
}

// readTag is ReadTag for tags of more than one byte, and for errors.
func readTag(data []byte) (num Number, typ Type, rest []byte, err error) {
	num, typ, n := protowire.ConsumeTag(data)
	if n < 0 {
		return 0, 0, nil, wireError(protowire.ParseError(n))
	}
	return num, typ, data[n:], nil
}

// Skip steps over the value of an unknown field.
func Skip(num Number, typ Type, data []byte) ([]byte, error) {
	if typ == protowire.BytesType {
		_, rest, err := consumeBytes(typ, data)
		return rest, err
	}
	n := protowire.ConsumeFieldValue(num, typ, data)
	if n < 0 {
		return nil, wireError(protowire.ParseError(n))
	}
	return data[n:], nil
}

// wireError turns protowire's parse errors into this package's.
func wireError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return ErrTruncated
	}
	return fmt.Errorf("protobuf: malformed input: %w", err)
}

// consumeBytes returns the length-delimited value at the start of data.
func consumeBytes(typ Type, data []byte) (v, rest []byte, err error) {
	// Most values are shorter than 128 bytes: a one-byte length.
	if typ == protowire.BytesType && len(data) > 0 && data[0] < 0x80 && int(data[0]) < len(data) {
		n := 1 + int(data[0])
		return data[1:n:n], data[n:], nil
	}
	return consumeBytesSlow(typ, data)
}

// consumeBytesSlow is consumeBytes for longer values, and for errors.
func consumeBytesSlow(typ Type, data []byte) (v, rest []byte, err error) {
	if typ != protowire.BytesType {
		return nil, nil, fmt.Errorf("protobuf: wire type %d where a length-delimited value belongs", typ)
	}
	v, n := protowire.ConsumeBytes(data)
	if n < 0 {
		return nil, nil, wireError(protowire.ParseError(n))
	}
	return v, data[n:], nil
}

// ReadBytesView returns the value of a length-delimited field at the start
// of data, and what follows it, without copying: v aliases data, so a
// caller that keeps any of it past the decoding of data must copy it. It
// serves decoders that look a value up before deciding to keep it.
func ReadBytesView(typ Type, data []byte) (v, rest []byte, err error) {
	return consumeBytes(typ, data)
}

// consumeVarint returns the varint at the start of data.
func consumeVarint(typ Type, data []byte) (v uint64, rest []byte, err error) {
	if typ != protowire.VarintType {
		return 0, nil, fmt.Errorf("protobuf: wire type %d where a varint belongs", typ)
	}
	v, n := protowire.ConsumeVarint(data)
	if n < 0 {
		return 0, nil, wireError(protowire.ParseError(n))
	}
	return v, data[n:], nil
}

// ReadString decodes a string field into *dst: a copy of the input, which
// may be shared with other decoded strings (see internString).
func ReadString[S ~string](typ Type, data []byte, dst *S) ([]byte, error) {
	v, rest, err := consumeBytes(typ, data)
	if err != nil {
		return nil, err
	}
	*dst = S(internString(v))
	return rest, nil
}

// ReadStringPtr decodes a string field into a new *dst.
func ReadStringPtr[S ~string](typ Type, data []byte, dst **S) ([]byte, error) {
	var s S
	rest, err := ReadString(typ, data, &s)
	if err == nil {
		*dst = &s
	}
	return rest, err
}

// ReadBytes decodes a bytes field into *dst, a copy that is never nil.
func ReadBytes[B ~[]byte](typ Type, data []byte, dst *B) ([]byte, error) {
	v, rest, err := consumeBytes(typ, data)
	if err != nil {
		return nil, err
	}
	*dst = append(make(B, 0, len(v)), v...)
	return rest, nil
}

// ReadInt decodes a varint field into *dst, truncating it to dst's size as
// protobuf does for int32.
func ReadInt[T Integer](typ Type, data []byte, dst *T) ([]byte, error) {
	v, rest, err := consumeVarint(typ, data)
	if err != nil {
		return nil, err
	}
	*dst = T(v)
	return rest, nil
}

// ReadIntPtr decodes a varint field into a new *dst.
func ReadIntPtr[T Integer](typ Type, data []byte, dst **T) ([]byte, error) {
	var v T
	rest, err := ReadInt(typ, data, &v)
	if err == nil {
		*dst = &v
	}
	return rest, err
}

// ReadBool decodes a bool field into *dst.
func ReadBool[B ~bool](typ Type, data []byte, dst *B) ([]byte, error) {
	v, rest, err := consumeVarint(typ, data)
	if err != nil {
		return nil, err
	}
	*dst = B(v != 0)
	return rest, nil
}

// ReadBoolPtr decodes a bool field into a new *dst.
func ReadBoolPtr[B ~bool](typ Type, data []byte, dst **B) ([]byte, error) {
	var v B
	rest, err := ReadBool(typ, data, &v)
	if err == nil {
		*dst = &v
	}
	return rest, err
}

// ReadMessage decodes an embedded message field into m, merging.
func ReadMessage(typ Type, data []byte, m Message) ([]byte, error) {
	v, rest, err := consumeBytes(typ, data)
	if err != nil {
		return nil, err
	}
	if err := m.UnmarshalProto(v); err != nil {
		return nil, err
	}
	return rest, nil
}

// ReadMessagePtr decodes an embedded message field into *dst, allocating it
// when nil.
func ReadMessagePtr[T any, P messagePtr[T]](typ Type, data []byte, dst **T) ([]byte, error) {
	if *dst == nil {
		*dst = new(T)
	}
	return ReadMessage(typ, data, P(*dst))
}

// ReadStrings appends one element of a repeated string field numbered num
// to *dst. When *dst is full it first makes room for every element of field
// num in the rest of the message, so that a list is allocated once.
func ReadStrings[L ~[]S, S ~string](num Number, typ Type, data []byte, dst *L) ([]byte, error) {
	var s S
	rest, err := ReadString(typ, data, &s)
	if err != nil {
		return nil, err
	}
	if len(*dst) == cap(*dst) {
		*dst = slices.Grow(*dst, 1+countFields(num, rest))
	}
	*dst = append(*dst, s)
	return rest, nil
}

// countFields returns how many fields numbered num the message data holds,
// or how many precede the first malformed field (which the caller's own
// decoding reports). It is the cheap first pass that sizes lists and maps.
func countFields(num Number, data []byte) int {
	count := 0
	for len(data) > 0 {
		n, typ, rest, err := ReadTag(data)
		if err != nil {
			break
		}
		if data, err = Skip(n, typ, rest); err != nil {
			break
		}
		if n == num {
			count++
		}
	}
	return count
}

// ReadInts appends to *dst one element of a repeated varint field, or every
// element of a packed one.
func ReadInts[L ~[]T, T Integer](typ Type, data []byte, dst *L) ([]byte, error) {
	if typ == protowire.VarintType {
		var v T
		rest, err := ReadInt(typ, data, &v)
		if err == nil {
			*dst = append(*dst, v)
		}
		return rest, err
	}
	packed, rest, err := consumeBytes(typ, data)
	if err != nil {
		return nil, err
	}
	for len(packed) > 0 {
		v, n := protowire.ConsumeVarint(packed)
		if n < 0 {
			return nil, wireError(protowire.ParseError(n))
		}
		*dst = append(*dst, T(v))
		packed = packed[n:]
	}
	return rest, nil
}

// ReadMessages appends one element of a repeated message field numbered num
// to *dst, decoding it in place. When *dst is full it first makes room for
// every element of field num in the rest of the message, so that a list is
// allocated once. On error *dst keeps its length.
func ReadMessages[L ~[]T, T any, P messagePtr[T]](num Number, typ Type, data []byte, dst *L) ([]byte, error) {
	v, rest, err := consumeBytes(typ, data)
	if err != nil {
		return nil, err
	}
	n := len(*dst)
	if n == cap(*dst) {
		*dst = slices.Grow(*dst, 1+countFields(num, rest))[:n+1] // zeroed
	} else {
		*dst = (*dst)[:n+1]
		clear((*dst)[n:]) // spare capacity may hold an old element
	}
	if err := P(&(*dst)[n]).UnmarshalProto(v); err != nil {
		clear((*dst)[n:])
		*dst = (*dst)[:n]
		return nil, err
	}
	return rest, nil
}

// ReadStringList decodes the embedded message AppendStringList writes into
// *dst, which it leaves non-nil.
func ReadStringList[L ~[]S, S ~string](typ Type, data []byte, dst *L) ([]byte, error) {
	v, rest, err := consumeBytes(typ, data)
	if err != nil {
		return nil, err
	}
	if *dst == nil {
		*dst = L{}
	}
	err = DecodeFields(v, func(num Number, typ Type, data []byte) ([]byte, error) {
		if num == 1 {
			return ReadStrings(num, typ, data, dst)
		}
		return Skip(num, typ, data)
	})
	return rest, err
}

// ReadRawExtension decodes an embedded RawExtension message into *dst: its
// raw bytes, or nil when it has none.
func ReadRawExtension[B ~[]byte](typ Type, data []byte, dst *B) ([]byte, error) {
	v, rest, err := consumeBytes(typ, data)
	if err != nil {
		return nil, err
	}
	err = DecodeFields(v, func(num Number, typ Type, data []byte) ([]byte, error) {
		if num == 1 {
			return ReadBytes(typ, data, dst)
		}
		return Skip(num, typ, data)
	})
	return rest, err
}

// readEntry decodes one map entry message: the key into *key and field 2
// with value.
func readEntry[K ~string](typ Type, data []byte, key *K, value FieldFunc) ([]byte, error) {
	v, rest, err := consumeBytes(typ, data)
	if err != nil {
		return nil, err
	}
	err = DecodeFields(v, func(num Number, typ Type, data []byte) ([]byte, error) {
		switch num {
		case 1:
			return ReadString(typ, data, key)
		case 2:
			return value(num, typ, data)
		}
		return Skip(num, typ, data)
	})
	return rest, err
}

// ReadStringMap adds one entry of a map<string, string> field numbered num
// to *dst, which it makes, when nil, with room for every entry of field num
// in the rest of the message.
func ReadStringMap[M ~map[K]V, K ~string, V ~string](num Number, typ Type, data []byte, dst *M) ([]byte, error) {
	var k K
	var v V
	rest, err := readEntry(typ, data, &k, func(_ Number, typ Type, data []byte) ([]byte, error) {
		return ReadString(typ, data, &v)
	})
	return rest, putEntry(dst, num, rest, k, v, err)
}

// ReadBytesMap adds one entry of a map<string, bytes> field numbered num to
// *dst as ReadStringMap does; an entry without a value maps its key to nil.
func ReadBytesMap[M ~map[K]V, K ~string, V ~[]byte](num Number, typ Type, data []byte, dst *M) ([]byte, error) {
	var k K
	var v V
	rest, err := readEntry(typ, data, &k, func(_ Number, typ Type, data []byte) ([]byte, error) {
		return ReadBytes(typ, data, &v)
	})
	return rest, putEntry(dst, num, rest, k, v, err)
}

// ReadMessageMap adds one entry of a map<string, message> field numbered num
// to *dst as ReadStringMap does.
func ReadMessageMap[M ~map[K]V, K ~string, V any, P messagePtr[V]](num Number, typ Type, data []byte, dst *M) ([]byte, error) {
	var k K
	var v V
	rest, err := readEntry(typ, data, &k, func(num Number, typ Type, data []byte) ([]byte, error) {
		return ReadMessage(typ, data, P(&v))
	})
	return rest, putEntry(dst, num, rest, k, v, err)
}

// putEntry stores k and v in *dst unless err is set, and returns err. A nil
// *dst is made with room for this entry and every further one of field num
// in rest, the remainder of the message.
func putEntry[M ~map[K]V, K comparable, V any](dst *M, num Number, rest []byte, k K, v V, err error) error {
	if err != nil {
		return err
	}
	if *dst == nil {
		*dst = make(M, 1+countFields(num, rest))
	}
	(*dst)[k] = v
	return nil
}
