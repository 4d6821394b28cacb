package generic

import (
	"errors"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are upstream's per-webhook metrics. Both plugins share them.
type Metrics struct {
	duration  *prometheus.HistogramVec
	rejection *prometheus.CounterVec
	requests  *prometheus.CounterVec
}

// The error_type values of apiserver_admission_webhook_rejection_count.
const (
	RejectionCallingWebhook = "calling_webhook_error"
	RejectionInternal       = "apiserver_internal_error"
	RejectionNoError        = "no_error"
)

// The type label: the step the webhook runs in.
const (
	TypeAdmit    = "admit"
	TypeValidate = "validating"
)

// NewMetrics registers the metrics with reg, or reuses them when the other
// plugin registered them first.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "apiserver_admission_webhook_admission_duration_seconds",
			Help:    "Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
			Buckets: []float64{0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25},
		}, []string{"name", "type", "operation", "rejected"}),
		rejection: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_admission_webhook_rejection_count",
			Help: "Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
		}, []string{"name", "type", "operation", "error_type", "rejection_code"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_admission_webhook_request_total",
			Help: "Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
		}, []string{"name", "type", "operation", "code", "rejected"}),
	}
	if reg == nil {
		return m
	}
	m.duration = register(reg, m.duration)
	m.rejection = register(reg, m.rejection)
	m.requests = register(reg, m.requests)
	return m
}

func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
		panic(err)
	}
	return c
}

func boundCode(code int) string {
	if code > 600 {
		code = 600
	}
	return strconv.Itoa(code)
}

// observe records one call: its duration, the webhook's HTTP code (0 when
// it did not answer) and whether it refused the request.
func (m *Metrics) observe(name, typ, op string, d time.Duration, code int, rejected bool) {
	r := strconv.FormatBool(rejected)
	m.duration.WithLabelValues(name, typ, op, r).Observe(d.Seconds())
	m.requests.WithLabelValues(name, typ, op, boundCode(code), r).Inc()
}

// rejected records a refusal of the request by a webhook or because of it.
func (m *Metrics) rejected(name, typ, op, errorType string, code int) {
	m.rejection.WithLabelValues(name, typ, op, errorType, boundCode(code)).Inc()
}
