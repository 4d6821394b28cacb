package plugin

import (
	"context"
	"path"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
)

// callMetrics count the calls to the provider per method.
type callMetrics struct {
	calls    *prometheus.CounterVec
	errors   *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newCallMetrics(reg prometheus.Registerer) (*callMetrics, error) {
	m := &callMetrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cloudprovider_plugin_calls_total",
			Help: "Calls to the cloud provider plugin, by method.",
		}, []string{"method"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "cloudprovider_plugin_call_errors_total",
			Help: "Calls to the cloud provider plugin that failed, by method and gRPC code.",
		}, []string{"method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "cloudprovider_plugin_call_duration_seconds",
			Help:    "Latency of calls to the cloud provider plugin, by method.",
			Buckets: prometheus.ExponentialBuckets(0.0002, 2, 18),
		}, []string{"method"}),
	}
	for _, c := range []prometheus.Collector{m.calls, m.errors, m.duration} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// intercept records every unary call.
func (m *callMetrics) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	name := path.Base(method)
	start := time.Now()
	err := invoker(ctx, method, req, reply, cc, opts...)
	m.duration.WithLabelValues(name).Observe(time.Since(start).Seconds())
	m.calls.WithLabelValues(name).Inc()
	if err != nil {
		m.errors.WithLabelValues(name, status.Code(err).String()).Inc()
	}
	return err
}
