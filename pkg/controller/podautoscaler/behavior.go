package podautoscaler

import (
	"math"
	"sync"
	"time"

	autoscalingv2 "platform.io/client/api/autoscaling/v2"
)

// Condition reasons and messages of the normalization step, as upstream.
const (
	reasonScaleUpStabilized   = "ScaleUpStabilized"
	reasonScaleDownStabilized = "ScaleDownStabilized"
	reasonReadyForNewScale    = "ReadyForNewScale"
	reasonScaleUpLimit        = "ScaleUpLimit"
	reasonScaleDownLimit      = "ScaleDownLimit"
	reasonTooManyReplicas     = "TooManyReplicas"
	reasonTooFewReplicas      = "TooFewReplicas"
	reasonDesiredWithinRange  = "DesiredWithinRange"
)

// Rules are one autoscaler's effective behavior: both directions filled in.
type Rules struct {
	Up, Down *autoscalingv2.HPAScalingRules
}

// timed is a value stamped with when it was recorded.
type timed struct {
	value int32
	at    time.Time
}

// History is the per-autoscaler memory the behavior rules need: recent
// recommendations (for stabilization) and recent scale changes (for rate
// policies). It is safe for concurrent use; keys are namespace/name.
type History struct {
	Now func() time.Time

	mu sync.Mutex
	// recommendations, ups and downs are guarded by mu.
	recommendations map[string][]timed
	ups, downs      map[string][]timed
}

// NewHistory returns an empty history reading the time from now.
func NewHistory(now func() time.Time) *History {
	return &History{Now: now, recommendations: map[string][]timed{}, ups: map[string][]timed{}, downs: map[string][]timed{}}
}

// Forget drops what is known of key (its autoscaler is gone).
func (h *History) Forget(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.recommendations, key)
	delete(h.ups, key)
	delete(h.downs, key)
}

// Decision is the normalized replica count with the conditions it implies.
type Decision struct {
	Replicas int32
	// StabilizedReason/Message describe AbleToScale (True).
	StabilizedReason, StabilizedMessage string
	// Limited says whether ScalingLimited is True; LimitReason/Message describe it.
	Limited                   bool
	LimitReason, LimitMessage string
}

// Normalize turns the metrics' recommendation into the count to set:
// stabilized over the window of the direction (the lowest recent
// recommendation when going up, the highest when going down), then bounded
// by the rate policies and min/max. It records the recommendation.
func (h *History) Normalize(key string, r Rules, minReplicas, maxReplicas, current, desired int32) Decision {
	stable, reason, msg := h.stabilize(key, r, current, desired)
	d := Decision{StabilizedReason: reasonReadyForNewScale, StabilizedMessage: "recommended size matches current size"}
	if stable != desired {
		d.StabilizedReason, d.StabilizedMessage = reason, msg
	}
	d.Replicas, d.LimitReason, d.LimitMessage = h.limit(key, r, minReplicas, maxReplicas, current, stable)
	d.Limited = d.Replicas != stable
	return d
}

func (h *History) stabilize(key string, r Rules, current, desired int32) (int32, string, string) {
	now := h.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	up, down := *r.Up.StabilizationWindowSeconds, *r.Down.StabilizationWindowSeconds
	window, better := down, func(a, b int32) int32 { return max(a, b) }
	reason, msg := reasonScaleDownStabilized, "recent recommendations were higher than current one, applying the highest recent recommendation"
	if desired >= current {
		window, better = up, func(a, b int32) int32 { return min(a, b) }
		reason, msg = reasonScaleUpStabilized, "recent recommendations were lower than current one, applying the lowest recent recommendation"
	}
	cutoff := now.Add(-seconds(window))
	obsolete := now.Add(-seconds(max(up, down)))
	rec := desired
	kept := h.recommendations[key][:0]
	for _, t := range h.recommendations[key] {
		if t.at.After(cutoff) {
			rec = better(t.value, rec)
		}
		if !t.at.Before(obsolete) {
			kept = append(kept, t)
		}
	}
	h.recommendations[key] = append(kept, timed{desired, now})
	return rec, reason, msg
}

// limit bounds desired by the rate policies and by min/max.
func (h *History) limit(key string, r Rules, minReplicas, maxReplicas, current, desired int32) (int32, string, string) {
	now := h.Now()
	h.mu.Lock()
	ups, downs := h.ups[key], h.downs[key]
	h.mu.Unlock()
	switch {
	case desired > current:
		ceiling := max(scaleUpLimit(now, current, ups, downs, r.Up), current)
		reason, msg := reasonTooManyReplicas, "the desired replica count is more than the maximum replica count"
		if maxReplicas > ceiling {
			maxReplicas = ceiling
			reason, msg = reasonScaleUpLimit, "the desired replica count is increasing faster than the maximum scale rate"
		}
		if desired > maxReplicas {
			return maxReplicas, reason, msg
		}
	case desired < current:
		floor := min(scaleDownLimit(now, current, ups, downs, r.Down), current)
		reason, msg := reasonTooFewReplicas, "the desired replica count is less than the minimum replica count"
		if minReplicas < floor {
			minReplicas = floor
			reason, msg = reasonScaleDownLimit, "the desired replica count is decreasing faster than the maximum scale rate"
		}
		if desired < minReplicas {
			return minReplicas, reason, msg
		}
	}
	return desired, reasonDesiredWithinRange, "the desired count is within the acceptable range"
}

// Record notes a rescale from prev to next, for the rate policies; events
// older than the longest policy period of their direction are dropped.
func (h *History) Record(key string, r Rules, prev, next int32) {
	now := h.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	events, rules := h.ups, r.Up
	change := next - prev
	if change < 0 {
		events, rules, change = h.downs, r.Down, -change
	}
	var longest int32
	for _, p := range rules.Policies {
		longest = max(longest, p.PeriodSeconds)
	}
	cutoff := now.Add(-seconds(longest))
	kept := events[key][:0]
	for _, e := range events[key] {
		if e.at.After(cutoff) {
			kept = append(kept, e)
		}
	}
	events[key] = append(kept, timed{change, now})
}

// changedWithin sums the changes of events inside the last period seconds.
func changedWithin(now time.Time, period int32, events []timed) int32 {
	cutoff := now.Add(-seconds(period))
	var sum int32
	for _, e := range events {
		if e.at.After(cutoff) {
			sum += e.value
		}
	}
	return sum
}

// scaleUpLimit is the highest count the scale-up policies allow now: each
// policy allows its value (pods, or percent of the count at the start of
// its period) on top of the count at the start of its period.
func scaleUpLimit(now time.Time, current int32, ups, downs []timed, rules *autoscalingv2.HPAScalingRules) int32 {
	if *rules.SelectPolicy == autoscalingv2.DisabledPolicySelect {
		return current
	}
	pick, result := func(a, b int32) int32 { return max(a, b) }, int32(math.MinInt32)
	if *rules.SelectPolicy == autoscalingv2.MinChangePolicySelect {
		pick, result = func(a, b int32) int32 { return min(a, b) }, math.MaxInt32
	}
	for _, p := range rules.Policies {
		start := current - changedWithin(now, p.PeriodSeconds, ups) + changedWithin(now, p.PeriodSeconds, downs)
		proposed := start + p.Value
		if p.Type == autoscalingv2.PercentScalingPolicy {
			proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
		}
		result = pick(result, proposed)
	}
	return result
}

// scaleDownLimit is the lowest count the scale-down policies allow now.
func scaleDownLimit(now time.Time, current int32, ups, downs []timed, rules *autoscalingv2.HPAScalingRules) int32 {
	if *rules.SelectPolicy == autoscalingv2.DisabledPolicySelect {
		return current
	}
	pick, result := func(a, b int32) int32 { return min(a, b) }, int32(math.MaxInt32)
	if *rules.SelectPolicy == autoscalingv2.MinChangePolicySelect {
		pick, result = func(a, b int32) int32 { return max(a, b) }, math.MinInt32
	}
	for _, p := range rules.Policies {
		start := current - changedWithin(now, p.PeriodSeconds, ups) + changedWithin(now, p.PeriodSeconds, downs)
		proposed := start - p.Value
		if p.Type == autoscalingv2.PercentScalingPolicy {
			proposed = int32(float64(start) * (1 - float64(p.Value)/100))
		}
		result = pick(result, proposed)
	}
	return result
}

func seconds(s int32) time.Duration { return time.Duration(s) * time.Second }
