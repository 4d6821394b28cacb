package leaderelection

import (
	"context"
	"errors"
	"time"
)

// Clock is the elector's source of time. Every wait and every deadline of
// the election is measured on it, so tests can drive it.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTimer returns a timer that fires once after d; a non-positive d
	// fires at once.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer made by a Clock.
type Timer interface {
	// C delivers the time once the timer fires.
	C() <-chan time.Time
	// Stop keeps the timer from firing; it reports whether it was pending.
	Stop() bool
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// NewTimer wraps time.NewTimer.
func (RealClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time { return r.t.C }
func (r realTimer) Stop() bool          { return r.t.Stop() }

// sleep waits d on c; it returns false, early, when ctx is done first.
func sleep(ctx context.Context, c Clock, d time.Duration) bool {
	if ctx.Err() != nil {
		return false
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return true
	}
}

// errDeadline is the cause of a context that withDeadline ended.
var errDeadline = errors.New("leaderelection: deadline reached")

// withDeadline is context.WithDeadline on c: the context is cancelled, with
// cause errDeadline, when c reaches deadline. The cancel func stops the
// timer before it returns.
func withDeadline(parent context.Context, c Clock, deadline time.Time) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	t := c.NewTimer(deadline.Sub(c.Now()))
	go func() {
		select {
		case <-t.C():
			cancel(errDeadline)
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		t.Stop()
		cancel(context.Canceled)
	}
}
