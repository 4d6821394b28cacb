package record

import (
	"hash/maphash"
	"slices"
	"time"
)

// aggregator counts the distinct messages of each group of similar events
// and says when the group has reached the point of being combined.
type aggregator struct {
	max      int
	interval time.Duration
	groups   *lru[groupKey, groupState]
	seed     maphash.Seed
}

type groupState struct {
	// messages are the hashes of the distinct messages seen (at most max
	// of them, so a slice), nil once combining.
	messages  []uint64
	combining bool
	last      time.Time
}

func newAggregator(maxEvents int, interval time.Duration, size int) *aggregator {
	return &aggregator{max: maxEvents, interval: interval, groups: newLRU[groupKey, groupState](size), seed: maphash.MakeSeed()}
}

// combine records a similar event with message msg seen at now in group k
// and reports whether it is to be combined. A group combines from its
// max-th distinct message on, until interval passes without an event.
func (a *aggregator) combine(k groupKey, msg string, now time.Time) bool {
	st, ok := a.groups.get(k)
	if !ok || now.Sub(st.last) > a.interval {
		st = groupState{}
	}
	st.last = now
	if !st.combining {
		if h := maphash.String(a.seed, msg); !slices.Contains(st.messages, h) {
			st.messages = append(st.messages, h)
		}
		if len(st.messages) >= a.max {
			st.combining, st.messages = true, nil
		}
	}
	a.groups.put(k, st)
	return st.combining
}
