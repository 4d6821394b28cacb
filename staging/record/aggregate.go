package record

import "time"

// aggregator counts the distinct messages of each group of similar events
// and says when the group has reached the point of being combined.
type aggregator struct {
	max      int
	interval time.Duration
	groups   *lru[groupKey, groupState]
}

type groupState struct {
	messages  map[string]struct{} // nil once combining
	combining bool
	last      time.Time
}

func newAggregator(maxEvents int, interval time.Duration, size int) *aggregator {
	return &aggregator{max: maxEvents, interval: interval, groups: newLRU[groupKey, groupState](size)}
}

// combine records a similar event with message msg seen at now in group k
// and reports whether it is to be combined. A group combines from its
// max-th distinct message on, until interval passes without an event.
func (a *aggregator) combine(k groupKey, msg string, now time.Time) bool {
	st, ok := a.groups.get(k)
	if !ok || now.Sub(st.last) > a.interval {
		st = groupState{messages: map[string]struct{}{}}
	}
	st.last = now
	if !st.combining {
		st.messages[msg] = struct{}{}
		if len(st.messages) >= a.max {
			st.combining, st.messages = true, nil
		}
	}
	a.groups.put(k, st)
	return st.combining
}
