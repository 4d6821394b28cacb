package v1beta1

import "platform.io/client/codec/protobuf"

// MarshalProto encodes ExtraValue as upstream's message with its strings in
// field 1.
func (v *ExtraValue) MarshalProto(b []byte) []byte {
	return protobuf.AppendStrings(b, 1, []string(*v))
}

// UnmarshalProto decodes ExtraValue.
func (v *ExtraValue) UnmarshalProto(data []byte) error {
	return protobuf.DecodeFields(data, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		if num == 1 {
			return protobuf.ReadStrings(num, typ, data, v)
		}
		return protobuf.Skip(num, typ, data)
	})
}
