package leaderelection

import (
	"context"
	"errors"
	"fmt"
	"time"

	"platform.io/client/rest"
)

// Defaults for the zero durations of a Config, as upstream's flags have
// them.
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
)

// JitterFactor is how much longer than RetryPeriod the renew deadline must
// be, as upstream requires, so a leader gets more than one try per term.
const JitterFactor = 1.2

// Callbacks are the elector's hooks into the daemon.
type Callbacks struct {
	// OnStartedLeading runs in its own goroutine when this candidate
	// starts leading; ctx is cancelled when it stops. Required.
	OnStartedLeading func(ctx context.Context)
	// OnStoppedLeading runs once after the leading context is cancelled,
	// before Run returns; never when this candidate did not lead. Required.
	OnStoppedLeading func()
	// OnNewLeader, when set, is told the identity of each new holder this
	// candidate observes, itself included. Calls come one at a time, in
	// order, from a goroutine of their own; when holders change faster
	// than it returns, it sees only the latest.
	OnNewLeader func(identity string)
}

// Config is one candidate's election. The zero durations mean their
// defaults.
type Config struct {
	// Lock is the object competed for; its Identity is this candidate.
	Lock Lock
	// LeaseDuration is how long the record must stay unchanged, as seen
	// by a candidate's own clock, before that candidate takes the lock.
	LeaseDuration time.Duration
	// RenewDeadline is how long a leader keeps leading after its last
	// successful renewal was sent.
	RenewDeadline time.Duration
	// RetryPeriod is the wait between attempts to acquire or renew; a
	// leader starts a renewal every RetryPeriod, counted from the start of
	// the one before.
	RetryPeriod time.Duration
	// AttemptTimeout bounds each attempt to acquire, renew or release
	// (every lock call it makes), so that one request hanging on a sick
	// server cannot eat the term and the next attempt lands in time; 0
	// means DefaultAttemptTimeout of RenewDeadline and RetryPeriod. It
	// must not exceed RenewDeadline.
	AttemptTimeout time.Duration
	Callbacks      Callbacks
	// ReleaseOnCancel makes a leader whose Run context is cancelled clear
	// the record, so a successor takes over at its next attempt.
	ReleaseOnCancel bool
	// Name names the election in metrics.
	Name string
	// Clock defaults to the wall clock.
	Clock Clock
	// Metrics, when set, is told of leadership changes.
	Metrics Metrics
	// OnError, when set, is told of every failed read or write of the lock.
	OnError func(error)
	// Fence, when set and the lock has a Lease, is set to this leader's
	// LockRef when it starts leading, so that a work client made with
	// rest.Client.WithFence names the lock with every write. It is never
	// cleared: writes still in flight after the term ended carry the old
	// term and are refused by the API server, rather than sent unfenced.
	// The lock's own client must not use this Fence.
	Fence *rest.Fence
}

// DefaultAttemptTimeout is the longer of retryPeriod and a third of
// renewDeadline. A renewal that hangs from the first retry period of a
// term is given up at retryPeriod + renewDeadline/3, and the next one
// starts then (a retry period has passed), with 2*renewDeadline/3 -
// retryPeriod of the term left: at least a third of it when renewDeadline
// is three retry periods or more. With the defaults, 10 s and 2 s, a hang
// from 2 s is cut at 5.3 s and retried at once, and again at 8.7 s. Never
// shorter than a retry period, so a slow server that answers within one
// is not cut off. Upstream bounds a request by the whole renew deadline
// instead, so one request hanging that long loses the lease.
func DefaultAttemptTimeout(renewDeadline, retryPeriod time.Duration) time.Duration {
	return max(retryPeriod, renewDeadline/3)
}

// withDefaults fills in the zero fields.
func (c Config) withDefaults() Config {
	if c.LeaseDuration == 0 {
		c.LeaseDuration = DefaultLeaseDuration
	}
	if c.RenewDeadline == 0 {
		c.RenewDeadline = DefaultRenewDeadline
	}
	if c.RetryPeriod == 0 {
		c.RetryPeriod = DefaultRetryPeriod
	}
	if c.AttemptTimeout == 0 {
		c.AttemptTimeout = DefaultAttemptTimeout(c.RenewDeadline, c.RetryPeriod)
	}
	if c.Clock == nil {
		c.Clock = RealClock{}
	}
	if c.Metrics == nil {
		c.Metrics = noMetrics{}
	}
	return c
}

// validate checks a Config with its defaults filled in.
func (c Config) validate() error {
	var errs []error
	if c.LeaseDuration < 0 || c.RenewDeadline < 0 || c.RetryPeriod < 0 || c.AttemptTimeout < 0 {
		errs = append(errs, fmt.Errorf("durations must be positive (lease %v, renew deadline %v, retry period %v, attempt timeout %v)",
			c.LeaseDuration, c.RenewDeadline, c.RetryPeriod, c.AttemptTimeout))
	}
	if c.AttemptTimeout > c.RenewDeadline {
		errs = append(errs, fmt.Errorf("attempt timeout %v must not exceed renew deadline %v", c.AttemptTimeout, c.RenewDeadline))
	}
	if c.LeaseDuration <= c.RenewDeadline {
		errs = append(errs, fmt.Errorf("lease duration %v must be greater than renew deadline %v", c.LeaseDuration, c.RenewDeadline))
	}
	if float64(c.RenewDeadline) <= JitterFactor*float64(c.RetryPeriod) {
		errs = append(errs, fmt.Errorf("renew deadline %v must be greater than %v times retry period %v",
			c.RenewDeadline, JitterFactor, c.RetryPeriod))
	}
	if c.Lock == nil {
		errs = append(errs, errors.New("lock is required"))
	} else if c.Lock.Identity() == "" {
		errs = append(errs, errors.New("lock identity is empty"))
	}
	if c.Callbacks.OnStartedLeading == nil {
		errs = append(errs, errors.New("OnStartedLeading callback is required"))
	}
	if c.Callbacks.OnStoppedLeading == nil {
		errs = append(errs, errors.New("OnStoppedLeading callback is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("leaderelection: invalid config: %w", err)
	}
	return nil
}
