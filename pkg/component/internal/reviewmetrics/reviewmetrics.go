// Package reviewmetrics counts and times the reviews the delegated
// authenticator and authorizer send to the API server, by HTTP code.
package reviewmetrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"platform.io/platform/pkg/component/internal/promreg"
)

// Metrics are the request counter and latency histogram of one kind of
// review.
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

// New registers on reg (nothing when nil) apiserver_delegated_<kind>_request_total
// and apiserver_delegated_<kind>_request_duration_seconds, both labelled by
// code, sharing those reg already holds.
func New(reg prometheus.Registerer, kind string) (*Metrics, error) {
	requests, err := promreg.Register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "apiserver_delegated_" + kind + "_request_total",
		Help: "Number of HTTP requests partitioned by status code.",
	}, []string{"code"}))
	if err != nil {
		return nil, err
	}
	latency, err := promreg.Register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "apiserver_delegated_" + kind + "_request_duration_seconds",
		Help:    "Request latency in seconds. Broken down by status code.",
		Buckets: []float64{0.25, 0.5, 0.7, 1, 1.5, 3, 5, 10},
	}, []string{"code"}))
	if err != nil {
		return nil, err
	}
	return &Metrics{requests: requests, latency: latency}, nil
}

// Observe counts one request answered with code that started at start.
func (m *Metrics) Observe(code string, start time.Time) {
	m.requests.WithLabelValues(code).Inc()
	m.latency.WithLabelValues(code).Observe(time.Since(start).Seconds())
}
