package informer

import (
	"context"
	"math/rand/v2"
	"time"
)

// backoff spaces out retries: the first failure after a success retries at
// once, later ones wait initial, 2*initial, ... up to max, each plus up to
// half again of random jitter.
type backoff struct {
	initial, max time.Duration
	next         time.Duration // wait before the next retry; 0 = at once
	failing      bool
}

// fail records a failure and returns how long to wait before retrying.
func (b *backoff) fail() time.Duration {
	if !b.failing {
		b.failing, b.next = true, b.initial
		return 0
	}
	d := b.next
	b.next = min(2*b.next, b.max)
	if d > 1 {
		d += rand.N(d / 2)
	}
	return d
}

// reset records a success.
func (b *backoff) reset() { b.failing = false }

// sleep waits d on clock, or until ctx ends; it reports whether ctx is
// still live.
func sleep(ctx context.Context, clock Clock, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}
