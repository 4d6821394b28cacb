package resource

import "platform.io/client/codec/protobuf"

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
		var s string
		rest, err := protobuf.ReadString(typ, data, &s)
		if err != nil {
			return nil, err
		}
		parsed, err := ParseQuantity(s)
		if err != nil {
			return nil, err
		}
		*q = parsed
		return rest, nil
	})
}
