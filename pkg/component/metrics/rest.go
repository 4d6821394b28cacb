package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"platform.io/client/rest"

	"platform.io/platform/pkg/component/internal/promreg"
)

// RESTClient reports the rest client's waits for its rate limiter and the
// writes refused because this replica no longer held its leader lock.
type RESTClient struct {
	wait      *prometheus.HistogramVec
	notLeader *prometheus.CounterVec
}

var (
	_ rest.Metrics      = (*RESTClient)(nil)
	_ rest.FenceMetrics = (*RESTClient)(nil)
)

// NewRESTClient registers the client metrics on reg.
func NewRESTClient(reg prometheus.Registerer) (*RESTClient, error) {
	wait, err := promreg.Register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "rest_client_rate_limiter_duration_seconds",
		Help:    "Client side rate limiter latency in seconds. Broken down by verb, and host.",
		Buckets: []float64{0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0},
	}, []string{"verb", "host"}))
	if err != nil {
		return nil, err
	}
	notLeader, err := promreg.Register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "rest_client_not_leader_refusals_total",
		Help: "Writes the API server refused (409 Conflict, cause NotLeader) because the leader lock they carried was no longer held by this replica. Broken down by verb.",
	}, []string{"verb"}))
	if err != nil {
		return nil, err
	}
	return &RESTClient{wait: wait, notLeader: notLeader}, nil
}

// IncNotLeader implements rest.FenceMetrics.
func (c *RESTClient) IncNotLeader(verb string) { c.notLeader.WithLabelValues(verb).Inc() }

// ObserveRateLimiterWait implements rest.Metrics.
func (c *RESTClient) ObserveRateLimiterWait(verb, host string, wait time.Duration) {
	c.wait.WithLabelValues(verb, host).Observe(wait.Seconds())
}
