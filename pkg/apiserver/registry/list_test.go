package registry

import (
	"encoding/base64"
	"testing"
)

func TestContinueToken(t *testing.T) {
	tok := encodeContinue(42, "ns/name\x00")
	got, err := decodeContinue(tok)
	if err != nil || got.ResourceVersion != 42 || got.StartKey != "ns/name\x00" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for _, bad := range []string{
		"!!!",
		enc("not json"),
		enc(`{"v":"other/v9","rv":1,"start":"a"}`),
		enc(`{"v":"meta.platform.io/v1","rv":0,"start":"a"}`),
		enc(`{"v":"meta.platform.io/v1","rv":5,"start":""}`),
		enc(`{"v":"meta.platform.io/v1","rv":5,"start":"../other"}`),
		enc(`{"v":"meta.platform.io/v1","rv":5,"start":"/registry/x"}`),
	} {
		if _, err := decodeContinue(bad); err == nil {
			t.Errorf("token %q accepted", bad)
		}
	}
}
