package record

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

func TestSpamFilter(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	type take struct {
		at   time.Duration // since t0
		n    int
		want int // allowed of n
	}
	tests := []struct {
		name  string
		takes []take
	}{
		{"burst then empty", []take{{0, 30, 25}}},
		{"one token per refill", []take{{0, 25, 25}, {4 * time.Minute, 1, 0}, {5 * time.Minute, 2, 1}}},
		{"partial refills add up", []take{{0, 25, 25}, {150 * time.Second, 1, 0}, {300 * time.Second, 1, 1}, {450 * time.Second, 1, 0}}},
		{"refill stops at burst", []take{{0, 1, 1}, {24 * time.Hour, 30, 25}}},
		{"clock going back takes nothing", []take{{time.Hour, 25, 25}, {0, 1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSpamFilter(DefaultSpamBurst, DefaultSpamRefill, 10)
			k := spamKey{object: objectKey{name: "p"}}
			for i, tk := range tt.takes {
				got := 0
				for range tk.n {
					if f.allow(k, t0.Add(tk.at)) {
						got++
					}
				}
				if got != tk.want {
					t.Fatalf("take %d: %d of %d allowed, want %d", i, got, tk.n, tk.want)
				}
			}
			if !f.allow(spamKey{object: objectKey{name: "other"}}, t0) {
				t.Fatal("another object shares the bucket")
			}
		})
	}
}

func TestAggregator(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	type obs struct {
		at   time.Duration
		msg  string
		want bool
	}
	distinct := func(from, to int, at time.Duration, want func(i int) bool) []obs {
		var out []obs
		for i := from; i < to; i++ {
			out = append(out, obs{at, string(rune('a' + i)), want(i)})
		}
		return out
	}
	tests := []struct {
		name string
		obs  []obs
	}{
		{"tenth distinct message combines", distinct(0, 12, 0, func(i int) bool { return i >= 9 })},
		{"repeated messages do not count", append(distinct(0, 9, 0, func(int) bool { return false }),
			obs{0, "a", false}, obs{0, "b", false}, obs{0, "z", true}, obs{0, "a", true})},
		{"quiet interval starts over", append(distinct(0, 10, 0, func(i int) bool { return i == 9 }),
			obs{10 * time.Minute, "a", true}, obs{20*time.Minute + time.Second, "a", false})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAggregator(DefaultAggregateMaxEvents, DefaultAggregateInterval, 10)
			for i, o := range tt.obs {
				if got := a.combine(groupKey{reason: "R"}, o.msg, t0.Add(o.at)); got != o.want {
					t.Fatalf("observation %d (%q): combine = %v, want %v", i, o.msg, got, o.want)
				}
			}
		})
	}
}

func TestLRU(t *testing.T) {
	c := newLRU[string, int](2)
	c.put("a", 1)
	c.put("b", 2)
	c.get("a")
	c.put("c", 3)
	if _, ok := c.get("b"); ok {
		t.Fatal("b, the least recently used, was kept")
	}
	if v, ok := c.get("a"); !ok || v != 1 || c.len() != 2 {
		t.Fatalf("a = %d %v, len %d", v, ok, c.len())
	}
}

func TestNamer(t *testing.T) {
	var n namer
	at := time.Unix(0, 0x1000)
	tests := []struct{ object, want string }{
		{"p", "p.1000"},
		{"p", "p.1001"},
		{"q", "q.1002"},
	}
	for _, tt := range tests {
		if got := n.name(tt.object, at); got != tt.want {
			t.Fatalf("name = %q, want %q", got, tt.want)
		}
	}
	if got := n.name("p", at.Add(time.Microsecond)); got != "p.13e8" {
		t.Fatalf("a later time: %q", got)
	}
}

func TestSeriesPatch(t *testing.T) {
	ev := &corev1.Event{Count: 3, Message: "m"}
	ev.LastTimestamp.Time = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	want := `{"count":3,"lastTimestamp":"2030-01-01T00:00:00Z","message":"m"}`
	if got := string(seriesPatch(ev)); got != want {
		t.Fatalf("patch %s, want %s", got, want)
	}
}
