package leaderelection

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// LeaderElector is one candidate. Its methods are safe for concurrent use;
// Run runs the election, at most once.
type LeaderElector struct {
	cfg  Config
	id   string
	ran  atomic.Bool
	note *notifier

	mu sync.Mutex
	// observed is the record last read or written, observedRaw its bytes
	// (nil after a write of ours), observedTime when this candidate saw it
	// change.
	observed     LeaderElectionRecord
	observedRaw  []byte
	observedTime time.Time
	// leading is true from acquiring until the leading context is
	// cancelled; active until the leader part of Run has ended.
	leading, active bool
	// renewedAt is when this candidate sent its last successful write.
	renewedAt time.Time
}

// New checks cfg, fills in its defaults and returns the candidate.
func New(cfg Config) (*LeaderElector, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &LeaderElector{cfg: cfg, id: cfg.Lock.Identity()}, nil
}

// Run competes for the lock until ctx is done or this candidate has led
// and stopped. When it acquires the lock it runs OnStartedLeading in a new
// goroutine and renews every RetryPeriod. It stops leading when ctx is
// done or when RenewDeadline passes without a successful renewal: the
// leading context is cancelled, the lock released if ReleaseOnCancel says
// so (ctx done only), OnStoppedLeading called, and Run returns.
func (le *LeaderElector) Run(ctx context.Context) {
	if le.ran.Swap(true) {
		return
	}
	le.note = startNotifier(le.cfg.Callbacks.OnNewLeader)
	defer le.note.stop()
	if le.acquire(ctx) {
		le.lead(ctx)
	}
}

// IsLeader reports whether this candidate leads now: it acquired the lock
// and its term, RenewDeadline from its last renewal, has not ended.
func (le *LeaderElector) IsLeader() bool {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.leading && le.cfg.Clock.Now().Before(le.renewedAt.Add(le.cfg.RenewDeadline))
}

// GetLeader returns the holder of the record last read or written: "" for
// none, UnknownLeader when a two-object lock's objects disagree.
func (le *LeaderElector) GetLeader() string {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.observed.HolderIdentity
}

// acquire tries at once and then about every RetryPeriod until it holds the
// lock (true) or ctx is done (false).
func (le *LeaderElector) acquire(ctx context.Context) bool {
	for {
		actx, cancel := withDeadline(ctx, le.cfg.Clock, le.cfg.Clock.Now().Add(le.cfg.AttemptTimeout))
		ok := le.tryAcquireOrRenew(actx)
		cancel()
		if ok {
			return true
		}
		if !sleep(ctx, le.cfg.Clock, le.acquireWait()) {
			return false
		}
	}
}

// acquireWait is RetryPeriod less up to a fifth, at random, so candidates
// drift apart yet a free lock is tried within one RetryPeriod.
func (le *LeaderElector) acquireWait() time.Duration {
	p := le.cfg.RetryPeriod
	return p - time.Duration(rand.Float64()*float64(p)/5)
}

// lead runs the leader's part of Run.
func (le *LeaderElector) lead(ctx context.Context) {
	leadCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	le.setState(true, true)
	le.setFence()
	le.cfg.Metrics.LeaderOn(le.cfg.Name)
	le.cfg.Lock.RecordEvent("became leader")
	guarded := make(chan struct{})
	go func() {
		defer close(guarded)
		le.guardTerm(leadCtx, cancel)
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		le.cfg.Callbacks.OnStartedLeading(leadCtx)
	}()
	lost := le.renew(ctx)
	le.setState(false, true)
	cancel()
	<-guarded
	if !lost && le.cfg.ReleaseOnCancel {
		le.release(ctx, done)
	}
	le.cfg.Lock.RecordEvent("stopped leading")
	le.cfg.Metrics.LeaderOff(le.cfg.Name)
	le.cfg.Callbacks.OnStoppedLeading()
	le.setState(false, false)
}

// renew starts a renewal every RetryPeriod, counted from the start of the
// one before, each bounded by AttemptTimeout and the end of the term: an
// attempt that hung until its timeout is followed at once by the next. It
// returns false when ctx is done, true when the term ended without a
// renewal or the record names another holder (the lock was taken or
// rewritten behind this leader's back).
func (le *LeaderElector) renew(ctx context.Context) bool {
	clock := le.cfg.Clock
	started := clock.Now()
	for {
		end := le.termEnd()
		next := started.Add(le.cfg.RetryPeriod)
		if end.Before(next) {
			next = end
		}
		if !sleep(ctx, clock, next.Sub(clock.Now())) {
			return false
		}
		started = clock.Now()
		if !started.Before(end) {
			return true
		}
		// A renewal sent is seen through (to its timeout at most) even
		// when ctx is done meanwhile: aborting it would leave its outcome
		// unknown and the release that follows a version behind.
		actx, cancel := withDeadline(context.WithoutCancel(ctx), clock, le.attemptEnd(started, end))
		le.tryAcquireOrRenew(actx)
		cancel()
		switch {
		case le.GetLeader() != le.id || !clock.Now().Before(le.termEnd()):
			return true
		case ctx.Err() != nil:
			return false
		}
	}
}

// attemptEnd is the deadline of an attempt started at start in a term that
// ends at end: AttemptTimeout later, or the term's end if sooner.
func (le *LeaderElector) attemptEnd(start, end time.Time) time.Time {
	if d := start.Add(le.cfg.AttemptTimeout); d.Before(end) {
		return d
	}
	return end
}

// guardTerm cancels the leading context when the term ends, even while
// the renew loop is stuck in a lock call that ignores its context. It
// returns when leadCtx is done.
func (le *LeaderElector) guardTerm(leadCtx context.Context, cancel context.CancelFunc) {
	clock := le.cfg.Clock
	for {
		if !sleep(leadCtx, clock, le.termEnd().Sub(clock.Now())) {
			return
		}
		if !clock.Now().Before(le.termEnd()) {
			cancel()
			return
		}
	}
}

func (le *LeaderElector) termEnd() time.Time {
	le.mu.Lock()
	defer le.mu.Unlock()
	return le.renewedAt.Add(le.cfg.RenewDeadline)
}

func (le *LeaderElector) setState(leading, active bool) {
	le.mu.Lock()
	le.leading, le.active = leading, active
	le.mu.Unlock()
}

// setFence names this leader's term in Config.Fence.
func (le *LeaderElector) setFence() {
	if le.cfg.Fence == nil {
		return
	}
	le.mu.Lock()
	transitions := le.observed.LeaderTransitions
	le.mu.Unlock()
	if ref, ok := LockRefOf(le.cfg.Lock, transitions); ok {
		le.cfg.Fence.Set(ref.String())
	}
}
