package leaderelection

import (
	"context"
	"fmt"
	"time"

	apierrors "platform.io/client/api/errors"
)

// release clears the record once OnStartedLeading has returned (done is
// closed), so a successor need not wait for the lease to run out. When the
// term ends first, it leaves the record alone: releasing while the leader's
// work may still run would let a successor overlap it.
func (le *LeaderElector) release(ctx context.Context, done <-chan struct{}) {
	clock := le.cfg.Clock
	end := le.termEnd()
	t := clock.NewTimer(end.Sub(clock.Now()))
	select {
	case <-done:
		t.Stop()
	case <-t.C():
		return
	}
	rctx, cancel := withDeadline(context.WithoutCancel(ctx), clock, le.attemptEnd(clock.Now(), end))
	defer cancel()
	le.mu.Lock()
	old := le.observed
	le.mu.Unlock()
	if old.HolderIdentity != le.id {
		return // the record was last seen naming another
	}
	now := renewTime(clock.Now(), old.RenewTime)
	r := LeaderElectionRecord{
		LeaseDurationSeconds: 1,
		AcquireTime:          now,
		RenewTime:            now,
		LeaderTransitions:    old.LeaderTransitions,
	}
	err := le.cfg.Lock.Update(rctx, r)
	if apierrors.IsConflict(err) {
		err = le.releaseFresh(rctx, r)
	}
	if err != nil {
		le.fail(rctx, err)
		return
	}
	le.mu.Lock()
	le.observed, le.observedRaw, le.observedTime = r, nil, clock.Now()
	le.mu.Unlock()
}

// releaseFresh retries a release that met a newer version than this
// leader last wrote (a write of its own whose answer was lost): it reads
// the record again and clears it if it still names this leader.
func (le *LeaderElector) releaseFresh(ctx context.Context, r LeaderElectionRecord) error {
	rec, _, err := le.cfg.Lock.Get(ctx)
	if err != nil || rec.HolderIdentity != le.id {
		return err
	}
	r.LeaderTransitions = rec.LeaderTransitions
	return le.cfg.Lock.Update(ctx, r)
}

// HealthCheck returns a check that fails while this candidate is in its
// leader part of Run but has not renewed for RenewDeadline+timeout: a
// leader whose renewals are stuck, which should have stepped down but has
// not. It passes for a candidate that is not leading.
func (le *LeaderElector) HealthCheck(timeout time.Duration) func() error {
	return func() error {
		le.mu.Lock()
		active, renewed := le.active, le.renewedAt
		le.mu.Unlock()
		if !active {
			return nil
		}
		if since := le.cfg.Clock.Now().Sub(renewed); since > le.cfg.RenewDeadline+timeout {
			return fmt.Errorf("leaderelection: %s has not renewed lock %s for %v", le.id, le.cfg.Lock.Describe(), since.Round(time.Millisecond))
		}
		return nil
	}
}
