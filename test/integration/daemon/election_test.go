package daemon

import (
	"bufio"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// lease returns the holder and transitions of the cluster's Lease.
func (c *cluster) lease() (holder string, transitions int) {
	c.t.Helper()
	var l struct {
		Spec struct {
			HolderIdentity   string `json:"holderIdentity"`
			LeaseTransitions int    `json:"leaseTransitions"`
		} `json:"spec"`
	}
	c.s.Do(c.t, http.MethodGet, "/apis/coordination.platform.io/v1/namespaces/platform-system/leases/"+c.lock, nil).
		Expect(c.t, http.StatusOK).Into(c.t, &l)
	return l.Spec.HolderIdentity, l.Spec.LeaseTransitions
}

// keepsLease fails t unless r is still running, leading and acting after
// for, with the Lease as it was.
func (c *cluster) keepsLease(r *replica, holder string, transitions int, for_ time.Duration) {
	c.t.Helper()
	if code, exited := r.exited(for_); exited {
		c.t.Fatalf("the leader exited with %d", code)
	}
	if strings.Contains(r.stderr.String(), "leader election lost") {
		c.t.Fatal("the leader lost its lease")
	}
	if h, n := c.lease(); h != holder || n != transitions {
		c.t.Fatalf("lease held by %q after %d transitions, want %q after %d", h, n, holder, transitions)
	}
	acts := c.acts()
	if gap := time.Since(acts[len(acts)-1].at); gap > time.Second {
		c.t.Fatalf("the leader stopped acting: last act %s ago", gap)
	}
	if terms := c.checkTerms(); len(terms) != 1 || terms[0] != holder {
		c.t.Fatalf("terms = %v, want one term of %s", terms, holder)
	}
}

// loggedAt returns when r first logged msg, from the time on the log
// line (text format: time, level, logger, caller and message, tab
// separated).
func (r *replica) loggedAt(msg string) (time.Time, bool) {
	sc := bufio.NewScanner(strings.NewReader(r.stderr.String()))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 5 || f[4] != msg {
			continue
		}
		if at, err := time.Parse("2006-01-02T15:04:05.000Z0700", f[0]); err == nil {
			return at, true
		}
	}
	return time.Time{}, false
}

// TestHungRenewalKeepsLease: one renewal the API server never answers (as
// when the etcd leader under it dies) is given up after the election's
// attempt timeout, two thirds of a second here, and the next attempt
// renews the lease within the 2 s renew deadline.
func TestHungRenewalKeepsLease(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	p := newAPIProxy(t, c.s.URL, c.lock)
	r := c.start("--master=" + p.URL())
	first := c.waitActor(time.Time{}, "", 30*time.Second)
	holder, transitions := c.lease()
	if holder != first.holder {
		t.Fatalf("lease held by %q, acts by %q", holder, first.holder)
	}
	p.hangNextRenewals(1)
	var hung span
	select {
	case hung = <-p.hung:
	case <-time.After(renewDeadline + slack):
		t.Fatal("no renewal hung")
	}
	t.Logf("a renewal hung for %s before its client gave up", hung.to.Sub(hung.from).Round(time.Millisecond))
	if took := hung.to.Sub(hung.from); took > renewDeadline/2 {
		t.Errorf("the hung renewal was given up after %s, want well within the renew deadline %s", took, renewDeadline)
	}
	c.keepsLease(r, holder, transitions, leaseDuration)
}

// TestAPIServerOutageKeepsLease: the API server goes away (connections
// cut, then refused) for 3.5 s of a 6 s renew deadline, as a local API
// server restarting does. The election client does not back off on its
// own (200 ms doubling, which would put the try after the server is back
// at 7.2 s into the term): the elector's next attempt, one retry period
// later, renews the lease.
func TestAPIServerOutageKeepsLease(t *testing.T) {
	t.Parallel()
	const (
		lease, renew, retry = 8 * time.Second, 6 * time.Second, time.Second
		outage              = 3500 * time.Millisecond
	)
	c := newCluster(t)
	p := newAPIProxy(t, c.s.URL, c.lock)
	r := c.start("--master="+p.URL(), "--leader-elect-lease-duration="+lease.String(),
		"--leader-elect-renew-deadline="+renew.String(), "--leader-elect-retry-period="+retry.String())
	first := c.waitActor(time.Time{}, "", 30*time.Second)
	holder, transitions := c.lease()
	if holder != first.holder {
		t.Fatalf("lease held by %q, acts by %q", holder, first.holder)
	}
	p.outageAtNextRenewal(outage)
	deadline := time.Now().Add(retry + outage + slack)
	for {
		if down, up := p.outageSpan(); !up.IsZero() {
			t.Logf("the API server was away for %s", up.Sub(down).Round(time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the outage did not happen")
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.keepsLease(r, holder, transitions, lease)
}

// TestLostLeaseExitsPromptly: a leader whose API server is gone for good
// loses its lease at the end of its term and exits with 1 within the
// bounded event drain (2 s), though its last events cannot be written
// and the recorder would retry them ten seconds apart.
func TestLostLeaseExitsPromptly(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	p := newAPIProxy(t, c.s.URL, c.lock)
	r := c.start("--master=" + p.URL())
	c.waitActor(time.Time{}, "", 30*time.Second)
	p.outageAtNextRenewal(-1)
	bound := retryPeriod + renewDeadline + 2*time.Second + slack
	code, exited := r.exited(bound + 20*time.Second)
	down, _ := p.outageSpan()
	if !exited {
		t.Fatal("the leader did not exit after losing its lease")
	}
	exitedAt := time.Now()
	lost, ok := r.loggedAt("leader election lost")
	if !ok {
		t.Fatal("the leader did not log that it lost its lease")
	}
	t.Logf("lease lost %s after the API server went away; exit %s after the loss",
		lost.Sub(down).Round(time.Millisecond), exitedAt.Sub(lost).Round(time.Millisecond))
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if took := exitedAt.Sub(down); took > bound {
		t.Errorf("exited %s after the API server went away, want within %s (retry period + renew deadline + 2 s drain + slack)", took, bound)
	}
}

// TestSIGTERMHandover measures the handover a SIGTERM starts: from the
// signal to the standby's "started leading", which the released lock
// makes one retry period at most (plus the leader's shutdown).
func TestSIGTERMHandover(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	reps := []*replica{c.start(), c.start()}
	first := c.waitActor(time.Time{}, "", 30*time.Second)
	leader := c.holderProcess(reps, first.holder)
	standby := reps[0]
	if standby == leader {
		standby = reps[1]
	}
	sent := time.Now()
	if err := leader.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, ok := leader.exited(10 * time.Second); !ok || code != 0 {
		t.Fatalf("after SIGTERM the leader exited=%v with code %d, want a clean exit", ok, code)
	}
	exited := time.Now()
	var started time.Time
	for deadline := time.Now().Add(leaseDuration + slack); ; time.Sleep(20 * time.Millisecond) {
		var ok bool
		if started, ok = standby.loggedAt("started leading"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby did not start leading within %s of SIGTERM", leaseDuration+slack)
		}
	}
	took := started.Sub(sent)
	t.Logf("SIGTERM handover: the standby started leading %s after SIGTERM (the leader exited after %s)",
		took.Round(time.Millisecond), exited.Sub(sent).Round(time.Millisecond))
	// Issue 13 asks for a handover within 3 s.
	if bound := 3 * time.Second; took > bound {
		t.Errorf("handover took %s, want within %s", took, bound)
	}
}
