package soak

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

const mib = 1 << 20

// series samples f every 30s for d.
func series(d time.Duration, f func(at time.Duration) float64) []Point {
	var ps []Point
	for at := time.Duration(0); at <= d; at += 30 * time.Second {
		ps = append(ps, Point{At: at, Value: f(at)})
	}
	return ps
}

func flat(v float64) func(time.Duration) float64 {
	return func(time.Duration) float64 { return v }
}

// linear grows by perHour from v.
func linear(v, perHour float64) func(time.Duration) float64 {
	return func(at time.Duration) float64 { return v + perHour*at.Hours() }
}

// noisy adds uniform noise of ±amp (from a fixed seed) to f.
func noisy(f func(time.Duration) float64, amp float64) func(time.Duration) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	return func(at time.Duration) float64 { return f(at) + amp*(2*rng.Float64()-1) }
}

// rampThenFlat climbs from v/2 to v during the first ramp, then stays.
func rampThenFlat(v float64, ramp time.Duration) func(time.Duration) float64 {
	return func(at time.Duration) float64 {
		if at >= ramp {
			return v
		}
		return v/2 + v/2*at.Seconds()/ramp.Seconds()
	}
}

// sawtooth rises by amp over each period and drops back, as a heap
// between collections.
func sawtooth(v, amp float64, period time.Duration) func(time.Duration) float64 {
	return func(at time.Duration) float64 { return v + amp*float64(at%period)/float64(period) }
}

func TestJudge(t *testing.T) {
	th := DefaultThresholds()
	for _, c := range []struct {
		name   string
		d      time.Duration
		metric Metric
		f      func(time.Duration) float64
		grows  bool
	}{
		{"flat RSS", time.Hour, RSS, flat(100 * mib), false},
		{"noisy flat RSS (±15%)", time.Hour, RSS, noisy(flat(100*mib), 15*mib), false},
		{"sawtooth RSS", time.Hour, RSS, sawtooth(100*mib, 40*mib, 7*time.Minute), false},
		{"RSS leaking 40 MiB an hour", time.Hour, RSS, linear(100*mib, 40*mib), true},
		{"noisy RSS leaking 40 MiB an hour", time.Hour, RSS, noisy(linear(100*mib, 40*mib), 10*mib), true},
		{"RSS climbing in the warm-up only", time.Hour, RSS, rampThenFlat(100*mib, 12*time.Minute), false},
		{"RSS slope under the limit (10 MiB an hour)", time.Hour, RSS, linear(100*mib, 10*mib), false},
		{"flat goroutines", time.Hour, Goroutines, noisy(flat(300), 8), false},
		{"a goroutine a minute", time.Hour, Goroutines, linear(300, 60), true},
		{"few goroutines, +15 is under the 20 floor", time.Hour, Goroutines, linear(30, 15/0.8), false},
		{"few goroutines, +40 is over the floor", time.Hour, Goroutines, linear(30, 40/0.8), true},
		{"many goroutines, +25 is under 10%", time.Hour, Goroutines, linear(2000, 25/0.8), false},
		{"fds moving ±3", time.Hour, OpenFDs, noisy(flat(40), 3), false},
		{"a file every four minutes", time.Hour, OpenFDs, linear(40, 15), true},
		{"short run: a leak of 30 fds in 6 minutes", 6 * time.Minute, OpenFDs, linear(40, 300), true},
		{"short run: flat RSS", 6 * time.Minute, RSS, noisy(flat(80*mib), 4*mib), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := Judge(series(c.d, c.f), Warmup(c.d), th[c.metric])
			if v.Reason != "" {
				t.Fatalf("not judged: %s", v.Reason)
			}
			if v.Grows != c.grows {
				t.Errorf("grows = %v, want %v (growth %.1f, limit %.1f, base %.1f)", v.Grows, c.grows, v.Growth, v.Limit, v.Base)
			}
		})
	}
}

func TestJudgeFitsTheLine(t *testing.T) {
	v := Judge(series(time.Hour, linear(100, 60)), Warmup(time.Hour), Threshold{Absolute: 1})
	if v.Slope < 59.99 || v.Slope > 60.01 {
		t.Errorf("slope = %v per hour, want 60", v.Slope)
	}
	if v.Window != 48*time.Minute || v.Samples != 97 {
		t.Errorf("window %v of %d samples, want 48m0s of 97", v.Window, v.Samples)
	}
	if v.Growth < 47.99 || v.Growth > 48.01 {
		t.Errorf("growth = %v, want 48", v.Growth)
	}
	// The warm-up is 0..11m30s, 24 samples from 100 to 111.5.
	if v.Base != 105.75 {
		t.Errorf("base = %v, want the warm-up median 105.75", v.Base)
	}
}

func TestJudgeTooFewSamples(t *testing.T) {
	for _, c := range []struct {
		name   string
		points []Point
		want   string
	}{
		{"two after the warm-up", series(150*time.Second, flat(1)), "2 samples after the warm-up"},
		{"none in the warm-up", []Point{{3 * time.Minute, 1}, {4 * time.Minute, 1}, {5 * time.Minute, 1}}, "no sample in the warm-up"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := Judge(c.points, 2*time.Minute, DefaultThresholds()[RSS])
			if !v.Failed() || !strings.Contains(v.Reason, c.want) {
				t.Errorf("verdict %+v, want a failure for %q", v, c.want)
			}
		})
	}
}

func TestWarmup(t *testing.T) {
	for d, want := range map[time.Duration]time.Duration{
		time.Hour:        12 * time.Minute,
		6 * time.Minute:  2 * time.Minute,
		20 * time.Minute: 4 * time.Minute,
	} {
		if got := Warmup(d); got != want {
			t.Errorf("Warmup(%v) = %v, want %v", d, got, want)
		}
	}
}

// TestJudgeAll: a leak names its daemon and metric; a growing metric
// without a threshold is reported, not failed.
func TestJudgeAll(t *testing.T) {
	d := time.Hour
	rows := JudgeAll(map[Key][]Point{
		{"platform-scheduler", RSS}:                 series(d, flat(60*mib)),
		{"platform-controller-manager", Goroutines}: series(d, linear(400, 120)),
		{"platform-controller-manager", RSS}:        series(d, noisy(flat(90*mib), 5*mib)),
		{"etcd", EtcdDB}:                            series(d, linear(20*mib, 50*mib)),
	}, Warmup(d), DefaultThresholds())
	failures := Failures(rows)
	if len(failures) != 1 || !strings.HasPrefix(failures[0], "platform-controller-manager goroutines grows: 96 over 48m0s") {
		t.Fatalf("failures = %q, want one for the controller manager's goroutines", failures)
	}
	var b strings.Builder
	if err := WriteTable(&b, rows); err != nil {
		t.Fatal(err)
	}
	table := b.String()
	for _, want := range []string{
		"| etcd | etcd_db_bytes | ",
		"| - | reported |",
		"| platform-controller-manager | goroutines | ",
		"| GROWS |",
		"| platform-scheduler | rss_bytes | 60.0 MiB | 60.0 MiB | +0.0 MiB | +0.0 MiB | 12.0 MiB | flat |",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if strings.Index(table, "| etcd |") > strings.Index(table, "| platform-scheduler |") {
		t.Errorf("rows are not in daemon order:\n%s", table)
	}
}
