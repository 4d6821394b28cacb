package metrics

import (
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Attempt results, the values of the result label.
const (
	Scheduled     = "scheduled"
	Unschedulable = "unschedulable"
	Error         = "error"
)

// Metrics are the scheduler's metrics.
type Metrics struct {
	attempts         *prometheus.CounterVec
	e2eDuration      *prometheus.HistogramVec
	attemptDuration  *prometheus.HistogramVec
	extensionPoint   *prometheus.HistogramVec
	pluginDuration   *prometheus.HistogramVec
	pending          *prometheus.GaugeVec
	preemptAttempts  prometheus.Counter
	preemptVictims   prometheus.Histogram
	bindingsInFlight prometheus.Gauge
}

// New registers the metrics on reg.
func New(reg prometheus.Registerer) (*Metrics, error) {
	const ns = "scheduler"
	latency := prometheus.ExponentialBuckets(0.001, 2, 15)
	fine := prometheus.ExponentialBuckets(0.0001, 2, 12)
	m := &Metrics{
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: "schedule_attempts_total",
			Help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem."},
			[]string{"result", "profile"}),
		e2eDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "e2e_scheduling_duration_seconds",
			Help: "E2e scheduling latency in seconds (scheduling algorithm + binding).", Buckets: latency},
			[]string{"result", "profile"}),
		attemptDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "scheduling_attempt_duration_seconds",
			Help: "Scheduling attempt latency in seconds (scheduling algorithm + binding).", Buckets: latency},
			[]string{"result", "profile"}),
		extensionPoint: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "framework_extension_point_duration_seconds",
			Help: "Latency for running all plugins of a specific extension point.", Buckets: fine},
			[]string{"extension_point", "status", "profile"}),
		pluginDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: ns, Name: "plugin_execution_duration_seconds",
			Help: "Duration for running a plugin at a specific extension point (sampled).", Buckets: prometheus.ExponentialBuckets(0.00001, 1.5, 20)},
			[]string{"plugin", "extension_point", "status"}),
		pending: prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: ns, Name: "pending_pods",
			Help: "Number of pending pods, by the queue type: 'active', 'backoff' or 'unschedulable'."},
			[]string{"queue"}),
		preemptAttempts: prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: "preemption_attempts_total",
			Help: "Total preemption attempts in the cluster till now."}),
		preemptVictims: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Name: "preemption_victims",
			Help: "Number of selected preemption victims.", Buckets: prometheus.ExponentialBuckets(1, 2, 7)}),
		bindingsInFlight: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: ns, Name: "bindings_in_flight",
			Help: "Number of pods whose binding cycle is running."}),
	}
	var errs []error
	for _, c := range []prometheus.Collector{m.attempts, m.e2eDuration, m.attemptDuration, m.extensionPoint,
		m.pluginDuration, m.pending, m.preemptAttempts, m.preemptVictims, m.bindingsInFlight} {
		if err := reg.Register(c); err != nil {
			errs = append(errs, fmt.Errorf("scheduler metrics: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m.Pending(0, 0, 0)
	return m, nil
}

// NewForTest returns metrics on a private registry; it never fails.
func NewForTest() *Metrics {
	m, err := New(prometheus.NewRegistry())
	if err != nil {
		panic(err) // a fresh registry has no duplicates
	}
	return m
}

// Attempt records one scheduling attempt of a pod that entered the queue
// at first (for the end-to-end latency) and whose attempt began at start.
func (m *Metrics) Attempt(result, profile string, start, first time.Time, now time.Time) {
	m.attempts.WithLabelValues(result, profile).Inc()
	m.attemptDuration.WithLabelValues(result, profile).Observe(now.Sub(start).Seconds())
	if !first.IsZero() {
		m.e2eDuration.WithLabelValues(result, profile).Observe(now.Sub(first).Seconds())
	}
}

// ExtensionPoint records the duration of one extension point.
func (m *Metrics) ExtensionPoint(point, status, profile string, d time.Duration) {
	m.extensionPoint.WithLabelValues(point, status, profile).Observe(d.Seconds())
}

// Plugin records the duration of one plugin call.
func (m *Metrics) Plugin(plugin, point, status string, d time.Duration) {
	m.pluginDuration.WithLabelValues(plugin, point, status).Observe(d.Seconds())
}

// PluginObserver returns the observer of one plugin's successful calls at
// one extension point, resolved once: the filter and score loops call it
// for every node.
func (m *Metrics) PluginObserver(plugin, point string) prometheus.Observer {
	return m.pluginDuration.WithLabelValues(plugin, point, "Success")
}

// Pending sets the sizes of the three queues.
func (m *Metrics) Pending(active, backoff, unschedulable int) {
	m.pending.WithLabelValues("active").Set(float64(active))
	m.pending.WithLabelValues("backoff").Set(float64(backoff))
	m.pending.WithLabelValues("unschedulable").Set(float64(unschedulable))
}

// Preemption records one preemption attempt and its victims (0 when none
// were needed or found).
func (m *Metrics) Preemption(victims int) {
	m.preemptAttempts.Inc()
	if victims > 0 {
		m.preemptVictims.Observe(float64(victims))
	}
}

// BindingStarted and BindingDone track the binding cycles in flight.
func (m *Metrics) BindingStarted() { m.bindingsInFlight.Inc() }

// BindingDone ends one binding cycle.
func (m *Metrics) BindingDone() { m.bindingsInFlight.Dec() }
