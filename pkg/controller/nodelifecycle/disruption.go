package nodelifecycle

import (
	"context"
	"maps"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
)

// handleDisruption updates the zones' states from their nodes' Ready
// statuses and sets each zone's tainting rate, as upstream does: a zone's
// rate follows its state; when every zone is fully disrupted the loop
// assumes its own view is broken, removes the NoExecute taints of all
// nodes and taints nothing; when that ends, every node is given a fresh
// grace period. It returns true while every zone is fully disrupted.
func (c *Controller) handleDisruption(ctx context.Context, zones map[string][]corev1.ConditionStatus, nodes []*corev1.Node, now time.Time) bool {
	states := make(map[string]zoneState, len(zones))
	allNow := len(zones) > 0
	for z, ready := range zones {
		states[z] = computeZoneState(ready, c.opts.UnhealthyZoneThreshold)
		allNow = allNow && states[z] == stateFullDisruption
	}
	c.mu.Lock()
	allBefore := len(c.zoneStates) > 0
	for z := range c.zoneStates {
		if _, ok := zones[z]; !ok {
			delete(c.zoneStates, z)
			delete(c.queues, z)
		}
	}
	for _, s := range c.zoneStates {
		allBefore = allBefore && s == stateFullDisruption
	}
	for z := range zones {
		if _, ok := c.queues[z]; !ok {
			c.queues[z] = &zoneQueue{bucket: newBucket(c.opts.rateFor(states[z], len(zones[z])), now)}
			c.zoneStates[z] = stateInitial
		}
	}
	switch {
	case allNow:
		for z, q := range c.queues {
			q.bucket.setRate(0, now)
			c.zoneStates[z] = stateFullDisruption
		}
	default:
		if allBefore {
			for _, h := range c.health {
				h.probe = now
			}
		}
		for z, s := range states {
			if allBefore || c.zoneStates[z] != s {
				c.queues[z].bucket.setRate(c.opts.rateFor(s, len(zones[z])), now)
				c.zoneStates[z] = s
			}
		}
	}
	c.mu.Unlock()
	if allNow && !allBefore {
		c.lg.Warn("Every node is not ready; stopping evictions until one is", zap.Int("zones", len(zones)))
	}
	if allNow {
		for _, node := range nodes {
			if noExecuteKey(node) == "" {
				continue
			}
			if err := c.w.updateTaints(ctx, node.Name, func(t []corev1.Taint) ([]corev1.Taint, bool) { return withNoExecute(t, "", now) }); err != nil {
				c.lg.Info("Remove NoExecute taint, will retry", zap.String("node", node.Name), zap.Error(err))
			}
		}
	}
	return allNow
}

// ZoneStates returns the zones' states as of the last monitor pass.
func (c *Controller) ZoneStates() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]string, len(c.zoneStates))
	for z, s := range maps.All(c.zoneStates) {
		out[z] = string(s)
	}
	return out
}
