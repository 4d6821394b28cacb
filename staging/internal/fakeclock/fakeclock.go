package fakeclock

import (
	"slices"
	"sync"
	"time"
)

// Clock is a manually stepped clock. It is safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*Timer
}

// New returns a clock reading start.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer returns a timer that fires once the clock is stepped d on; a
// non-positive d fires at once.
func (c *Clock) NewTimer(d time.Duration) *Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &Timer{c: c, at: c.now.Add(d), ch: make(chan time.Time, 1)}
	if d <= 0 {
		t.ch <- c.now
		return t
	}
	c.timers = append(c.timers, t)
	return t
}

// Step moves time on by d and fires the timers that came due.
func (c *Clock) Step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	keep := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			keep = append(keep, t)
			continue
		}
		t.ch <- c.now
	}
	c.timers = keep
}

// Pending returns how many timers have neither fired nor been stopped.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Timer is a one-shot timer of a Clock.
type Timer struct {
	c  *Clock
	at time.Time
	ch chan time.Time
}

// C delivers the fake time once the timer fires.
func (t *Timer) C() <-chan time.Time { return t.ch }

// Stop keeps the timer from firing; it reports whether it was pending.
func (t *Timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if i := slices.Index(t.c.timers, t); i >= 0 {
		t.c.timers = slices.Delete(t.c.timers, i, i+1)
		return true
	}
	return false
}
