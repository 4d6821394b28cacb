package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"platform.io/client/leaderelection"

	"platform.io/platform/pkg/component/internal/promreg"
)

// LeaderElection reports whether this replica leads, by election name,
// and how often a renewal had to read the lock first.
type LeaderElection struct {
	status   *prometheus.GaugeVec
	slowpath *prometheus.CounterVec
}

var _ leaderelection.Metrics = (*LeaderElection)(nil)

// NewLeaderElection registers the election metrics on reg.
func NewLeaderElection(reg prometheus.Registerer) (*LeaderElection, error) {
	status, err := promreg.Register(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "leader_election_master_status",
		Help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
	}, []string{"name"}))
	if err != nil {
		return nil, err
	}
	slowpath, err := promreg.Register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "leader_election_slowpath_total",
		Help: "Total number of slow path exercised in renewing leader leases. 'name' is the string used to identify the lease.",
	}, []string{"name"}))
	if err != nil {
		return nil, err
	}
	return &LeaderElection{status: status, slowpath: slowpath}, nil
}

// LeaderOn implements leaderelection.Metrics.
func (m *LeaderElection) LeaderOn(name string) { m.status.WithLabelValues(name).Set(1) }

// LeaderOff implements leaderelection.Metrics.
func (m *LeaderElection) LeaderOff(name string) { m.status.WithLabelValues(name).Set(0) }

// SlowpathExercised implements leaderelection.Metrics.
func (m *LeaderElection) SlowpathExercised(name string) { m.slowpath.WithLabelValues(name).Inc() }
