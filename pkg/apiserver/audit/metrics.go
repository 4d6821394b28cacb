package audit

import (
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"
)

// Metrics are upstream's audit metrics.
type Metrics struct {
	events   prometheus.Counter
	errors   *prometheus.CounterVec
	levels   *prometheus.CounterVec
	rejected prometheus.Counter
}

// NewMetrics registers the metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		events: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "apiserver_audit_event_total",
			Help: "Counter of audit events generated and sent to the audit backend.",
		}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_audit_error_total",
			Help: "Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.",
		}, []string{"plugin"}),
		levels: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_audit_level_total",
			Help: "Counter of policy levels for audit events (1 per request).",
		}, []string{"level"}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "apiserver_audit_requests_rejected_total",
			Help: "Counter of apiserver requests rejected due to an error in audit logging backend.",
		}),
	}
	reg.MustRegister(m.events, m.errors, m.levels, m.rejected)
	return m
}

// PluginError counts and logs events a plugin failed to record.
func (m *Metrics) PluginError(lg *zap.Logger, plugin string, err error, events ...*auditv1.Event) {
	if m != nil {
		m.errors.WithLabelValues(plugin).Add(float64(len(events)))
	}
	ids := make([]string, 0, min(len(events), 10))
	for _, ev := range events[:min(len(events), 10)] {
		ids = append(ids, ev.AuditID+"/"+string(ev.Stage))
	}
	lg.Error("audit events lost", zap.String("plugin", plugin), zap.Int("events", len(events)), zap.Strings("first", ids), zap.Error(err))
}
