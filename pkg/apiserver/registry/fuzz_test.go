package registry

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzContinueToken decodes arbitrary continue tokens: that must never
// panic; a token that decodes must name a position inside the list's key
// range (no "..", not absolute) at a positive revision, and encoding it
// again must give a token that decodes to the same position.
func FuzzContinueToken(f *testing.F) {
	for _, seed := range []string{
		encodeContinue(1, "a"),
		encodeContinue(1<<62, "ns/name\x00"),
		encodeContinue(7, "default/web-1"),
		"eyJ2IjoibWV0YS5wbGF0Zm9ybS5pby92MSIsInJ2IjoxLCJzdGFydCI6Ingi",
		"eyJ2IjoibWV0YS5wbGF0Zm9ybS5pby92MSIsInJ2Ijo1LCJzdGFydCI6Ii4uLyJ9",
		"bnVsbA==",
		"!!!",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, token string) {
		got, err := decodeContinue(token)
		if err != nil {
			return
		}
		if got.ResourceVersion <= 0 || got.StartKey == "" || strings.Contains(got.StartKey, "..") || strings.HasPrefix(got.StartKey, "/") {
			t.Fatalf("token %q decodes to an unsafe position %+v", token, got)
		}
		again, err := decodeContinue(encodeContinue(got.ResourceVersion, got.StartKey))
		if err != nil || again != got {
			t.Fatalf("token %q: %+v re-encodes to %+v, %v", token, got, again, err)
		}
	})
}

// FuzzParseResourceVersion reads arbitrary resourceVersions: that must
// never panic, a version that reads is never negative, and formatting it
// reads back the same number.
func FuzzParseResourceVersion(f *testing.F) {
	for _, seed := range []string{"", "0", "1", "42", "-1", "abc", "9223372036854775807", "9223372036854775808", "0x10", "+5", " 5"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, rv string) {
		n, err := parseResourceVersion(rv)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("%q reads as %d", rv, n)
		}
		if rv == "" {
			return
		}
		back, err := parseResourceVersion(strconv.FormatInt(n, 10))
		if err != nil || back != n {
			t.Fatalf("%q reads as %d, which formats and reads back as %d, %v", rv, n, back, err)
		}
	})
}
