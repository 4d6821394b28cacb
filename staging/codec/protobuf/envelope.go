package protobuf

import (
	"bytes"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// The media types of the protobuf encoding. The server accepts and serves
// both; stock clients send the upstream one.
const (
	MediaType         = "application/vnd.platform.protobuf"
	UpstreamMediaType = "application/vnd.kubernetes.protobuf"
)

// prefix is the magic number that starts every enveloped object ("k8s\x00").
var prefix = []byte{0x6b, 0x38, 0x73, 0x00}

// Prefix returns a copy of the four bytes every enveloped object starts with.
func Prefix() []byte { return bytes.Clone(prefix) }

// ErrNoPrefix reports data that does not start with the envelope's magic bytes.
var ErrNoPrefix = fmt.Errorf("protobuf: data does not start with the envelope prefix % x", prefix)

// Encode returns m in the envelope: the prefix, then an Unknown message
// {typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3,
// contentType = 4} with raw holding m's encoding and both content fields
// empty, written as upstream writes it (every field present).
func Encode(apiVersion, kind string, m Message) []byte {
	b := bytes.Clone(prefix)
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	start := len(b)
	b = AppendString(append(b, 0), 1, apiVersion)
	b = AppendString(b, 2, kind)
	b = fixLength(b, start)
	b = AppendMessage(b, 2, m)
	b = AppendString(b, 3, "")
	return AppendString(b, 4, "")
}

// EncodeParts returns the envelope of an object of rawLen bytes of
// protobuf as the bytes before and after them: header, raw, trailer is
// Encode(v, k, m) when raw is the encoding of m. It lets a large object (a
// list) be written in parts without being assembled first.
func EncodeParts(apiVersion, kind string, rawLen int) (header, trailer []byte) {
	b := bytes.Clone(prefix)
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	start := len(b)
	b = AppendString(append(b, 0), 1, apiVersion)
	b = AppendString(b, 2, kind)
	b = fixLength(b, start)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(rawLen))
	return b, AppendString(AppendString(nil, 3, ""), 4, "")
}

// unknown is the envelope's message.
type unknown struct {
	apiVersion, kind string
	raw              []byte
	contentEncoding  string
	contentType      string
}

// Decode opens the envelope of data and returns the object's apiVersion,
// kind and encoding. It fails on data without the prefix, on a truncated or
// malformed envelope, and on content that is compressed or not protobuf.
func Decode(data []byte) (apiVersion, kind string, raw []byte, err error) {
	if !bytes.HasPrefix(data, prefix) {
		return "", "", nil, ErrNoPrefix
	}
	var u unknown
	if err := DecodeFields(data[len(prefix):], u.field); err != nil {
		return "", "", nil, fmt.Errorf("protobuf: envelope: %w", err)
	}
	if u.contentEncoding != "" {
		return "", "", nil, fmt.Errorf("protobuf: unsupported content encoding %q", u.contentEncoding)
	}
	switch u.contentType {
	case "", MediaType, UpstreamMediaType:
	default:
		return "", "", nil, fmt.Errorf("protobuf: unsupported content type %q in the envelope", u.contentType)
	}
	return u.apiVersion, u.kind, u.raw, nil
}

// field decodes one field of the Unknown message.
func (u *unknown) field(num Number, typ Type, data []byte) ([]byte, error) {
	switch num {
	case 1:
		v, rest, err := consumeBytes(typ, data)
		if err != nil {
			return nil, err
		}
		return rest, DecodeFields(v, func(num Number, typ Type, data []byte) ([]byte, error) {
			switch num {
			case 1:
				return ReadString(typ, data, &u.apiVersion)
			case 2:
				return ReadString(typ, data, &u.kind)
			}
			return Skip(num, typ, data)
		})
	case 2:
		return ReadBytes(typ, data, &u.raw)
	case 3:
		return ReadString(typ, data, &u.contentEncoding)
	case 4:
		return ReadString(typ, data, &u.contentType)
	}
	return Skip(num, typ, data)
}

// DecodeInto opens the envelope of data and decodes the object into m.
func DecodeInto(data []byte, m Message) (apiVersion, kind string, err error) {
	apiVersion, kind, raw, err := Decode(data)
	if err != nil {
		return "", "", err
	}
	if err := m.UnmarshalProto(raw); err != nil {
		return apiVersion, kind, fmt.Errorf("protobuf: decoding %s %s: %w", apiVersion, kind, err)
	}
	return apiVersion, kind, nil
}
