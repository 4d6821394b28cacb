package protobuf

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// body is a message whose encoding is n bytes of 'x'.
type body int

func (n body) MarshalProto(b []byte) []byte { return append(b, strings.Repeat("x", int(n))...) }
func (n body) UnmarshalProto([]byte) error  { return nil }

func TestAppendMessageLengths(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 300, 16383, 16384, 1 << 21} {
		prefix := []byte("abc")
		got := AppendMessage(bytes.Clone(prefix), 7, body(n))
		want := protowire.AppendTag(bytes.Clone(prefix), 7, protowire.BytesType)
		want = protowire.AppendBytes(want, []byte(strings.Repeat("x", n)))
		if !bytes.Equal(got, want) {
			t.Errorf("body of %d bytes: got % .12x..., want % .12x...", n, got, want)
		}
	}
}

func TestScalars(t *testing.T) {
	var b []byte
	b = AppendInt(b, 1, int32(-1))
	b = AppendInt(b, 2, int64(300))
	b = AppendBool(b, 3, false)
	b = AppendString(b, 4, "")
	b = AppendBytes(b, 5, []byte(nil))
	b = AppendBytes(b, 6, []byte{})
	b = AppendIntPtr(b, 7, (*int32)(nil))
	want := "08ffffffffffffffffff01 10ac02 1800 2200 3200"
	if got := strings.ReplaceAll(want, " ", ""); got != bytesHex(b) {
		t.Errorf("got %s, want %s", bytesHex(b), got)
	}
}

func bytesHex(b []byte) string {
	const digits = "0123456789abcdef"
	var sb strings.Builder
	for _, c := range b {
		sb.WriteByte(digits[c>>4])
		sb.WriteByte(digits[c&15])
	}
	return sb.String()
}

func TestReadScalars(t *testing.T) {
	var (
		i32   int32
		empty []byte
		ints  []int64
		names []string
	)
	data := AppendInt(nil, 1, int32(-1))
	data = AppendBytes(data, 2, []byte{})
	data = AppendInt(data, 3, int64(5))
	// field 3 again, packed: 1, 300
	data = protowire.AppendTag(data, 3, protowire.BytesType)
	data = protowire.AppendBytes(data, []byte{0x01, 0xac, 0x02})
	data = AppendStrings(data, 4, []string{"a", ""})
	err := DecodeFields(data, func(num Number, typ Type, data []byte) ([]byte, error) {
		switch num {
		case 1:
			return ReadInt(typ, data, &i32)
		case 2:
			return ReadBytes(typ, data, &empty)
		case 3:
			return ReadInts(typ, data, &ints)
		case 4:
			return ReadStrings(typ, data, &names)
		}
		return Skip(num, typ, data)
	})
	if err != nil {
		t.Fatal(err)
	}
	if i32 != -1 || empty == nil || len(empty) != 0 || len(ints) != 3 || ints[2] != 300 || len(names) != 2 || names[1] != "" {
		t.Errorf("decoded %d %#v %v %q", i32, empty, ints, names)
	}
}

func TestMaps(t *testing.T) {
	in := map[string][]byte{"b": {}, "a": nil, "c": []byte("v")}
	data := AppendBytesMap(nil, 1, in)
	var out map[string][]byte
	if err := DecodeFields(data, func(num Number, typ Type, data []byte) ([]byte, error) {
		return ReadBytesMap(typ, data, &out)
	}); err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || out["a"] != nil || out["b"] == nil || string(out["c"]) != "v" {
		t.Errorf("decoded %#v", out)
	}
	// An entry without key or value maps "" to "".
	var strs map[string]string
	if _, err := ReadStringMap(protowire.BytesType, []byte{0}, &strs); err != nil || len(strs) != 1 || strs[""] != "" {
		t.Errorf("empty entry: %v %v", strs, err)
	}
}

func TestMalformed(t *testing.T) {
	var s string
	var n int64
	cases := map[string]struct {
		data  []byte
		field FieldFunc
		trunc bool
	}{
		"truncated tag":    {[]byte{0x80}, nil, true},
		"truncated length": {[]byte{0x0a, 0x05, 'a'}, func(_ Number, typ Type, d []byte) ([]byte, error) { return ReadString(typ, d, &s) }, true},
		"truncated varint": {[]byte{0x08, 0xff}, func(_ Number, typ Type, d []byte) ([]byte, error) { return ReadInt(typ, d, &n) }, true},
		"overlong varint":  {append([]byte{0x08}, bytes.Repeat([]byte{0xff}, 11)...), func(_ Number, typ Type, d []byte) ([]byte, error) { return ReadInt(typ, d, &n) }, false},
		"wrong wire type":  {[]byte{0x08, 0x01}, func(_ Number, typ Type, d []byte) ([]byte, error) { return ReadString(typ, d, &s) }, false},
		"field zero":       {[]byte{0x00, 0x01}, nil, false},
		"end group":        {[]byte{0x0c}, func(num Number, typ Type, d []byte) ([]byte, error) { return Skip(num, typ, d) }, false},
		"bad skip":         {[]byte{0x0f}, func(num Number, typ Type, d []byte) ([]byte, error) { return Skip(num, typ, d) }, false},
	}
	for name, c := range cases {
		field := c.field
		if field == nil {
			field = Skip
		}
		err := DecodeFields(c.data, field)
		if err == nil || errors.Is(err, ErrTruncated) != c.trunc {
			t.Errorf("%s: %v (want truncated: %v)", name, err, c.trunc)
		}
	}
}
