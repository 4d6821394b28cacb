package workqueue

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a manually advanced Clock. Timers fire during Step once the
// fake time reaches their deadline.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{clock: c, deadline: c.now.Add(d), ch: make(chan time.Time, 1)}
	if d <= 0 {
		t.ch <- c.now
		return t
	}
	c.timers = append(c.timers, t)
	return t
}

// Step advances the clock by d and fires every timer that became due.
func (c *fakeClock) Step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.deadline.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.ch <- c.now
	}
	c.timers = kept
}

// waitForTimers spins until at least n timers are pending.
func (c *fakeClock) waitForTimers(t *testing.T, n int) {
	t.Helper()
	eventually(t, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.timers) >= n
	})
}

type fakeTimer struct {
	clock    *fakeClock
	deadline time.Time
	ch       chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	for i, other := range t.clock.timers {
		if other == t {
			t.clock.timers = append(t.clock.timers[:i], t.clock.timers[i+1:]...)
			return true
		}
	}
	return false
}

// fakeMetrics records metric values per "queue/metric" key.
type fakeMetrics struct {
	mu      sync.Mutex
	values  map[string]float64
	observe map[string][]float64
}

func newFakeMetrics() *fakeMetrics {
	return &fakeMetrics{values: map[string]float64{}, observe: map[string][]float64{}}
}

func (f *fakeMetrics) value(key string) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.values[key]
}

func (f *fakeMetrics) observations(key string) []float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]float64(nil), f.observe[key]...)
}

type fakeMetric struct {
	f   *fakeMetrics
	key string
}

func (m fakeMetric) Inc() { m.add(1) }
func (m fakeMetric) Dec() { m.add(-1) }

func (m fakeMetric) add(v float64) {
	m.f.mu.Lock()
	defer m.f.mu.Unlock()
	m.f.values[m.key] += v
}

func (m fakeMetric) Set(v float64) {
	m.f.mu.Lock()
	defer m.f.mu.Unlock()
	m.f.values[m.key] = v
}

func (m fakeMetric) Observe(v float64) {
	m.f.mu.Lock()
	defer m.f.mu.Unlock()
	m.f.observe[m.key] = append(m.f.observe[m.key], v)
}

func (f *fakeMetrics) metric(name, kind string) fakeMetric {
	return fakeMetric{f: f, key: name + "/" + kind}
}

func (f *fakeMetrics) NewDepthMetric(n string) GaugeMetric            { return f.metric(n, "depth") }
func (f *fakeMetrics) NewAddsMetric(n string) CounterMetric           { return f.metric(n, "adds") }
func (f *fakeMetrics) NewLatencyMetric(n string) HistogramMetric      { return f.metric(n, "latency") }
func (f *fakeMetrics) NewWorkDurationMetric(n string) HistogramMetric { return f.metric(n, "work") }
func (f *fakeMetrics) NewRetriesMetric(n string) CounterMetric        { return f.metric(n, "retries") }

func (f *fakeMetrics) NewUnfinishedWorkSecondsMetric(n string) SettableGaugeMetric {
	return f.metric(n, "unfinished")
}

func (f *fakeMetrics) NewLongestRunningProcessorSecondsMetric(n string) SettableGaugeMetric {
	return f.metric(n, "longest")
}
