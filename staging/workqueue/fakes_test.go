package workqueue

import (
	"sync"
	"testing"
	"time"

	"platform.io/client/internal/fakeclock"
)

// fakeClock is a manually advanced Clock. Timers fire during Step once the
// fake time reaches their deadline.
type fakeClock struct{ *fakeclock.Clock }

func newFakeClock() *fakeClock {
	return &fakeClock{fakeclock.New(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))}
}

func (c *fakeClock) NewTimer(d time.Duration) Timer { return c.Clock.NewTimer(d) }

// waitForTimers spins until at least n timers are pending.
func (c *fakeClock) waitForTimers(t *testing.T, n int) {
	t.Helper()
	eventually(t, func() bool { return c.Pending() >= n })
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
