package endpoints

import (
	"bytes"
	"encoding/binary"
	"testing"

	"platform.io/client/api/meta"
)

// TestProtobufFrameHead checks that a frame written as head then object is
// the WatchEvent the generated encoder makes, for sizes around the varint
// boundaries.
func TestProtobufFrameHead(t *testing.T) {
	for _, typ := range []string{meta.Added, meta.Bookmark, meta.Error} {
		for _, n := range []int{1, 100, 127, 128, 16383, 16384, 2 << 20} {
			object := bytes.Repeat([]byte{'k'}, n)
			want := (&meta.WatchEvent{Type: typ, Object: object}).MarshalProto(binary.BigEndian.AppendUint32(nil, 0))
			binary.BigEndian.PutUint32(want, uint32(len(want)-4))
			got := append(protobufFrameHead(nil, typ, n), object...)
			if !bytes.Equal(got, want) {
				t.Errorf("%s of %d bytes: head %x, want %x", typ, n, got[:min(len(got), 32)], want[:min(len(want), 32)])
			}
		}
	}
}
