package v1

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"platform.io/client/codec/protobuf"
)

// MarshalProto appends upstream's empty CustomResourceSubresourceStatus message.
func (m *CustomResourceSubresourceStatus) MarshalProto(b []byte) []byte { return b }

// UnmarshalProto skips every field: the message has none.
func (m *CustomResourceSubresourceStatus) UnmarshalProto(data []byte) error {
	return protobuf.DecodeFields(data, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		return protobuf.Skip(num, typ, data)
	})
}

// appendDoublePtr appends field num holding *v as a double when v is set.
func appendDoublePtr(b []byte, num protobuf.Number, v *float64) []byte {
	if v == nil {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, math.Float64bits(*v))
}

// readDoublePtr reads a double field into *dst.
func readDoublePtr(typ protobuf.Type, data []byte, dst **float64) ([]byte, error) {
	if typ != protowire.Fixed64Type {
		return nil, fmt.Errorf("protobuf: a double field has wire type %d", typ)
	}
	v, n := protowire.ConsumeFixed64(data)
	if n < 0 {
		return nil, fmt.Errorf("protobuf: %w", protowire.ParseError(n))
	}
	f := math.Float64frombits(v)
	*dst = &f
	return data[n:], nil
}

// MarshalProto appends upstream's JSONSchemaProps message.
func (m *JSONSchemaProps) MarshalProto(b []byte) []byte {
	b = protobuf.AppendString(b, 1, m.ID)
	b = protobuf.AppendString(b, 2, m.Schema)
	b = protobuf.AppendStringPtr(b, 3, m.Ref)
	b = protobuf.AppendString(b, 4, m.Description)
	b = protobuf.AppendString(b, 5, m.Type)
	b = protobuf.AppendString(b, 6, m.Format)
	b = protobuf.AppendString(b, 7, m.Title)
	if m.Default != nil {
		b = protobuf.AppendMessage(b, 8, m.Default)
	}
	b = appendDoublePtr(b, 9, m.Maximum)
	b = protobuf.AppendBool(b, 10, m.ExclusiveMaximum)
	b = appendDoublePtr(b, 11, m.Minimum)
	b = protobuf.AppendBool(b, 12, m.ExclusiveMinimum)
	b = protobuf.AppendIntPtr(b, 13, m.MaxLength)
	b = protobuf.AppendIntPtr(b, 14, m.MinLength)
	b = protobuf.AppendString(b, 15, m.Pattern)
	b = protobuf.AppendIntPtr(b, 16, m.MaxItems)
	b = protobuf.AppendIntPtr(b, 17, m.MinItems)
	b = protobuf.AppendBool(b, 18, m.UniqueItems)
	b = appendDoublePtr(b, 19, m.MultipleOf)
	b = protobuf.AppendMessages(b, 20, m.Enum)
	b = protobuf.AppendIntPtr(b, 21, m.MaxProperties)
	b = protobuf.AppendIntPtr(b, 22, m.MinProperties)
	b = protobuf.AppendStrings(b, 23, m.Required)
	if m.Items != nil {
		b = protobuf.AppendMessage(b, 24, m.Items)
	}
	b = protobuf.AppendMessages(b, 25, m.AllOf)
	b = protobuf.AppendMessages(b, 26, m.OneOf)
	b = protobuf.AppendMessages(b, 27, m.AnyOf)
	if m.Not != nil {
		b = protobuf.AppendMessage(b, 28, m.Not)
	}
	b = protobuf.AppendMessageMap(b, 29, m.Properties)
	if m.AdditionalProperties != nil {
		b = protobuf.AppendMessage(b, 30, m.AdditionalProperties)
	}
	b = protobuf.AppendMessageMap(b, 31, m.PatternProperties)
	b = protobuf.AppendMessageMap(b, 32, m.Dependencies)
	if m.AdditionalItems != nil {
		b = protobuf.AppendMessage(b, 33, m.AdditionalItems)
	}
	b = protobuf.AppendMessageMap(b, 34, m.Definitions)
	if m.ExternalDocs != nil {
		b = protobuf.AppendMessage(b, 35, m.ExternalDocs)
	}
	if m.Example != nil {
		b = protobuf.AppendMessage(b, 36, m.Example)
	}
	b = protobuf.AppendBool(b, 37, m.Nullable)
	b = protobuf.AppendBoolPtr(b, 38, m.XPreserveUnknownFields)
	b = protobuf.AppendBool(b, 39, m.XEmbeddedResource)
	b = protobuf.AppendBool(b, 40, m.XIntOrString)
	b = protobuf.AppendStrings(b, 41, m.XListMapKeys)
	b = protobuf.AppendStringPtr(b, 42, m.XListType)
	b = protobuf.AppendStringPtr(b, 43, m.XMapType)
	return protobuf.AppendMessages(b, 44, m.XValidations)
}

// UnmarshalProto reads a JSONSchemaProps message.
func (m *JSONSchemaProps) UnmarshalProto(data []byte) error {
	return protobuf.DecodeFields(data, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		switch num {
		case 1:
			return protobuf.ReadString(typ, data, &m.ID)
		case 2:
			return protobuf.ReadString(typ, data, &m.Schema)
		case 3:
			return protobuf.ReadStringPtr(typ, data, &m.Ref)
		case 4:
			return protobuf.ReadString(typ, data, &m.Description)
		case 5:
			return protobuf.ReadString(typ, data, &m.Type)
		case 6:
			return protobuf.ReadString(typ, data, &m.Format)
		case 7:
			return protobuf.ReadString(typ, data, &m.Title)
		case 8:
			return protobuf.ReadMessagePtr(typ, data, &m.Default)
		case 9:
			return readDoublePtr(typ, data, &m.Maximum)
		case 10:
			return protobuf.ReadBool(typ, data, &m.ExclusiveMaximum)
		case 11:
			return readDoublePtr(typ, data, &m.Minimum)
		case 12:
			return protobuf.ReadBool(typ, data, &m.ExclusiveMinimum)
		case 13:
			return protobuf.ReadIntPtr(typ, data, &m.MaxLength)
		case 14:
			return protobuf.ReadIntPtr(typ, data, &m.MinLength)
		case 15:
			return protobuf.ReadString(typ, data, &m.Pattern)
		case 16:
			return protobuf.ReadIntPtr(typ, data, &m.MaxItems)
		case 17:
			return protobuf.ReadIntPtr(typ, data, &m.MinItems)
		case 18:
			return protobuf.ReadBool(typ, data, &m.UniqueItems)
		case 19:
			return readDoublePtr(typ, data, &m.MultipleOf)
		case 20:
			return protobuf.ReadMessages(num, typ, data, &m.Enum)
		case 21:
			return protobuf.ReadIntPtr(typ, data, &m.MaxProperties)
		case 22:
			return protobuf.ReadIntPtr(typ, data, &m.MinProperties)
		case 23:
			return protobuf.ReadStrings(num, typ, data, &m.Required)
		case 24:
			return protobuf.ReadMessagePtr(typ, data, &m.Items)
		case 25:
			return protobuf.ReadMessages(num, typ, data, &m.AllOf)
		case 26:
			return protobuf.ReadMessages(num, typ, data, &m.OneOf)
		case 27:
			return protobuf.ReadMessages(num, typ, data, &m.AnyOf)
		case 28:
			return protobuf.ReadMessagePtr(typ, data, &m.Not)
		case 29:
			return protobuf.ReadMessageMap(num, typ, data, &m.Properties)
		case 30:
			return protobuf.ReadMessagePtr(typ, data, &m.AdditionalProperties)
		case 31:
			return protobuf.ReadMessageMap(num, typ, data, &m.PatternProperties)
		case 32:
			return protobuf.ReadMessageMap(num, typ, data, &m.Dependencies)
		case 33:
			return protobuf.ReadMessagePtr(typ, data, &m.AdditionalItems)
		case 34:
			return protobuf.ReadMessageMap(num, typ, data, &m.Definitions)
		case 35:
			return protobuf.ReadMessagePtr(typ, data, &m.ExternalDocs)
		case 36:
			return protobuf.ReadMessagePtr(typ, data, &m.Example)
		case 37:
			return protobuf.ReadBool(typ, data, &m.Nullable)
		case 38:
			return protobuf.ReadBoolPtr(typ, data, &m.XPreserveUnknownFields)
		case 39:
			return protobuf.ReadBool(typ, data, &m.XEmbeddedResource)
		case 40:
			return protobuf.ReadBool(typ, data, &m.XIntOrString)
		case 41:
			return protobuf.ReadStrings(num, typ, data, &m.XListMapKeys)
		case 42:
			return protobuf.ReadStringPtr(typ, data, &m.XListType)
		case 43:
			return protobuf.ReadStringPtr(typ, data, &m.XMapType)
		case 44:
			return protobuf.ReadMessages(num, typ, data, &m.XValidations)
		}
		return protobuf.Skip(num, typ, data)
	})
}
