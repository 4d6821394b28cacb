package table

import (
	"testing"
	"time"
)

func TestHumanDuration(t *testing.T) {
	const (
		s = time.Second
		m = time.Minute
		h = time.Hour
		d = 24 * time.Hour
		y = 365 * d
	)
	cases := []struct {
		in   time.Duration
		want string
	}{
		{-3 * s, "<invalid>"},
		{-2 * s, "<invalid>"},
		{-1500 * time.Millisecond, "0s"},
		{-1 * s, "0s"},
		{0, "0s"},
		{999 * time.Millisecond, "0s"},
		{45 * s, "45s"},
		{119 * s, "119s"},
		{2 * m, "2m"},
		{5*m + 30*s, "5m30s"},
		{9*m + 59*s, "9m59s"},
		{10*m + 30*s, "10m"},
		{42 * m, "42m"},
		{179 * m, "179m"},
		{3 * h, "3h"},
		{3*h + 5*m, "3h5m"},
		{7*h + 59*m + 59*s, "7h59m"},
		{8*h + 30*m, "8h"},
		{30 * h, "30h"},
		{47 * h, "47h"},
		{2 * d, "2d"},
		{3*d + 4*h, "3d4h"},
		{7*d + 23*h, "7d23h"},
		{8*d + 5*h, "8d"},
		{120 * d, "120d"},
		{2*y - d, "729d"},
		{2 * y, "2y"},
		{3*y + 10*d, "3y10d"},
		{8*y + 100*d, "8y"},
		{20 * y, "20y"},
	}
	for _, c := range cases {
		if got := HumanDuration(c.in); got != c.want {
			t.Errorf("HumanDuration(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSince(t *testing.T) {
	if got := Since(time.Time{}); got != "<unknown>" {
		t.Errorf("Since(zero) = %q, want <unknown>", got)
	}
	if got := Since(time.Now().Add(-5 * time.Minute)); got != "5m" {
		t.Errorf("Since(5m ago) = %q, want 5m", got)
	}
	if got := Since(time.Now().Add(time.Hour)); got != "<invalid>" {
		t.Errorf("Since(in an hour) = %q, want <invalid>", got)
	}
}
