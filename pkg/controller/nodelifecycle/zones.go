package nodelifecycle

import (
	"slices"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// LabelZone is the node label that names its zone.
const LabelZone = "topology.platform.io/zone"

// zoneState is a zone's health as upstream names it.
type zoneState string

const (
	stateInitial            zoneState = "Initial"
	stateNormal             zoneState = "Normal"
	statePartialDisruption  zoneState = "PartialDisruption"
	stateFullDisruption     zoneState = "FullDisruption"
	minUnhealthyForDisorder           = 2
)

// zoneOf is the zone key of a node: its zone label, "" for none.
func zoneOf(node *corev1.Node) string { return node.Labels[LabelZone] }

// computeZoneState classifies a zone by its nodes' Ready statuses: fully
// disrupted when none is ready, partially when more than two are not ready
// and they make at least the threshold fraction, normal otherwise.
func computeZoneState(ready []corev1.ConditionStatus, threshold float64) zoneState {
	readyN, notReady := 0, 0
	for _, s := range ready {
		if s == corev1.ConditionTrue {
			readyN++
		} else {
			notReady++
		}
	}
	switch {
	case readyN == 0 && notReady > 0:
		return stateFullDisruption
	case notReady > minUnhealthyForDisorder && float64(notReady)/float64(notReady+readyN) >= threshold:
		return statePartialDisruption
	default:
		return stateNormal
	}
}

// rateFor is the NoExecute tainting rate of a zone of size nodes in state:
// the normal rate when normal or fully disrupted (a whole zone down is
// most likely really down), the secondary rate when partially disrupted in
// a large zone, and none in a small one.
func (o *Options) rateFor(state zoneState, size int) float64 {
	if state == statePartialDisruption {
		if size > o.LargeClusterSizeThreshold {
			return o.SecondaryNodeEvictionRate
		}
		return 0
	}
	return o.NodeEvictionRate
}

// bucket is a token bucket of burst 1 on an injected clock.
type bucket struct {
	rate   float64
	tokens float64
	last   time.Time
}

func newBucket(rate float64, now time.Time) *bucket { return &bucket{rate: rate, tokens: 1, last: now} }

// refill adds the tokens earned since the last call.
func (b *bucket) refill(now time.Time) {
	if now.After(b.last) {
		b.tokens = min(1, b.tokens+b.rate*now.Sub(b.last).Seconds())
		b.last = now
	}
}

// take spends a token if one is there at now.
func (b *bucket) take(now time.Time) bool {
	b.refill(now)
	if b.rate <= 0 || b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// setRate changes the rate from now on.
func (b *bucket) setRate(rate float64, now time.Time) {
	b.refill(now)
	if b.rate <= 0 && rate > 0 {
		b.tokens = 1
	}
	b.rate = rate
}

// zoneQueue is a zone's FIFO of nodes waiting for a NoExecute taint, and
// the bucket that paces them.
type zoneQueue struct {
	bucket *bucket
	nodes  []string
}

func (q *zoneQueue) add(name string) {
	if !slices.Contains(q.nodes, name) {
		q.nodes = append(q.nodes, name)
	}
}

func (q *zoneQueue) remove(name string) {
	q.nodes = slices.DeleteFunc(q.nodes, func(n string) bool { return n == name })
}
