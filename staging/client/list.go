package client

import (
	"encoding/json"
	"fmt"

	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

// List is a page of objects of one resource, as a list call returns it. It
// decodes from the JSON of any list kind; UnmarshalList decodes its
// protobuf form.
type List[T any] struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata"`
	Items         []T `json:"items"`
}

// UnmarshalList decodes the protobuf encoding of a list (the envelope's
// content, as every generated XxxList writes it: ListMeta in field 1, each
// item in field 2) into l, appending to its items. Unknown fields are
// skipped.
func UnmarshalList[T any, PT ObjectPtr[T]](data []byte, l *List[T]) error {
	return protobuf.DecodeFields(data, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		switch num {
		case 1:
			rest, err := protobuf.ReadMessage(typ, data, &l.ListMeta)
			if err != nil {
				return nil, fmt.Errorf("client: decoding the list metadata: %w", err)
			}
			return rest, nil
		case 2:
			var item T
			rest, err := protobuf.ReadMessage(typ, data, PT(&item))
			if err != nil {
				return nil, fmt.Errorf("client: decoding list item %d: %w", len(l.Items), err)
			}
			l.Items = append(l.Items, item)
			return rest, nil
		}
		return protobuf.Skip(num, typ, data)
	})
}

// MarshalList appends the protobuf encoding of l to b, as the generated
// XxxList of T would write it.
func MarshalList[T any, PT ObjectPtr[T]](b []byte, l *List[T]) []byte {
	b = protobuf.AppendMessage(b, 1, &l.ListMeta)
	for i := range l.Items {
		b = protobuf.AppendMessage(b, 2, PT(&l.Items[i]))
	}
	return b
}

// listCodec lets rest decode a response into a List[T] in either encoding.
type listCodec[T any, PT ObjectPtr[T]] struct{ l *List[T] }

func (c listCodec[T, PT]) MarshalProto(b []byte) []byte     { return MarshalList[T, PT](b, c.l) }
func (c listCodec[T, PT]) UnmarshalProto(data []byte) error { return UnmarshalList[T, PT](data, c.l) }
func (c listCodec[T, PT]) UnmarshalJSON(data []byte) error  { return json.Unmarshal(data, c.l) }
func (c listCodec[T, PT]) GetTypeMeta() *meta.TypeMeta      { return &c.l.TypeMeta }
