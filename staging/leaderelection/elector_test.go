package leaderelection

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"platform.io/client/api/meta"
)

// sleepUntil advances the bubble to t0+d and lets everything settle.
func sleepUntil(t0 time.Time, d time.Duration) {
	time.Sleep(time.Until(t0.Add(d)))
	synctest.Wait()
}

func micro(t time.Time) meta.MicroTime {
	return meta.MicroTime{Time: t.UTC().Truncate(time.Microsecond)}
}

func TestAcquire(t *testing.T) {
	cases := []struct {
		name            string
		initial         *LeaderElectionRecord
		wantTransitions int
	}{
		{"no lock object", nil, 0},
		{"released record", &LeaderElectionRecord{LeaseDurationSeconds: 1, LeaderTransitions: 3}, 4},
		{"own record", &LeaderElectionRecord{HolderIdentity: "a", LeaseDurationSeconds: 15, LeaderTransitions: 2,
			AcquireTime: micro(time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC))}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runBubble(t, func(t *testing.T, store *fakeStore) {
				if tc.initial != nil {
					store.put(*tc.initial)
				}
				t0 := time.Now()
				c := startCandidate(t, store, "a", candOpts{})
				defer c.stop()
				synctest.Wait()
				if at := mustAt(t, store.log, "started a"); !at.Equal(t0) {
					t.Errorf("started after %v, want at once", at.Sub(t0))
				}
				if !c.le.IsLeader() || c.le.GetLeader() != "a" {
					t.Errorf("IsLeader %v, GetLeader %q", c.le.IsLeader(), c.le.GetLeader())
				}
				r, _ := store.record()
				want := LeaderElectionRecord{HolderIdentity: "a", LeaseDurationSeconds: 15,
					AcquireTime: micro(t0), RenewTime: micro(t0), LeaderTransitions: tc.wantTransitions}
				if tc.initial != nil && tc.initial.HolderIdentity == "a" {
					want.AcquireTime = tc.initial.AcquireTime // a renewal keeps it
				}
				if r != want {
					t.Errorf("record %+v, want %+v", r, want)
				}
				mustAt(t, store.log, "new a sees a")
			})
		})
	}
}

func TestRenew(t *testing.T) {
	runBubble(t, func(t *testing.T, store *fakeStore) {
		t0 := time.Now()
		c := startCandidate(t, store, "a", candOpts{})
		defer c.stop()
		sleepUntil(t0, 5*retry+time.Millisecond)
		r, _ := store.record()
		if !r.RenewTime.Equal(t0.Add(5*retry)) || !r.AcquireTime.Equal(t0) || r.HolderIdentity != "a" {
			t.Errorf("after 5 renewals: %+v", r)
		}
		if store.version != 6 {
			t.Errorf("%d writes, want a create and 5 renewals", store.version)
		}
		if !c.le.IsLeader() || c.metrics.on.Load() != 1 || c.metrics.slow.Load() != 0 {
			t.Errorf("IsLeader %v, metrics on %d slow %d", c.le.IsLeader(), c.metrics.on.Load(), c.metrics.slow.Load())
		}
	})
}

// TestRenewTimeAlwaysChanges: renewals within one microsecond of the last
// still change the record, so observers always see them.
func TestRenewTimeAlwaysChanges(t *testing.T) {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		now, prev time.Time
		want      time.Time
	}{
		{"later", base.Add(time.Second), base, base.Add(time.Second)},
		{"same microsecond", base.Add(300 * time.Nanosecond), base, base.Add(time.Microsecond)},
		{"clock stepped back", base.Add(-time.Hour), base, base.Add(time.Microsecond)},
	} {
		if got := renewTime(tc.now, meta.MicroTime{Time: tc.prev}); !got.Equal(tc.want) {
			t.Errorf("%s: renewTime = %v, want %v", tc.name, got.Time, tc.want)
		}
	}
}

func TestLossOnFailedRenews(t *testing.T) {
	cases := []struct {
		name   string
		break_ func(c *candidate, store *fakeStore)
		// the leader stops this long after its last renewal
		wantStop time.Duration
	}{
		{"lock errors", func(c *candidate, _ *fakeStore) { c.lock.failing.Store(true) }, renew},
		{"updates conflict", func(c *candidate, _ *fakeStore) { c.lock.conflicts.Store(1 << 20) }, renew},
		// Seeing another holder ends the term at once.
		{"record overwritten", func(_ *candidate, s *fakeStore) {
			s.put(LeaderElectionRecord{HolderIdentity: "intruder", LeaseDurationSeconds: 15})
		}, retry},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runBubble(t, func(t *testing.T, store *fakeStore) {
				t0 := time.Now()
				c := startCandidate(t, store, "a", candOpts{})
				defer c.stop()
				sleepUntil(t0, 3*time.Second)
				tc.break_(c, store)
				lastWrite := mustAt(t, store.log, "write a by a")
				sleepUntil(lastWrite, tc.wantStop-time.Millisecond)
				if !c.le.IsLeader() {
					t.Fatal("stopped leading too early")
				}
				sleepUntil(lastWrite, tc.wantStop)
				for _, what := range []string{"returned a", "stopped a", "ran a"} {
					if at := mustAt(t, store.log, what); !at.Equal(lastWrite.Add(tc.wantStop)) {
						t.Errorf("%s %v after the last renewal, want %v", what, at.Sub(lastWrite), tc.wantStop)
					}
				}
				if r, _ := store.record(); tc.wantStop == retry && r.HolderIdentity != "intruder" {
					t.Errorf("the intruder's record was overwritten: %+v", r)
				}
				if c.le.IsLeader() || c.metrics.off.Load() != 1 {
					t.Errorf("IsLeader %v, LeaderOff calls %d", c.le.IsLeader(), c.metrics.off.Load())
				}
			})
		})
	}
}

func TestReleaseOnCancel(t *testing.T) {
	for _, release := range []bool{true, false} {
		t.Run(map[bool]string{true: "release", false: "keep"}[release], func(t *testing.T) {
			runBubble(t, func(t *testing.T, store *fakeStore) {
				store.put(LeaderElectionRecord{LeaderTransitions: 6})
				t0 := time.Now()
				c := startCandidate(t, store, "a", candOpts{release: release})
				sleepUntil(t0, 5*time.Second)
				c.stop()
				r, _ := store.record()
				want := LeaderElectionRecord{HolderIdentity: "a", LeaseDurationSeconds: 15,
					AcquireTime: micro(t0), RenewTime: micro(t0.Add(2 * retry)), LeaderTransitions: 7}
				if release {
					now := micro(t0.Add(5 * time.Second))
					want = LeaderElectionRecord{LeaseDurationSeconds: 1, AcquireTime: now, RenewTime: now, LeaderTransitions: 7}
				}
				if r != want {
					t.Errorf("record %+v, want %+v", r, want)
				}
			})
		})
	}
}

// TestReleaseAfterUncertainRenewal: a release still clears the record
// when the renewal before it was in flight at cancellation, or landed
// without its answer.
func TestReleaseAfterUncertainRenewal(t *testing.T) {
	cases := []struct {
		name     string
		setup    func(l *fakeLock)
		wantSlow int32 // renewals through the slow path
	}{
		// The renewal in flight is seen through, not aborted.
		{"cancelled during a slow renewal", func(l *fakeLock) { l.slowUpdates.Store(int64(100 * time.Millisecond)) }, 0},
		// Both the direct write and the slow path's land unanswered: the
		// release meets a version it did not see and reads it again.
		{"renewal answers lost", func(l *fakeLock) { l.lostAnswers.Store(2) }, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runBubble(t, func(t *testing.T, store *fakeStore) {
				t0 := time.Now()
				c := startCandidate(t, store, "a", candOpts{release: true})
				sleepUntil(t0, 3*time.Second)
				tc.setup(c.lock)
				sleepUntil(t0, 2*retry+50*time.Millisecond) // mid-renewal when slow
				c.stop()
				if r, _ := store.record(); r.HolderIdentity != "" || r.LeaseDurationSeconds != 1 {
					t.Errorf("record after release: %+v", r)
				}
				if got := c.metrics.slow.Load(); got != tc.wantSlow {
					t.Errorf("%d renewals through the slow path, want %d", got, tc.wantSlow)
				}
			})
		})
	}
}

// TestNoReleaseOfAnotherHoldersRecord: cancelled while its renewal finds
// the record taken, a leader releases nothing.
func TestNoReleaseOfAnotherHoldersRecord(t *testing.T) {
	runBubble(t, func(t *testing.T, store *fakeStore) {
		t0 := time.Now()
		c := startCandidate(t, store, "a", candOpts{release: true})
		sleepUntil(t0, 3*time.Second)
		store.put(LeaderElectionRecord{HolderIdentity: "intruder", LeaseDurationSeconds: 15})
		c.lock.slowUpdates.Store(int64(100 * time.Millisecond))
		sleepUntil(t0, 2*retry+50*time.Millisecond) // mid-renewal
		c.stop()
		if r, _ := store.record(); r.HolderIdentity != "intruder" {
			t.Errorf("record after cancel: %+v", r)
		}
	})
}

func TestReleaseWaitsForOnStartedLeading(t *testing.T) {
	cases := []struct {
		name        string
		linger      time.Duration // how long the work runs on after ctx is done
		wantRelease bool
	}{
		{"work ends within the term", 3 * time.Second, true},
		{"work outlives the term", 20 * time.Second, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runBubble(t, func(t *testing.T, store *fakeStore) {
				t0 := time.Now()
				work := func(ctx context.Context) {
					<-ctx.Done()
					time.Sleep(tc.linger)
				}
				c := startCandidate(t, store, "a", candOpts{release: true, work: work})
				sleepUntil(t0, 5*time.Second) // last renewal at 4s: the term ends at 14s
				c.stop()
				stopped := mustAt(t, store.log, "stopped a")
				released, ok := store.log.at("write  by a")
				if ok != tc.wantRelease {
					t.Fatalf("released %v, want %v; log %q", ok, tc.wantRelease, store.log.all())
				}
				wantStop := t0.Add(4*time.Second + renew)
				if ok {
					wantStop = t0.Add(5*time.Second + tc.linger)
					if returned := mustAt(t, store.log, "returned a"); released.Before(returned) {
						t.Errorf("released at %v, before the work returned at %v", released.Sub(t0), returned.Sub(t0))
					}
				}
				if !stopped.Equal(wantStop) {
					t.Errorf("stopped at %v, want %v", stopped.Sub(t0), wantStop.Sub(t0))
				}
				sleepUntil(t0, time.Minute) // let the work end
			})
		})
	}
}

// putEvery makes a live holder: it rewrites the record every period for
// the duration until, or until stop is called.
func putEvery(store *fakeStore, holder string, period, until time.Duration) (stop func()) {
	t0 := time.Now()
	quit := make(chan struct{})
	go func() {
		for n := 1; time.Since(t0) < until; n++ {
			select {
			case <-quit:
				return
			case <-time.After(period):
			}
			store.put(LeaderElectionRecord{HolderIdentity: holder, LeaseDurationSeconds: 15,
				RenewTime: micro(t0.Add(time.Duration(n) * period)), LeaderTransitions: 1})
			store.log.add("put %s", holder)
		}
	}()
	return func() { close(quit) }
}

func TestTakeover(t *testing.T) {
	cases := []struct {
		name        string
		initial     LeaderElectionRecord
		renewsUntil time.Duration // the holder keeps renewing this long
		wantAfter   time.Duration // earliest takeover after the last change
	}{
		{"holder dead", LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 15}, 0, lease},
		{"holder advertises a longer lease", LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 40}, 0, 40 * time.Second},
		{"holder advertises a shorter lease", LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 2}, 0, lease},
		{"holder's timestamps an hour ahead", LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 15,
			RenewTime: micro(time.Now().Add(time.Hour))}, 0, lease},
		{"holder's timestamps a day behind", LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 15,
			RenewTime: micro(time.Now().Add(-24 * time.Hour))}, 0, lease},
		{"holder renews for 20s", LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 15}, 20 * time.Second, lease},
		{"holder never stops", LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 15}, time.Hour, lease},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runBubble(t, func(t *testing.T, store *fakeStore) {
				store.put(tc.initial)
				t0 := time.Now()
				defer putEvery(store, "old", retry, tc.renewsUntil)()
				c := startCandidate(t, store, "a", candOpts{})
				defer c.stop()
				sleepUntil(t0, 2*time.Minute)
				lastChange := t0
				if at, ok := store.log.at("put old"); ok {
					lastChange = at
				}
				started, ok := store.log.at("started a")
				if tc.renewsUntil == time.Hour {
					if ok {
						t.Fatalf("took a lock whose holder renews, at %v", started.Sub(t0))
					}
					return
				}
				if !ok {
					t.Fatalf("never took the lock; log %q", store.log.all())
				}
				// The change is seen at the next attempt, at most a RetryPeriod
				// later, and the lock is taken at the first attempt a lease after.
				earliest, latest := lastChange.Add(tc.wantAfter), lastChange.Add(tc.wantAfter+2*retry)
				if started.Before(earliest) || started.After(latest) {
					t.Errorf("took the lock %v after the last change, want %v to %v",
						started.Sub(lastChange), earliest.Sub(lastChange), latest.Sub(lastChange))
				}
				wantTransitions := 1 // over the initial record's 0
				if tc.renewsUntil > 0 {
					wantTransitions = 2 // over the renewed records' 1
				}
				if r, _ := store.record(); r.HolderIdentity != "a" || r.LeaderTransitions != wantTransitions {
					t.Errorf("record %+v, want held by a after %d transitions", r, wantTransitions)
				}
			})
		})
	}
}

// TestClockSkew: two candidates whose clocks disagree by any amount still
// never lead at once, and the successor waits exactly for a lease of no
// observed change: the record's timestamps (from the other clock) play no
// part.
func TestClockSkew(t *testing.T) {
	cases := []struct {
		name     string
		skewA    time.Duration
		skewB    time.Duration
		failAt   time.Duration // when A's lock starts failing
		lastPing time.Duration // A's last successful renewal
	}{
		{"same clocks", 0, 0, 31 * time.Second, 30 * time.Second},
		{"B an hour ahead", 0, time.Hour, 31 * time.Second, 30 * time.Second},
		{"B an hour behind", 0, -time.Hour, 31 * time.Second, 30 * time.Second},
		{"A a day ahead, B a day behind", 24 * time.Hour, -24 * time.Hour, 31 * time.Second, 30 * time.Second},
		{"clocks 3s apart", -1500 * time.Millisecond, 1500 * time.Millisecond, 31 * time.Second, 30 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runBubble(t, func(t *testing.T, store *fakeStore) {
				t0 := time.Now()
				a := startCandidate(t, store, "a", candOpts{clock: skewClock{tc.skewA}})
				defer a.stop()
				sleepUntil(t0, time.Second)
				b := startCandidate(t, store, "b", candOpts{clock: skewClock{tc.skewB}})
				defer b.stop()
				sleepUntil(t0, tc.failAt)
				if _, ok := store.log.at("started b"); ok || !a.le.IsLeader() {
					t.Fatalf("b took over a live leader; log %q", store.log.all())
				}
				a.lock.failing.Store(true)
				sleepUntil(t0, 2*time.Minute)
				last := t0.Add(tc.lastPing)
				stoppedA, startedB := mustAt(t, store.log, "stopped a"), mustAt(t, store.log, "started b")
				if !stoppedA.Equal(last.Add(renew)) {
					t.Errorf("a stopped %v after its last renewal, want %v", stoppedA.Sub(last), renew)
				}
				if startedB.Before(last.Add(lease)) || startedB.After(last.Add(lease+2*retry)) {
					t.Errorf("b started %v after a's last renewal, want %v to %v", startedB.Sub(last), lease, lease+2*retry)
				}
				if !b.le.IsLeader() || b.le.GetLeader() != "b" {
					t.Errorf("b: IsLeader %v, GetLeader %q", b.le.IsLeader(), b.le.GetLeader())
				}
			})
		})
	}
}

func TestCallbacksOrder(t *testing.T) {
	runBubble(t, func(t *testing.T, store *fakeStore) {
		store.put(LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 15})
		t0 := time.Now()
		c := startCandidate(t, store, "a", candOpts{release: true})
		sleepUntil(t0, 40*time.Second)
		c.stop()
		want := []string{"new a sees old", "write a by a", "started a", "new a sees a",
			"returned a", "write  by a", "stopped a", "ran a"}
		got := store.log.all()
		pos := -1
		for _, w := range want {
			i := slices.Index(got, w)
			if i < 0 {
				t.Fatalf("%q missing from %q", w, got)
			}
			// "started" and the OnNewLeader call run in goroutines of
			// their own; only their order relative to the rest is fixed.
			if i < pos && w != "new a sees a" && w != "started a" {
				t.Errorf("%q out of order in %q", w, got)
			}
			pos = max(pos, i)
		}
		if n := len(slices.DeleteFunc(slices.Clone(got), func(s string) bool { return s != "stopped a" })); n != 1 {
			t.Errorf("OnStoppedLeading called %d times", n)
		}
	})
}

func TestNeverLedNoStopCallback(t *testing.T) {
	runBubble(t, func(t *testing.T, store *fakeStore) {
		store.put(LeaderElectionRecord{HolderIdentity: "old", LeaseDurationSeconds: 15})
		defer putEvery(store, "old", retry, time.Minute)()
		t0 := time.Now()
		c := startCandidate(t, store, "a", candOpts{release: true})
		sleepUntil(t0, 10*time.Second)
		c.stop()
		sleepUntil(t0, 2*time.Minute)
		for _, s := range store.log.all() {
			if s == "started a" || s == "stopped a" || s == "write  by a" {
				t.Errorf("a never led, yet logged %q", s)
			}
		}
		if c.metrics.on.Load() != 0 || c.metrics.off.Load() != 0 {
			t.Errorf("metrics on %d off %d", c.metrics.on.Load(), c.metrics.off.Load())
		}
	})
}

func TestSlowpath(t *testing.T) {
	runBubble(t, func(t *testing.T, store *fakeStore) {
		t0 := time.Now()
		c := startCandidate(t, store, "a", candOpts{})
		sleepUntil(t0, 3*time.Second)
		c.lock.conflicts.Store(1)
		sleepUntil(t0, 5*time.Second)
		if c.metrics.slow.Load() != 1 || !c.le.IsLeader() {
			t.Errorf("slowpath %d, IsLeader %v", c.metrics.slow.Load(), c.le.IsLeader())
		}
		if r, _ := store.record(); !r.RenewTime.Equal(t0.Add(4 * time.Second)) {
			t.Errorf("renewal through the slow path not written: %+v", r)
		}
		c.stop()
		if c.metrics.on.Load() != 1 || c.metrics.off.Load() != 1 {
			t.Errorf("metrics on %d off %d", c.metrics.on.Load(), c.metrics.off.Load())
		}
	})
}

// TestHungRenewals: a renewal the server never answers is given up after
// AttemptTimeout and the next one starts at once, so the leader rides out
// up to two hung renewals in a row with the defaults (hangs from 2 s cut at
// 5.3 s and 8.7 s, the third attempt lands before the 10 s term ends).
// Bounding an attempt by the whole term instead loses the lease on the
// first hang.
func TestHungRenewals(t *testing.T) {
	attempt := DefaultAttemptTimeout(renew, retry)
	cases := []struct {
		hangs int32
		// lost is when leading stops, after the last renewal; 0 for never.
		lost time.Duration
	}{
		{1, 0},
		{2, 0},
		{3, renew},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d hung", tc.hangs), func(t *testing.T) {
			runBubble(t, func(t *testing.T, store *fakeStore) {
				t0 := time.Now()
				c := startCandidate(t, store, "a", candOpts{})
				defer c.stop()
				sleepUntil(t0, retry+time.Millisecond) // renewed at 2s
				c.lock.hanging.Store(tc.hangs)
				sleepUntil(t0, 5*renew)
				lastWrite := t0.Add(retry)
				if tc.lost != 0 {
					if at := mustAt(t, store.log, "stopped a"); !at.Equal(lastWrite.Add(tc.lost)) {
						t.Errorf("stopped %v after the last renewal, want %v", at.Sub(lastWrite), tc.lost)
					}
					return
				}
				if at, ok := store.log.at("stopped a"); ok {
					t.Fatalf("lost the lease at %v after %d hung renewals", at.Sub(t0), tc.hangs)
				}
				// The renewal after the hangs landed when the last hang was cut.
				landed := lastWrite.Add(retry + time.Duration(tc.hangs)*attempt)
				if at := mustAt(t, store.log, "write a by a"); at.Before(landed) {
					t.Errorf("no renewal since %v", at.Sub(t0))
				}
				if r, _ := store.record(); !c.le.IsLeader() || r.HolderIdentity != "a" || r.LeaderTransitions != 0 {
					t.Errorf("IsLeader %v, record %+v", c.le.IsLeader(), r)
				}
			})
		})
	}
}

// TestWedgedLock: a lock call that ignores its context cannot keep the
// leading context alive past the term, and the health check notices the
// stuck renewal.
func TestWedgedLock(t *testing.T) {
	runBubble(t, func(t *testing.T, store *fakeStore) {
		t0 := time.Now()
		c := startCandidate(t, store, "a", candOpts{})
		check := c.le.HealthCheck(5 * time.Second)
		steps := []struct {
			at      time.Duration
			do      func()
			healthy bool
			leading bool
		}{
			{time.Second, nil, true, true},
			{3 * time.Second, func() { c.lock.wedging.Store(true) }, true, true}, // stuck from the renewal at 4s
			{12*time.Second - time.Millisecond, nil, true, true},
			{12 * time.Second, nil, true, false}, // term over: 2s + RenewDeadline
			{17 * time.Second, nil, true, false}, // 15s since the renewal: RenewDeadline + 5s
			{17*time.Second + time.Millisecond, nil, false, false},
			{30 * time.Second, func() { close(c.lock.unwedge) }, true, false},
		}
		for _, s := range steps {
			sleepUntil(t0, s.at)
			if s.do != nil {
				s.do()
				synctest.Wait()
			}
			if err := check(); (err == nil) != s.healthy || c.le.IsLeader() != s.leading {
				t.Errorf("at %v: health %v, IsLeader %v; want healthy %v, leading %v", s.at, err, c.le.IsLeader(), s.healthy, s.leading)
			}
		}
		if at := mustAt(t, store.log, "returned a"); !at.Equal(t0.Add(12 * time.Second)) {
			t.Errorf("leading context cancelled at %v, want at the end of the term (12s)", at.Sub(t0))
		}
		mustAt(t, store.log, "ran a")
	})
}
