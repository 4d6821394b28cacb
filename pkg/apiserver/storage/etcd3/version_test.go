package etcd3

import "testing"

func TestProgressOrdered(t *testing.T) {
	for v, want := range map[string]bool{
		"3.4.23": false, "3.4.30": false, "3.4.31": true, "3.5.12": false, "3.5.13": true,
		"3.5.21": true, "3.6.0": true, "3.6.16": true, "3.8.0-alpha.0": true, "3.3.27": false,
		"4.0.0": true, "garbage": false, "": false,
	} {
		if got := progressOrdered(v); got != want {
			t.Errorf("%q: got %v, want %v", v, got, want)
		}
	}
}
