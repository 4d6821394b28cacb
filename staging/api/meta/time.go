package meta

import (
	"encoding/json"
	"time"
)

// Time is a timestamp serialized as RFC 3339 with second precision, or null when zero.
type Time struct {
	time.Time `protobuf:"-"`
}

// Now returns the current time truncated to what Time serializes.
func Now() Time { return Time{time.Now().UTC().Truncate(time.Second)} }

// NewTime wraps t.
func NewTime(t time.Time) Time { return Time{t} }

// MarshalJSON writes RFC 3339 in UTC, or null for the zero time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return t.appendJSON(make([]byte, 0, len(time.RFC3339)+2)), nil
}

// appendJSON appends MarshalJSON's encoding of t to dst.
func (t Time) appendJSON(dst []byte) []byte {
	if t.IsZero() {
		return append(dst, "null"...)
	}
	dst = append(dst, '"')
	dst = t.UTC().AppendFormat(dst, time.RFC3339)
	return append(dst, '"')
}

// UnmarshalJSON reads RFC 3339 or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// MicroTime is a timestamp serialized with microsecond precision (used by Events and Leases).
type MicroTime struct {
	time.Time `protobuf:"-"`
}

// RFC3339Micro is the serialization format of MicroTime.
const RFC3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// NowMicro returns the current time truncated to microseconds.
func NowMicro() MicroTime { return MicroTime{time.Now().UTC().Truncate(time.Microsecond)} }

// MarshalJSON writes RFC 3339 with microseconds in UTC, or null for the zero time.
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	buf := make([]byte, 0, len(RFC3339Micro)+2)
	buf = append(buf, '"')
	buf = t.UTC().AppendFormat(buf, RFC3339Micro)
	return append(buf, '"'), nil
}

// UnmarshalJSON reads RFC 3339 (any sub-second precision) or null.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// Duration is a time.Duration serialized as a Go duration string ("1m30s").
type Duration struct {
	time.Duration `protobuf:"varint,1,opt,name=duration,casttype=time.Duration"`
}

// MarshalJSON writes the duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.Duration.String()) }

// UnmarshalJSON parses a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pd, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = pd
	return nil
}
