package workqueue

import "time"

// GaugeMetric is a value that goes up and down.
type GaugeMetric interface {
	Inc()
	Dec()
}

// SettableGaugeMetric is a gauge that is set to an absolute value.
type SettableGaugeMetric interface {
	Set(float64)
}

// CounterMetric is a monotonically increasing count.
type CounterMetric interface {
	Inc()
}

// HistogramMetric records observations (in seconds for durations).
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider creates the metrics of one queue, keyed by the queue's
// name. Returned metrics must be safe for concurrent use. Durations are
// reported in seconds.
type MetricsProvider interface {
	// NewDepthMetric: number of items waiting to be processed.
	NewDepthMetric(name string) GaugeMetric
	// NewAddsMetric: number of accepted (non-duplicate) adds.
	NewAddsMetric(name string) CounterMetric
	// NewLatencyMetric: time an item waited between Add and Get.
	NewLatencyMetric(name string) HistogramMetric
	// NewWorkDurationMetric: time between Get and Done.
	NewWorkDurationMetric(name string) HistogramMetric
	// NewUnfinishedWorkSecondsMetric: summed age of in-flight items.
	NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric
	// NewLongestRunningProcessorSecondsMetric: age of the oldest in-flight item.
	NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric
	// NewRetriesMetric: number of delayed (AddAfter/AddRateLimited) adds.
	NewRetriesMetric(name string) CounterMetric
}

// NoopMetricsProvider discards all metrics. A nil Options.MetricsProvider
// behaves the same and additionally skips the bookkeeping entirely.
type NoopMetricsProvider struct{}

type noopMetric struct{}

func (noopMetric) Inc()            {}
func (noopMetric) Dec()            {}
func (noopMetric) Set(float64)     {}
func (noopMetric) Observe(float64) {}

// NewDepthMetric returns a no-op gauge.
func (NoopMetricsProvider) NewDepthMetric(string) GaugeMetric { return noopMetric{} }

// NewAddsMetric returns a no-op counter.
func (NoopMetricsProvider) NewAddsMetric(string) CounterMetric { return noopMetric{} }

// NewLatencyMetric returns a no-op histogram.
func (NoopMetricsProvider) NewLatencyMetric(string) HistogramMetric { return noopMetric{} }

// NewWorkDurationMetric returns a no-op histogram.
func (NoopMetricsProvider) NewWorkDurationMetric(string) HistogramMetric { return noopMetric{} }

// NewUnfinishedWorkSecondsMetric returns a no-op gauge.
func (NoopMetricsProvider) NewUnfinishedWorkSecondsMetric(string) SettableGaugeMetric {
	return noopMetric{}
}

// NewLongestRunningProcessorSecondsMetric returns a no-op gauge.
func (NoopMetricsProvider) NewLongestRunningProcessorSecondsMetric(string) SettableGaugeMetric {
	return noopMetric{}
}

// NewRetriesMetric returns a no-op counter.
func (NoopMetricsProvider) NewRetriesMetric(string) CounterMetric { return noopMetric{} }

// queueMetrics tracks per-item timestamps. A nil *queueMetrics is valid and
// records nothing. All methods except retry must be called with the queue
// lock held.
type queueMetrics[T comparable] struct {
	clock        Clock
	depth        GaugeMetric
	adds         CounterMetric
	latency      HistogramMetric
	workDuration HistogramMetric
	unfinished   SettableGaugeMetric
	longest      SettableGaugeMetric
	retries      CounterMetric

	addTimes   map[T]time.Time
	startTimes map[T]time.Time
}

func newQueueMetrics[T comparable](name string, p MetricsProvider, c Clock) *queueMetrics[T] {
	if p == nil {
		return nil
	}
	return &queueMetrics[T]{
		clock:        c,
		depth:        p.NewDepthMetric(name),
		adds:         p.NewAddsMetric(name),
		latency:      p.NewLatencyMetric(name),
		workDuration: p.NewWorkDurationMetric(name),
		unfinished:   p.NewUnfinishedWorkSecondsMetric(name),
		longest:      p.NewLongestRunningProcessorSecondsMetric(name),
		retries:      p.NewRetriesMetric(name),
		addTimes:     make(map[T]time.Time),
		startTimes:   make(map[T]time.Time),
	}
}

func (m *queueMetrics[T]) add(item T) {
	if m == nil {
		return
	}
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.addTimes[item]; !ok {
		m.addTimes[item] = m.clock.Now()
	}
}

func (m *queueMetrics[T]) get(item T) {
	if m == nil {
		return
	}
	now := m.clock.Now()
	m.depth.Dec()
	if t, ok := m.addTimes[item]; ok {
		m.latency.Observe(now.Sub(t).Seconds())
		delete(m.addTimes, item)
	}
	m.startTimes[item] = now
}

func (m *queueMetrics[T]) done(item T) {
	if m == nil {
		return
	}
	if t, ok := m.startTimes[item]; ok {
		m.workDuration.Observe(m.clock.Now().Sub(t).Seconds())
		delete(m.startTimes, item)
	}
}

func (m *queueMetrics[T]) retry() {
	if m == nil {
		return
	}
	m.retries.Inc()
}

// updateUnfinished publishes the in-flight gauges.
func (m *queueMetrics[T]) updateUnfinished() {
	if m == nil {
		return
	}
	now := m.clock.Now()
	var total, longest float64
	for _, t := range m.startTimes {
		age := now.Sub(t).Seconds()
		total += age
		if age > longest {
			longest = age
		}
	}
	m.unfinished.Set(total)
	m.longest.Set(longest)
}
