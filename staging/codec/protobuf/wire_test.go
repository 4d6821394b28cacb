package protobuf

import (
	"bytes"
	"errors"
	"slices"
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
			return ReadStrings(num, typ, data, &names)
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
		return ReadBytesMap(num, typ, data, &out)
	}); err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || out["a"] != nil || out["b"] == nil || string(out["c"]) != "v" {
		t.Errorf("decoded %#v", out)
	}
	// An entry without key or value maps "" to "".
	var strs map[string]string
	if _, err := ReadStringMap(1, protowire.BytesType, []byte{0}, &strs); err != nil || len(strs) != 1 || strs[""] != "" {
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

// item is a message {string s = 1} for the list tests.
type item struct{ s string }

func (m *item) MarshalProto(b []byte) []byte { return AppendString(b, 1, m.s) }

func (m *item) UnmarshalProto(data []byte) error {
	return DecodeFields(data, func(num Number, typ Type, data []byte) ([]byte, error) {
		if num == 1 {
			return ReadString(typ, data, &m.s)
		}
		return Skip(num, typ, data)
	})
}

// TestListsSized checks that lists and maps are allocated once, with room
// for every element of their field in the message, however the elements
// are interleaved with other fields, and that a list merges into an
// existing one without exposing what its spare capacity held.
func TestListsSized(t *testing.T) {
	data := AppendMessages(nil, 1, []item{{"a"}, {"b"}})
	data = AppendString(data, 2, "x")
	data = AppendMessages(data, 1, []item{{"c"}})
	data = AppendStrings(data, 3, []string{"p", "q", "r"})
	data = AppendStringMap(data, 4, map[string]string{"k1": "v1", "k2": "v2"})
	data = AppendMessages(data, 1, []item{{"d"}})

	tests := []struct {
		name    string
		items   []item
		want    []string
		wantCap int
	}{
		{"nil", nil, []string{"a", "b", "c", "d"}, 4},
		{"merged", []item{{"old"}}, []string{"old", "a", "b", "c", "d"}, 5},
		{"spare capacity", make([]item, 0, 8)[:0], []string{"a", "b", "c", "d"}, 8},
		{"stale spare capacity", append(make([]item, 0, 8), item{"x"}, item{"stale"})[:1], []string{"x", "a", "b", "c", "d"}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := tt.items
			var strs []string
			var m map[string]string
			var other string
			err := DecodeFields(data, func(num Number, typ Type, data []byte) ([]byte, error) {
				switch num {
				case 1:
					return ReadMessages(num, typ, data, &items)
				case 2:
					return ReadString(typ, data, &other)
				case 3:
					return ReadStrings(num, typ, data, &strs)
				case 4:
					return ReadStringMap(num, typ, data, &m)
				}
				return Skip(num, typ, data)
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				got = append(got, it.s)
			}
			if !slices.Equal(got, tt.want) || cap(items) < tt.wantCap || (tt.items == nil && cap(items) != tt.wantCap) {
				t.Errorf("items %q (cap %d), want %q (cap %d)", got, cap(items), tt.want, tt.wantCap)
			}
			if !slices.Equal(strs, []string{"p", "q", "r"}) || cap(strs) != 3 {
				t.Errorf("strings %q (cap %d)", strs, cap(strs))
			}
			if len(m) != 2 || m["k1"] != "v1" || m["k2"] != "v2" || other != "x" {
				t.Errorf("map %v, other %q", m, other)
			}
		})
	}
}

// TestListElementError checks that an element that fails to decode leaves
// the list as it was.
func TestListElementError(t *testing.T) {
	items := []item{{"kept"}}
	bad := []byte{0x0a, 0x02, 0x08, 0x01} // an item whose field 1 is a varint
	if _, err := ReadMessages(1, protowire.BytesType, bad, &items); err == nil {
		t.Fatal("decoded an item with a wrongly typed field")
	}
	if len(items) != 1 || items[0].s != "kept" {
		t.Errorf("items after the error: %v", items)
	}
	if spare := items[:cap(items)][1:]; slices.ContainsFunc(spare, func(it item) bool { return it != item{} }) {
		t.Errorf("spare capacity holds a partly decoded item: %v", spare)
	}
}

// TestCountFields covers the sizing pass, including malformed input, where
// it counts the fields before the damage.
func TestCountFields(t *testing.T) {
	two := AppendString(AppendInt(AppendString(nil, 1, "a"), 2, 7), 1, "b")
	tests := []struct {
		name string
		data []byte
		want int
	}{
		{"empty", nil, 0},
		{"two of three", two, 2},
		{"truncated after", append(bytes.Clone(two), 0x0a, 0x05), 2},
		{"bad tag after", append(bytes.Clone(two), 0x80), 2},
	}
	for _, tt := range tests {
		if got := countFields(1, tt.data); got != tt.want {
			t.Errorf("%s: %d fields, want %d", tt.name, got, tt.want)
		}
	}
}
