package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"platform.io/platform/pkg/apiserver/endpoints"
)

// requestMetrics counts and times resource requests by verb, group,
// resource, subresource and code.
type requestMetrics struct {
	total    *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newRequestMetrics(reg prometheus.Registerer) *requestMetrics {
	labels := []string{"verb", "group", "version", "resource", "subresource", "code"}
	m := &requestMetrics{
		total: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_request_total",
			Help: "Resource requests, by verb, group, version, resource, subresource and HTTP code.",
		}, labels),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "apiserver_request_duration_seconds",
			Help:    "Latency of resource requests, by verb, group, version, resource, subresource and HTTP code.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, labels),
	}
	reg.MustRegister(m.total, m.duration)
	return m
}

// statusRecorder remembers the code a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Flush lets streaming handlers flush through the recorder.
func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// withRequestMetrics wraps h, recording every resource request.
func (m *requestMetrics) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		info := endpoints.RequestInfoFor(r)
		verb := info.Verb
		if !info.IsResourceRequest {
			verb = "discovery"
		}
		l := []string{verb, info.APIGroup, info.APIVersion, info.Resource, info.Subresource, strconv.Itoa(rec.code)}
		m.total.WithLabelValues(l...).Inc()
		m.duration.WithLabelValues(l...).Observe(time.Since(start).Seconds())
	})
}
