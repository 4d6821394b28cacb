package intstr

import "platform.io/client/codec/protobuf"

// MarshalProto appends v as upstream's IntOrString message {int64 type = 1;
// int32 intVal = 2; string strVal = 3}, every field always written.
func (v *IntOrString) MarshalProto(b []byte) []byte {
	b = protobuf.AppendInt(b, 1, v.Type)
	b = protobuf.AppendInt(b, 2, v.IntVal)
	return protobuf.AppendString(b, 3, v.StrVal)
}

// UnmarshalProto reads an IntOrString message.
func (v *IntOrString) UnmarshalProto(data []byte) error {
	return protobuf.DecodeFields(data, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		switch num {
		case 1:
			return protobuf.ReadInt(typ, data, &v.Type)
		case 2:
			return protobuf.ReadInt(typ, data, &v.IntVal)
		case 3:
			return protobuf.ReadString(typ, data, &v.StrVal)
		}
		return protobuf.Skip(num, typ, data)
	})
}
