package leaderelection_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"platform.io/client/leaderelection"

	"platform.io/platform/test/integration/framework"
)

// TestLeaderElection runs, for every lock kind with two and three
// candidates: exactly one leads; the leader's context is cancelled and it
// releases, so a successor leads within a RetryPeriod; the new leader's
// lock starts failing and it stops within RenewDeadline, and with three
// candidates the last one takes over once the lease has run out. All
// along, no two leaders act at once.
func TestLeaderElection(t *testing.T) {
	s := framework.Start(t)
	p := startProbe(t, s)
	for _, kind := range leaderelection.LockKinds() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel() // the kinds side by side, the sizes one after the other
			for _, n := range []int{2, 3} {
				t.Run(fmt.Sprint(n), func(t *testing.T) { runScenario(t, s, p, kind, n) })
			}
		})
	}
}

func runScenario(t *testing.T, s *framework.Server, p *probe, kind string, n int) {
	log := &actLog{}
	name := fmt.Sprintf("le-%s-%d", kind, n)
	var all []*candidate
	for i := range n {
		all = append(all, startCandidate(t, s, log, kind, name, fmt.Sprintf("%s-c%d", name, i)))
	}
	start := time.Now()
	first := awaitLeader(t, all)
	p.within(t, "first leader", start, time.Since(start), 2*time.Second)
	holdOne(t, p, all, 600*time.Millisecond)
	checkHolder(t, s, kind, name, awaitLeader(t, all).id)

	// Release on cancel: the successor need not wait out the lease.
	leader := awaitLeader(t, all)
	leader.cancel()
	<-leader.done
	released := time.Now()
	second := awaitLeader(t, all)
	p.within(t, "successor after release", released, time.Since(released), retryPeriod+slack)
	holdOne(t, p, all, 300*time.Millisecond)

	// Failing renewals: the leader steps down within RenewDeadline.
	leader = awaitLeader(t, all)
	failed := time.Now()
	leader.lock.failing.Store(true)
	select {
	case <-leader.stopped:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s still leading 10s after its renewals began failing", leader.id)
	}
	p.within(t, "stopped leading", failed, time.Since(failed), renewDeadline+slack/3)
	if leader.le.IsLeader() {
		t.Errorf("%s reports leading after OnStoppedLeading", leader.id)
	}
	if n == 3 && len(alive(all)) > 0 {
		// The last renewal was at most a RetryPeriod before the failures
		// began; it is seen within a RetryPeriod, and the lock is taken at
		// the first attempt a lease later.
		third := awaitLeader(t, all)
		took := time.Since(failed)
		if took < effectiveLease-retryPeriod-slack/3 {
			t.Errorf("%s took over %v after the leader's renewals began failing, before the lease ran out", third.id, took)
		}
		p.within(t, "takeover after the lease", failed, took, effectiveLease+2*retryPeriod+slack)
		holdOne(t, p, all, 300*time.Millisecond)
	}
	for _, c := range all {
		c.cancel()
		<-c.done
	}
	leaders := log.check(t)
	if len(leaders) < 2 || leaders[0] != first.id || !slices.Contains(leaders, second.id) {
		t.Errorf("leaders %q: want %s first, then %s", leaders, first.id, second.id)
	}
}

// alive returns the candidates whose Run has not returned: every one that
// may still lead (Run returns once a candidate has led).
func alive(cands []*candidate) []*candidate {
	return slices.DeleteFunc(slices.Clone(cands), func(c *candidate) bool {
		select {
		case <-c.done:
			return true
		default:
			return false
		}
	})
}

// awaitLeader waits (up to 10s) until a candidate leads and returns it.
func awaitLeader(t *testing.T, cands []*candidate) *candidate {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		for _, c := range alive(cands) {
			if c.le.IsLeader() {
				return c
			}
		}
	}
	t.Fatalf("no leader among %d candidates within 10s", len(cands))
	return nil
}

// holdOne checks for d that at most one candidate leads at any time, and
// exactly one while the server keeps up.
func holdOne(t *testing.T, p *probe, cands []*candidate, d time.Duration) {
	t.Helper()
	start := time.Now()
	for end := start.Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		var leading []string
		for _, c := range cands {
			if c.le.IsLeader() {
				leading = append(leading, c.id)
			}
		}
		switch {
		case len(leading) > 1:
			t.Fatalf("several leaders at once: %q", leading)
		case len(leading) == 0 && p.worst(start) < stallThreshold:
			t.Fatalf("no leader, and the server did not stall")
		}
	}
}

// checkHolder reads the lock as an outsider and checks its holder.
func checkHolder(t *testing.T, s *framework.Server, kind, name, want string) {
	t.Helper()
	l, err := leaderelection.NewLock(kind, "", name, "observer", newClient(t, s))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec, _, err := l.Get(ctx)
	if err != nil || rec.HolderIdentity != want || rec.LeaseDurationSeconds != 2 {
		t.Fatalf("record %+v, %v; want held by %s for 2s", rec, err, want)
	}
}
