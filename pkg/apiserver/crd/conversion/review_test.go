package conversion

import (
	"errors"
	"testing"
)

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		accepted []string
		want     string
	}{
		{[]string{"v1"}, "v1"},
		{[]string{"v1beta1"}, "v1beta1"},
		{[]string{"v2", "v1beta1", "v1"}, "v1beta1"},
		{[]string{"v2"}, ""},
		{nil, ""},
	} {
		got, err := Choose(tc.accepted)
		if got != tc.want || (tc.want == "") != errors.Is(err, ErrNoVersion) {
			t.Errorf("Choose(%v) = %q, %v; want %q", tc.accepted, got, err, tc.want)
		}
	}
}
