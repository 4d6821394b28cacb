package defaultpreemption

import (
	"math"
	"time"
)

// selectCandidate picks the node to preempt on, as upstream orders them:
// the lowest priority of its most important victim, then the lowest sum
// of victims' priorities, then the fewest victims, then the latest start
// among its most important victims (evict what started last), then the
// first.
func (pl *Plugin) selectCandidate(cands []*candidate) *candidate {
	if len(cands) == 0 {
		return nil
	}
	rest := cands
	for _, score := range []func(*candidate) int64{
		func(c *candidate) int64 { return -int64(priority(c.victims[0])) },
		func(c *candidate) int64 {
			var sum int64
			for _, v := range c.victims {
				// Shift each priority up so that all are positive.
				sum += int64(priority(v)) + int64(math.MaxInt32) + 1
			}
			return -sum
		},
		func(c *candidate) int64 { return -int64(len(c.victims)) },
		func(c *candidate) int64 { return pl.earliestStart(c).UnixNano() },
	} {
		rest = best(rest, score)
		if len(rest) == 1 {
			break
		}
	}
	return rest[0]
}

// best keeps the candidates with the highest score, in order.
func best(cands []*candidate, score func(*candidate) int64) []*candidate {
	var out []*candidate
	top := int64(math.MinInt64)
	for _, c := range cands {
		switch s := score(c); {
		case s > top:
			top, out = s, []*candidate{c}
		case s == top:
			out = append(out, c)
		}
	}
	return out
}

// earliestStart is the earliest start time among c's victims of the
// highest priority.
func (pl *Plugin) earliestStart(c *candidate) time.Time {
	top := priority(c.victims[0])
	earliest := pl.startTime(c.victims[0])
	for _, v := range c.victims[1:] {
		switch p := priority(v); {
		case p == top:
			if t := pl.startTime(v); t.Before(earliest) {
				earliest = t
			}
		case p > top:
			top, earliest = p, pl.startTime(v)
		}
	}
	return earliest
}
