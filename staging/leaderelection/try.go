package leaderelection

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// tryAcquireOrRenew makes one attempt to take or renew the lock. It
// reports whether this candidate holds it with a term not yet ended.
func (le *LeaderElector) tryAcquireOrRenew(ctx context.Context) bool {
	defer le.report()
	le.mu.Lock()
	old := le.observed
	le.mu.Unlock()
	// A leader whose last record is its own writes straight over it; the
	// lock's compare-and-swap catches any change since.
	if le.IsLeader() && old.HolderIdentity == le.id {
		if le.write(ctx, old, false) {
			return true
		}
		le.cfg.Metrics.SlowpathExercised(le.cfg.Name)
	}
	rec, raw, err := le.cfg.Lock.Get(ctx)
	if apierrors.IsNotFound(err) {
		return le.write(ctx, LeaderElectionRecord{}, true)
	}
	if err != nil {
		le.fail(ctx, err)
		return false
	}
	seen := le.cfg.Clock.Now()
	if !le.observe(rec, raw, seen) {
		return false
	}
	return le.write(ctx, *rec, false)
}

// observe notes the record read at seen, and reports whether this
// candidate may write over it: the record names nobody or this candidate,
// or it has not changed, as this candidate saw it, for a lease.
func (le *LeaderElector) observe(rec *LeaderElectionRecord, raw []byte, seen time.Time) bool {
	le.mu.Lock()
	defer le.mu.Unlock()
	if le.observedRaw == nil || !bytes.Equal(raw, le.observedRaw) {
		le.observed, le.observedRaw, le.observedTime = *rec, raw, seen
	}
	holder := rec.HolderIdentity
	if holder == "" || holder == le.id {
		return true
	}
	wait := max(le.cfg.LeaseDuration, time.Duration(rec.LeaseDurationSeconds)*time.Second)
	return !seen.Before(le.observedTime.Add(wait))
}

// write replaces old (or creates the lock) with a record naming this
// candidate. On success the term restarts from the moment it was sent;
// it reports whether that term is still running when the write returns.
func (le *LeaderElector) write(ctx context.Context, old LeaderElectionRecord, create bool) bool {
	sent := le.cfg.Clock.Now()
	r := LeaderElectionRecord{
		HolderIdentity:       le.id,
		LeaseDurationSeconds: durationSeconds(le.cfg.LeaseDuration),
		RenewTime:            renewTime(sent, old.RenewTime),
		AcquireTime:          old.AcquireTime,
		LeaderTransitions:    old.LeaderTransitions,
	}
	if old.HolderIdentity != le.id {
		r.AcquireTime = r.RenewTime
		if !create {
			r.LeaderTransitions++
		}
	}
	var err error
	if create {
		err = le.cfg.Lock.Create(ctx, r)
	} else {
		err = le.cfg.Lock.Update(ctx, r)
	}
	if err != nil {
		le.fail(ctx, err)
		return false
	}
	now := le.cfg.Clock.Now()
	le.mu.Lock()
	le.observed, le.observedRaw, le.observedTime = r, nil, now
	le.renewedAt = sent
	le.mu.Unlock()
	return now.Before(sent.Add(le.cfg.RenewDeadline))
}

// renewTime is t to the microsecond, made later than prev if need be, so
// that every write changes the record.
func renewTime(t time.Time, prev meta.MicroTime) meta.MicroTime {
	m := t.UTC().Truncate(time.Microsecond)
	if !m.After(prev.Time) {
		m = prev.Time.Add(time.Microsecond)
	}
	return meta.MicroTime{Time: m}
}

// report tells OnNewLeader of a new holder.
func (le *LeaderElector) report() {
	if le.note != nil {
		le.note.set(le.GetLeader())
	}
}

// fail passes err to OnError, unless it is only Run's context ending; an
// attempt cut short by its deadline is reported.
func (le *LeaderElector) fail(ctx context.Context, err error) {
	if le.cfg.OnError == nil {
		return
	}
	switch cause := context.Cause(ctx); {
	case cause == nil:
		le.cfg.OnError(err)
	case errors.Is(cause, errDeadline):
		le.cfg.OnError(fmt.Errorf("%w (%v)", err, cause))
	}
}
