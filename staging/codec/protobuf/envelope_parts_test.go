package protobuf

import (
	"bytes"
	"strings"
	"testing"
)

// rawBytes is a message that is already encoded.
type rawBytes []byte

func (r rawBytes) MarshalProto(b []byte) []byte { return append(b, r...) }
func (r rawBytes) UnmarshalProto([]byte) error { return nil }

func TestEncodeParts(t *testing.T) {
	for _, n := range []int{1, 127, 128, 300, 70000} {
		raw := []byte(strings.Repeat("x", n))
		want := Encode("v1", "PodList", rawBytes(raw))
		header, trailer := EncodeParts("v1", "PodList", len(raw))
		got := append(append(header, raw...), trailer...)
		if !bytes.Equal(got, want) {
			t.Errorf("%d bytes: header, raw, trailer differ from Encode", n)
		}
	}
}
