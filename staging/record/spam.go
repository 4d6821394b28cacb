package record

import "time"

// spamFilter keeps one token bucket per (source, object): burst tokens, one
// more every refill, none beyond burst. A forgotten key starts full again.
type spamFilter struct {
	burst   float64
	refill  time.Duration
	buckets *lru[spamKey, bucket]
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newSpamFilter(burst int, refill time.Duration, size int) *spamFilter {
	return &spamFilter{burst: float64(burst), refill: refill, buckets: newLRU[spamKey, bucket](size)}
}

// allow takes a token from k's bucket at now, and reports whether there was
// one.
func (f *spamFilter) allow(k spamKey, now time.Time) bool {
	b, ok := f.buckets.get(k)
	if !ok {
		b = bucket{tokens: f.burst, last: now}
	}
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(f.burst, b.tokens+float64(elapsed)/float64(f.refill))
		b.last = now
	}
	allowed := b.tokens >= 1
	if allowed {
		b.tokens--
	}
	f.buckets.put(k, b)
	return allowed
}
