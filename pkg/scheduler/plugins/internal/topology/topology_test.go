package topology

import (
	"testing"

	st "platform.io/platform/pkg/scheduler/internal/testing"
)

func TestNodePair(t *testing.T) {
	node := st.MakeNode().Name("n1").Label("zone", "z1").Label("empty", "").Obj()
	tests := []struct {
		key    string
		want   Pair
		wantOK bool
	}{
		{key: "zone", want: Pair{"zone", "z1"}, wantOK: true},
		{key: "empty", want: Pair{"empty", ""}, wantOK: true},
		{key: "rack", want: Pair{"rack", ""}, wantOK: false},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			got, ok := NodePair(node, tc.key)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("NodePair(%q) = %v, %v; want %v, %v", tc.key, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}
