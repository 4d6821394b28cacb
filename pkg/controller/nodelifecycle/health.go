package nodelifecycle

import (
	"slices"
	"time"

	coordinationv1 "platform.io/client/api/coordination/v1"
	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
)

// Reasons and messages of conditions the loop marks Unknown.
const (
	reasonStatusUnknown      = "NodeStatusUnknown"
	reasonStatusNeverUpdated = "NodeStatusNeverUpdated"
	messageStatusUnknown     = "The node agent stopped posting node status."
	messageNeverUpdated      = "The node agent never posted node status."
)

// markedConditions are the conditions marked Unknown on a silent node.
var markedConditions = []corev1.NodeConditionType{corev1.NodeReady, corev1.NodeMemoryPressure, corev1.NodeDiskPressure, corev1.NodePIDPressure}

// health is what the loop last saw of one node, on its own clock: when it
// last heard from the node (probe), and the heartbeats it heard.
type health struct {
	probe         time.Time
	readyBeat     time.Time
	readyChange   time.Time
	leaseRenew    time.Time
	lastReadyTrue bool
	// ready is the Ready status the last pass decided on.
	ready corev1.ConditionStatus
}

// observe updates h with the node's Ready heartbeat and its lease at now
// and returns the grace period that applies: a node that never reported
// Ready has the startup grace period, counted from its creation.
func (h *health) observe(node *corev1.Node, lease *coordinationv1.Lease, now time.Time, o *Options) time.Duration {
	ready := condition(node, corev1.NodeReady)
	grace := o.NodeMonitorGracePeriod
	if ready == nil {
		grace = o.NodeStartupGracePeriod
		if h.probe.IsZero() {
			h.probe = node.CreationTimestamp.Time
		}
	} else if h.probe.IsZero() || !ready.LastHeartbeatTime.Equal(h.readyBeat) || !ready.LastTransitionTime.Equal(h.readyChange) {
		h.probe, h.readyBeat, h.readyChange = now, ready.LastHeartbeatTime.Time, ready.LastTransitionTime.Time
	}
	if lease != nil && lease.Spec.RenewTime != nil && lease.Spec.RenewTime.After(h.leaseRenew) {
		h.probe, h.leaseRenew = now, lease.Spec.RenewTime.Time
	}
	return grace
}

// silent reports whether the node has not been heard from for grace.
func (h *health) silent(now time.Time, grace time.Duration) bool {
	return now.After(h.probe.Add(grace))
}

// markUnknown returns the node's conditions with Ready and the pressure
// conditions Unknown, and whether anything changed. Missing conditions are
// added as never updated.
func markUnknown(conds []corev1.NodeCondition, now time.Time) ([]corev1.NodeCondition, bool) {
	out := slices.Clone(conds)
	t := meta.NewTime(now.UTC().Truncate(time.Second))
	changed := false
	for _, typ := range markedConditions {
		i := slices.IndexFunc(out, func(c corev1.NodeCondition) bool { return c.Type == typ })
		if i < 0 {
			out = append(out, corev1.NodeCondition{Type: typ, Status: corev1.ConditionUnknown, Reason: reasonStatusNeverUpdated,
				Message: messageNeverUpdated, LastHeartbeatTime: t, LastTransitionTime: t})
			changed = true
			continue
		}
		if out[i].Status == corev1.ConditionUnknown {
			continue
		}
		out[i].Status, out[i].Reason, out[i].Message, out[i].LastTransitionTime = corev1.ConditionUnknown, reasonStatusUnknown, messageStatusUnknown, t
		changed = true
	}
	return out, changed
}

// condition returns the node's condition of type typ, or nil.
func condition(node *corev1.Node, typ corev1.NodeConditionType) *corev1.NodeCondition {
	for i := range node.Status.Conditions {
		if node.Status.Conditions[i].Type == typ {
			return &node.Status.Conditions[i]
		}
	}
	return nil
}
