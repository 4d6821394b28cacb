package rest

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/time/rate"
)

// Metrics receives the client's measurements. Implementations must be safe
// for concurrent use; they are called on the request's goroutine.
type Metrics interface {
	// ObserveRateLimiterWait is called once for every attempt of a request,
	// retries included, with how long it waited for a token (0 when one was
	// free), the verb and the server's host:port.
	ObserveRateLimiterWait(verb, host string, wait time.Duration)
}

// limiter is the token bucket of a Client, read through its Clock.
type limiter struct {
	bucket *rate.Limiter // nil when there is no limit
	clock  Clock
}

// newLimiter returns the bucket for qps and burst; a negative qps means no
// limit.
func newLimiter(qps float32, burst int, clock Clock) *limiter {
	l := &limiter{clock: clock}
	if qps > 0 {
		l.bucket = rate.NewLimiter(rate.Limit(qps), burst)
	}
	return l
}

// wait takes a token, waiting for one as long as ctx allows, and returns how
// long it waited. A request that gives up returns its token.
func (l *limiter) wait(ctx context.Context) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if l.bucket == nil {
		return 0, nil
	}
	now := l.clock.Now()
	r := l.bucket.ReserveN(now, 1)
	if !r.OK() {
		return 0, fmt.Errorf("rest: the rate limiter cannot grant a token (burst %d)", l.bucket.Burst())
	}
	d := r.DelayFrom(now)
	if err := sleep(ctx, l.clock, d); err != nil {
		r.CancelAt(l.clock.Now())
		return d, fmt.Errorf("rest: waiting for the client rate limiter: %w", err)
	}
	return d, nil
}
