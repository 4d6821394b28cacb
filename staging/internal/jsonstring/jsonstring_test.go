package jsonstring

import (
	"bytes"
	"encoding/json"
	"testing"
)

// stdQuote is what Append must match: encoding/json without HTML escaping.
func stdQuote(t testing.TB, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestAppendMatchesEncodingJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", `""`},
		{"plain", "web-1", `"web-1"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"other controls", "\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"html kept", "<a&b>", `"<a&b>"`},
		{"line and paragraph separators", "x\u2028y\u2029", `"x\u2028y\u2029"`},
		{"multibyte", "héllo, 世界 🙂", `"héllo, 世界 🙂"`},
		{"invalid byte", "a\xffb", `"a\ufffdb"`},
		{"truncated rune, one replacement a byte", "\xe2\x80", `"\ufffd\ufffd"`},
		{"surrogate encoded in UTF-8", "\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},
		{"prefix in the dst is kept", "z", `"z"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Append([]byte("prefix:"), tc.in)
			if !bytes.HasPrefix(got, []byte("prefix:")) {
				t.Fatalf("Append dropped dst: %q", got)
			}
			got = got[len("prefix:"):]
			if string(got) != tc.want {
				t.Errorf("Append(%q) = %s, want %s", tc.in, got, tc.want)
			}
			if std := stdQuote(t, tc.in); !bytes.Equal(got, std) {
				t.Errorf("Append(%q) = %s, encoding/json writes %s", tc.in, got, std)
			}
		})
	}
}

func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "a", `"\`, "\b\f\n\r\t\x00\x1f", "<>&", "\u2028\u2029", "\xff\xfe", "\xe2\x80\xa8", "\xe2\x80", "é世🙂"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Append(nil, s), stdQuote(t, s); !bytes.Equal(got, want) {
			t.Errorf("Append(%q) = %s, encoding/json writes %s", s, got, want)
		}
	})
}
