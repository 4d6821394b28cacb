package endpoints

import (
	"testing"

	corev1 "platform.io/client/api/core/v1"
)

func TestDecodeStrictWholeBody(t *testing.T) {
	for _, tc := range []struct {
		body string
		ok   bool
	}{
		{`{"metadata":{"name":"a"}}`, true},
		{" {\"metadata\":{}} \n\t", true},
		{`{"metadata":{"name":"a"}}}`, false}, // a stray brace (FuzzDecodeStrict)
		{`{}]`, false},
		{`{} {}`, false},
		{`{} x`, false},
	} {
		err := decodeStrict([]byte(tc.body), &corev1.Pod{}, true)
		if (err == nil) != tc.ok {
			t.Errorf("decodeStrict(%q) = %v, want ok %v", tc.body, err, tc.ok)
		}
	}
}
