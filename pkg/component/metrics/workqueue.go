package metrics

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"platform.io/client/workqueue"

	"platform.io/platform/pkg/component/internal/promreg"
)

// Workqueue reports work queues' metrics.
type Workqueue struct {
	depth        *prometheus.GaugeVec
	adds         *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	workDuration *prometheus.HistogramVec
	unfinished   *prometheus.GaugeVec
	longest      *prometheus.GaugeVec
	retries      *prometheus.CounterVec
}

var _ workqueue.MetricsProvider = (*Workqueue)(nil)

// NewWorkqueue registers the work-queue metrics on reg.
func NewWorkqueue(reg prometheus.Registerer) (*Workqueue, error) {
	const sub = "workqueue"
	label := []string{"name"}
	durations := prometheus.ExponentialBuckets(10e-9, 10, 10)
	gauge := func(name, help string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: sub, Name: name, Help: help}, label)
	}
	counter := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Subsystem: sub, Name: name, Help: help}, label)
	}
	histogram := func(name, help string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Subsystem: sub, Name: name, Help: help, Buckets: durations}, label)
	}
	w := &Workqueue{}
	var errs [7]error
	w.depth, errs[0] = promreg.Register(reg, gauge("depth", "Current depth of workqueue"))
	w.adds, errs[1] = promreg.Register(reg, counter("adds_total", "Total number of adds handled by workqueue"))
	w.latency, errs[2] = promreg.Register(reg, histogram("queue_duration_seconds",
		"How long in seconds an item stays in workqueue before being requested."))
	w.workDuration, errs[3] = promreg.Register(reg, histogram("work_duration_seconds",
		"How long in seconds processing an item from workqueue takes."))
	w.unfinished, errs[4] = promreg.Register(reg, gauge("unfinished_work_seconds",
		"How many seconds of work has been done that is in progress and hasn't been observed by work_duration. "+
			"Large values indicate stuck threads."))
	w.longest, errs[5] = promreg.Register(reg, gauge("longest_running_processor_seconds",
		"How many seconds has the longest running processor for workqueue been running."))
	w.retries, errs[6] = promreg.Register(reg, counter("retries_total", "Total number of retries handled by workqueue"))
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	return w, nil
}

// NewDepthMetric implements workqueue.MetricsProvider.
func (w *Workqueue) NewDepthMetric(name string) workqueue.GaugeMetric {
	return w.depth.WithLabelValues(name)
}

// NewAddsMetric implements workqueue.MetricsProvider.
func (w *Workqueue) NewAddsMetric(name string) workqueue.CounterMetric {
	return w.adds.WithLabelValues(name)
}

// NewLatencyMetric implements workqueue.MetricsProvider.
func (w *Workqueue) NewLatencyMetric(name string) workqueue.HistogramMetric {
	return w.latency.WithLabelValues(name)
}

// NewWorkDurationMetric implements workqueue.MetricsProvider.
func (w *Workqueue) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	return w.workDuration.WithLabelValues(name)
}

// NewUnfinishedWorkSecondsMetric implements workqueue.MetricsProvider.
func (w *Workqueue) NewUnfinishedWorkSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return w.unfinished.WithLabelValues(name)
}

// NewLongestRunningProcessorSecondsMetric implements workqueue.MetricsProvider.
func (w *Workqueue) NewLongestRunningProcessorSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return w.longest.WithLabelValues(name)
}

// NewRetriesMetric implements workqueue.MetricsProvider.
func (w *Workqueue) NewRetriesMetric(name string) workqueue.CounterMetric {
	return w.retries.WithLabelValues(name)
}
