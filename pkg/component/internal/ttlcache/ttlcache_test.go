package ttlcache

import (
	"fmt"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time { return f.t }

func TestGetSet(t *testing.T) {
	tests := []struct {
		name    string
		ttl     time.Duration
		advance time.Duration
		want    bool
	}{
		{name: "fresh", ttl: 10 * time.Second, advance: 9 * time.Second, want: true},
		{name: "expired at ttl", ttl: 10 * time.Second, advance: 10 * time.Second, want: false},
		{name: "long expired", ttl: time.Second, advance: time.Hour, want: false},
		{name: "zero ttl stores nothing", ttl: 0, advance: 0, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &fakeClock{t: time.Unix(1000, 0)}
			c := New[string, int](clk.now)
			c.Set("k", 7, tt.ttl)
			clk.t = clk.t.Add(tt.advance)
			v, ok := c.Get("k")
			if ok != tt.want || (ok && v != 7) {
				t.Fatalf("Get = %d, %v; want present=%v", v, ok, tt.want)
			}
		})
	}
}

func TestSweepBoundsSize(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	c := New[string, int](clk.now)
	for i := range 1000 {
		c.Set(fmt.Sprint(i), i, time.Second)
		clk.t = clk.t.Add(100 * time.Millisecond)
	}
	if n := c.Len(); n > 128 {
		t.Fatalf("cache holds %d entries, want at most 128 after sweeps", n)
	}
}
