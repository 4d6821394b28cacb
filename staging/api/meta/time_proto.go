package meta

import (
	"time"

	"platform.io/client/codec/protobuf"
)

// Time, MicroTime and Duration encode as upstream's hand-written marshalers
// do. Time and MicroTime are upstream's Timestamp message {int64 seconds = 1;
// int32 nanos = 2}, both fields written, and nothing at all for the zero
// time; Duration is {int64 duration = 1}, always written.

// MarshalProto appends t as a Timestamp. Like upstream, and like its JSON
// form, Time keeps whole seconds only: nanos is written as 0.
func (t *Time) MarshalProto(b []byte) []byte {
	if t.IsZero() {
		return b
	}
	b = protobuf.AppendInt(b, 1, t.Unix())
	return protobuf.AppendInt(b, 2, int32(0))
}

// UnmarshalProto reads a Timestamp, dropping any fraction of a second; an
// empty message is the zero time.
func (t *Time) UnmarshalProto(data []byte) error {
	sec, _, err := readTimestamp(data)
	if err != nil || len(data) == 0 {
		t.Time = time.Time{}
		return err
	}
	t.Time = time.Unix(sec, 0).Local()
	return nil
}

// MarshalProto appends t as a Timestamp with its nanoseconds truncated to
// microseconds.
func (t *MicroTime) MarshalProto(b []byte) []byte {
	if t.IsZero() {
		return b
	}
	b = protobuf.AppendInt(b, 1, t.Unix())
	return protobuf.AppendInt(b, 2, int32(time.Duration(t.Nanosecond()).Truncate(time.Microsecond)))
}

// UnmarshalProto reads a Timestamp, truncated to microseconds; an empty
// message is the zero time.
func (t *MicroTime) UnmarshalProto(data []byte) error {
	sec, nanos, err := readTimestamp(data)
	if err != nil || len(data) == 0 {
		t.Time = time.Time{}
		return err
	}
	t.Time = time.Unix(sec, int64(time.Duration(nanos).Truncate(time.Microsecond))).Local()
	return nil
}

// readTimestamp decodes a Timestamp message.
func readTimestamp(data []byte) (sec int64, nanos int32, err error) {
	err = protobuf.DecodeFields(data, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		switch num {
		case 1:
			return protobuf.ReadInt(typ, data, &sec)
		case 2:
			return protobuf.ReadInt(typ, data, &nanos)
		}
		return protobuf.Skip(num, typ, data)
	})
	return sec, nanos, err
}

// MarshalProto appends d as {int64 duration = 1}.
func (d *Duration) MarshalProto(b []byte) []byte {
	return protobuf.AppendInt(b, 1, d.Duration)
}

// UnmarshalProto reads {int64 duration = 1}.
func (d *Duration) UnmarshalProto(data []byte) error {
	return protobuf.DecodeFields(data, func(num protobuf.Number, typ protobuf.Type, data []byte) ([]byte, error) {
		if num == 1 {
			return protobuf.ReadInt(typ, data, &d.Duration)
		}
		return protobuf.Skip(num, typ, data)
	})
}
