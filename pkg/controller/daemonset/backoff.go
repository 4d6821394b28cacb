package daemonset

import (
	"sync"
	"time"
)

// Backoff of replacing a node's failed daemon pod, as upstream: the first
// replacement waits 1s after the failure is handled, each further one
// twice as long, up to 15 minutes; a node quiet for twice the maximum
// starts over.
const (
	failedPodBackoffInitial = time.Second
	failedPodBackoffMax     = 15 * time.Minute
)

// backoff tracks, per DaemonSet and node, how long to wait before the next
// failed pod there is replaced. Safe for concurrent use.
type backoff struct {
	now func() time.Time
	// mu guards entries.
	mu      sync.Mutex
	entries map[string]backoffEntry
}

type backoffEntry struct {
	delay time.Duration
	last  time.Time
}

func newBackoff(now func() time.Time) *backoff {
	return &backoff{now: now, entries: map[string]backoffEntry{}}
}

// wait returns the time left for key, and whether there is any.
func (b *backoff) wait(key string) (time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.entries[key]
	if !ok {
		return 0, false
	}
	left := e.last.Add(e.delay).Sub(b.now())
	return left, left > 0
}

// next records a replacement for key now and lengthens its backoff. It
// also forgets keys that have been quiet long enough to start over.
func (b *backoff) next(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	for k, e := range b.entries {
		if now.Sub(e.last) > 2*failedPodBackoffMax {
			delete(b.entries, k)
		}
	}
	e, ok := b.entries[key]
	switch {
	case !ok:
		e.delay = failedPodBackoffInitial
	default:
		e.delay = min(2*e.delay, failedPodBackoffMax)
	}
	e.last = now
	b.entries[key] = e
}
