package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

const (
	// haHandoverBound is the most a SIGTERM of a leader may take to put a
	// standby in charge: the leader releases its lease on the way out.
	haHandoverBound = 3 * time.Second
	// haKillBound is the most a SIGKILL of a leader may take: the standby
	// waits out the lease from when it last saw a renewal (up to a retry
	// period after it), and tries every retry period; a second covers the
	// start of the work on a busy machine.
	haKillBound = haLeaseDuration + 2*haRetryPeriod + time.Second
	// haHostKillBound is haKillBound when the host also ran the etcd
	// leader: a standby's attempt sent while etcd elects a new leader can
	// hang for one election attempt timeout (RenewDeadline/3) before the
	// next one lands.
	haHostKillBound = haKillBound + haRenewDeadline/3
	// haTakeoverTimeout bounds every wait for a new leader.
	haTakeoverTimeout = 30 * time.Second
	// haEndpointsTTL is the endpoint reconciler lease the API servers get
	// when they have the flag; a dead server leaves the platform
	// Endpoints within it.
	haEndpointsTTL = 5 * time.Second
	// haEndpointsDefaultTTL is upstream's default, for API servers that
	// have the Service but not the flag.
	haEndpointsDefaultTTL = 15 * time.Second
)

// TestHA runs the stacked layout operators build on three hosts
// (127.0.0.2-4, each an etcd member of one cluster, an API server on it,
// and replicas of the scheduler and the controller manager against the
// local API server) with simulated nodes and a steady workload through a
// load balancer, and then: kills the host of both leaders, restarts it,
// kills the etcd leader member and restarts it, restarts an API server
// with SIGTERM, and hands each daemon's lease over with SIGTERM and with
// SIGKILL of its leader. After each, the survivors take over, the
// Deployment reaches a new replica count with every pod bound and
// running, and no acknowledged write is lost; at the end, nothing was
// done twice. Takeover times are logged in a table.
//
// It runs in `make test-ha` (part of `make test`), alone, so the timings
// are the daemons' own and not the machine's other tests'.
func TestHA(t *testing.T) {
	began := time.Now()
	c := startHACluster(t)
	r := &haRun{t: t, c: c, rep: &haReport{}}
	t.Cleanup(func() { r.rep.log(t) })
	c.startNodes(3)
	c.startCloud()
	a, b, hc := c.hosts[0], c.hosts[1], c.hosts[2]
	// Host a's replicas start first, so every leader is on it; the
	// standbys are the scheduler on b, the controller manager on c and
	// the cloud controller manager on b.
	for _, kind := range haDaemons {
		c.startDaemon(a, kind)
	}
	for _, kind := range haDaemons {
		c.waitLeader(kind, a)
	}
	c.startDaemon(b, haScheduler)
	c.startDaemon(hc, haControllerManager)
	c.startDaemon(b, haCloudControllerManager)
	r.w = startWorkload(t, c.set)
	r.w.checkpoint(t, 4)
	c.checkPlatformEndpoints(t, "at start", c.hosts)
	t.Logf("cluster up and the workload steady after %v", time.Since(began).Round(time.Millisecond))

	r.killLeadersHost(a, []*haHost{b, hc})
	r.killEtcdLeader()
	r.restartAPIServer()
	for _, sig := range []string{"SIGTERM", "SIGKILL"} {
		for _, kind := range haDaemons {
			c.handover(t, r.rep, kind, sig)
		}
	}
	r.w.checkpoint(t, 4)

	r.w.stop()
	acked, failed := r.w.verifyWrites(t)
	binds := r.w.verifyNoDuplicates(t)
	t.Logf("workload: %d acknowledged configmap writes all stored, %d writes failed during outages; %d pod bindings, none twice; unit restarts: %v",
		acked, failed, binds, c.restarts())
	t.Logf("TestHA took %v", time.Since(began).Round(time.Millisecond))
}

// haRun is one run of TestHA: the cluster, its workload and the table of
// measurements. Each method is one event, ending once the cluster has
// absorbed it.
type haRun struct {
	t   *testing.T
	c   *haCluster
	w   *haWorkload
	rep *haReport
}

// killLeadersHost SIGKILLs every process of h, which runs both leaders,
// waits for the standbys to take over on survivors, then brings h back.
func (r *haRun) killLeadersHost(h *haHost, survivors []*haHost) {
	t, c := r.t, r.c
	etcdLeader := c.etcdLeader()
	killed := time.Now()
	etcdLeaderChange := c.watchEtcdLeader(killed, h)
	c.killHost(h)
	event := "host " + h.name + " (every leader) SIGKILLed"
	for _, kind := range haDaemons {
		u, took := c.waitTakeover(kind, killed)
		r.rep.add(event, kind+" lease", h.name, u.host.name, took, haHostKillBound)
		if took > haHostKillBound {
			t.Errorf("%s: %s took over %v after host %s was killed, want at most %v", kind, u, took, h.name, haHostKillBound)
		}
	}
	if etcdLeader == h {
		l, took := c.waitEtcdLeader(etcdLeaderChange)
		r.rep.add(event, "etcd leader", h.name, l.name, took, 0)
	}
	c.afterEvent(t, r.w, r.rep, event, killed, 6, survivors)
	back := time.Now()
	c.startHost(h)
	c.checkPlatformEndpoints(t, "host "+h.name+" back", c.hosts)
	c.settle(back)
}

// killEtcdLeader SIGKILLs the leading etcd member alone (quorum holds
// with two of three), then restarts it.
func (r *haRun) killEtcdLeader() {
	t, c := r.t, r.c
	m := c.etcdLeader()
	if m == nil {
		t.Fatal("no etcd leader")
	}
	killed := time.Now()
	etcdLeaderChange := c.watchEtcdLeader(killed, m)
	m.etcd.kill()
	event := "etcd leader member (" + m.name + ") SIGKILLed"
	l, took := c.waitEtcdLeader(etcdLeaderChange)
	r.rep.add(event, "etcd leader", m.name, l.name, took, 0)
	c.afterEvent(t, r.w, r.rep, event, killed, 3, c.hosts)
	restarted := time.Now()
	c.mustStart(m.etcd)
	c.waitEtcdMember(m)
	r.rep.add("etcd member "+m.name+" restarted", "member serving linearizable reads", m.name, m.name, time.Since(restarted), 0)
	c.settle(time.Now())
}

// restartAPIServer restarts the API server of the scheduler leader's
// host: SIGTERM, then start. Its daemons keep their leases when it is
// back within the renew deadline, and lose them (to a standby on another
// host) when not.
func (r *haRun) restartAPIServer() {
	t, c := r.t, r.c
	before := map[string]*unit{}
	for _, kind := range haDaemons {
		before[kind] = c.waitAnyLeader(kind)
	}
	h := before[haScheduler].host
	stopped := time.Now()
	code, err := h.apiserver.terminate()
	if err != nil || code != 0 {
		t.Errorf("API server of %s after SIGTERM: exit code %d, %v; want 0", h.name, code, err)
	}
	event := "API server of " + h.name + " restarted (SIGTERM)"
	r.rep.add(event, "API server exited", "", "", time.Since(stopped), 0)
	c.mustStart(h.apiserver)
	c.waitAPIServer(h)
	r.rep.add(event, "API server ready again", h.name, h.name, time.Since(stopped), 0)
	c.afterEvent(t, r.w, r.rep, event, stopped, 5, c.hosts)
	// A leader whose API server was away keeps its lease only if it
	// renewed within the renew deadline; look once that has passed.
	Eventually(t, haTakeoverTimeout, "the renew deadline passed since the restart", func() string {
		if d := time.Since(stopped); d <= haRenewDeadline+haRetryPeriod {
			return fmt.Sprintf("%v since the restart", d)
		}
		return ""
	})
	for _, kind := range haDaemons {
		if u, at := c.firstStartedLeading(kind, stopped); u != nil {
			r.rep.add(event, kind+" lease", before[kind].host.name, u.host.name, at.Sub(stopped), 0)
		} else {
			r.rep.add(event, kind+" lease (kept)", before[kind].host.name, before[kind].host.name, 0, 0)
		}
	}
	c.settle(time.Now())
}

// afterEvent checks the workload after an event: the Deployment reaches
// n replicas with every pod bound and running, no acknowledged write is
// lost, and the platform Endpoints list the live API servers. It records
// when the workload had recovered and the longest write outage.
func (c *haCluster) afterEvent(t *testing.T, w *haWorkload, rep *haReport, event string, at time.Time, n int32, live []*haHost) {
	t.Helper()
	done := w.checkpoint(t, n)
	rep.add(event, fmt.Sprintf("deployment at %d, pods bound and running", n), "", "", done.Sub(at), 0)
	rep.add(event, "longest gap between acknowledged writes", "", "", w.longestWriteGap(at), 0)
	w.verifyWrites(t)
	c.checkPlatformEndpoints(t, "after "+event, live)
}

// handover stops kind's leader with sig and measures until another
// replica leads; the stopped replica then starts again as a standby.
func (c *haCluster) handover(t *testing.T, rep *haReport, kind, sig string) {
	t.Helper()
	old := c.waitAnyLeader(kind)
	Eventually(t, haTakeoverTimeout, "every "+kind+" replica campaigning", func() string {
		for _, h := range c.hosts {
			if u := h.daemons[kind]; u != nil && !u.standby() {
				return u.String() + " is not campaigning"
			}
		}
		return ""
	})
	at := time.Now()
	bound := haKillBound
	if sig == "SIGTERM" {
		bound = haHandoverBound
		code, err := old.terminate()
		if err != nil || code != 0 {
			t.Errorf("%s after SIGTERM: exit code %d, %v; want 0", old, code, err)
		}
	} else {
		old.kill()
	}
	u, took := c.waitTakeover(kind, at)
	rep.add(kind+" leader "+sig, kind+" lease", old.host.name, u.host.name, took, bound)
	if took > bound {
		t.Errorf("%s: %s took over %v after %s of the leader, want at most %v", kind, u, took, sig, bound)
	}
	c.mustStart(old)
}

// settle waits until every daemon's lock was renewed after since by a
// running leader, so the next event meets a cluster that has absorbed the
// last one (a renewal in flight when the etcd leader died hangs for
// etcd's request timeout, and would otherwise fall into the next event).
func (c *haCluster) settle(since time.Time) {
	c.t.Helper()
	for _, kind := range haDaemons {
		Eventually(c.t, haTakeoverTimeout, kind+" lease renewed after "+since.Format("15:04:05.000"), func() string {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			l, err := c.set.Leases.Namespace("platform-system").Get(ctx, haLockName(kind), meta.GetOptions{})
			if err != nil {
				return err.Error()
			}
			if l.Spec.RenewTime == nil || !l.Spec.RenewTime.After(since) {
				return fmt.Sprintf("renewed at %v", l.Spec.RenewTime)
			}
			if c.leader(kind) == nil {
				return "the holder is not running"
			}
			return ""
		})
	}
}

// leaseHolder returns the holder identity of kind's lock.
func (c *haCluster) leaseHolder(kind string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := c.set.Leases.Namespace("platform-system").Get(ctx, haLockName(kind), meta.GetOptions{})
	if err != nil {
		return "", err
	}
	if l.Spec.HolderIdentity == nil {
		return "", nil
	}
	return *l.Spec.HolderIdentity, nil
}

// leader returns the running replica of kind that holds its lock: the
// one whose latest "started leading" names the Lease's holder.
func (c *haCluster) leader(kind string) *unit {
	holder, err := c.leaseHolder(kind)
	if err != nil || holder == "" {
		return nil
	}
	for _, h := range c.hosts {
		u := h.daemons[kind]
		if u == nil || u.current() == nil {
			continue
		}
		if started := u.logged("started leading"); len(started) > 0 && started[len(started)-1].Identity == holder {
			return u
		}
	}
	return nil
}

// waitLeader waits until kind's leader is on h.
func (c *haCluster) waitLeader(kind string, h *haHost) {
	c.t.Helper()
	Eventually(c.t, haTakeoverTimeout, kind+" leading on "+h.name, func() string {
		if u := c.leader(kind); u == nil || u.host != h {
			return fmt.Sprintf("leader %v", u)
		}
		return ""
	})
}

// firstStartedLeading returns the replica of kind that first logged
// "started leading" after since, and when; nil when none has.
func (c *haCluster) firstStartedLeading(kind string, since time.Time) (*unit, time.Time) {
	var first *unit
	var at time.Time
	for _, h := range c.hosts {
		u := h.daemons[kind]
		if u == nil {
			continue
		}
		for _, e := range u.logged("started leading") {
			if ts := e.time(); ts.After(since) && (first == nil || ts.Before(at)) {
				first, at = u, ts
			}
		}
	}
	return first, at
}

// waitTakeover waits until a replica of kind starts leading after since
// and the Lease names it; it returns the replica and the time from since
// to its "started leading".
func (c *haCluster) waitTakeover(kind string, since time.Time) (*unit, time.Duration) {
	c.t.Helper()
	var u *unit
	var at time.Time
	Eventually(c.t, haTakeoverTimeout, "a new "+kind+" leader", func() string {
		if u, at = c.firstStartedLeading(kind, since); u == nil {
			return "no replica started leading"
		}
		if l := c.leader(kind); l != u {
			return fmt.Sprintf("%s started leading but the lease names %v", u, l)
		}
		return ""
	})
	return u, at.Sub(since)
}

// etcdLeaderChange is when the test first saw a new etcd leader.
type etcdLeaderChange struct {
	leader *haHost
	took   time.Duration
}

// watchEtcdLeader polls, from now on, for a leading member other than
// dead's, in the background so that other waits do not delay the
// measurement; the result comes on the channel (leader nil after
// haTakeoverTimeout).
func (c *haCluster) watchEtcdLeader(since time.Time, dead *haHost) <-chan etcdLeaderChange {
	ch := make(chan etcdLeaderChange, 1)
	go func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for range tick.C {
			if l := c.etcdLeader(); l != nil && l != dead {
				ch <- etcdLeaderChange{l, time.Since(since)}
				return
			}
			if time.Since(since) > haTakeoverTimeout {
				ch <- etcdLeaderChange{}
				return
			}
		}
	}()
	return ch
}

// waitEtcdLeader returns what watchEtcdLeader saw, failing the test when
// no new leader came.
func (c *haCluster) waitEtcdLeader(ch <-chan etcdLeaderChange) (*haHost, time.Duration) {
	c.t.Helper()
	r := <-ch
	if r.leader == nil {
		c.t.Fatalf("no new etcd leader within %v", haTakeoverTimeout)
	}
	return r.leader, r.took
}

// waitAnyLeader waits until kind has a running leader and returns it.
func (c *haCluster) waitAnyLeader(kind string) *unit {
	c.t.Helper()
	var u *unit
	Eventually(c.t, haTakeoverTimeout, "a "+kind+" leader", func() string {
		if u = c.leader(kind); u == nil {
			return "none"
		}
		return ""
	})
	return u
}

// restarts returns the units that the supervisor restarted, with counts.
func (c *haCluster) restarts() map[string]int {
	out := map[string]int{}
	for _, h := range c.hosts {
		for _, u := range h.units() {
			u.mu.Lock()
			if u.restarts > 0 {
				out[u.String()] = u.restarts
			}
			u.mu.Unlock()
		}
	}
	return out
}

// checkPlatformEndpoints is the hook for the API server's own Service
// (issue 13): once `platform` in `default` exists, its Endpoints must
// list exactly the live API servers, each address with the secure port,
// within the endpoint reconciler's lease. Until the Service exists the
// subtest is skipped, not the test.
func (c *haCluster) checkPlatformEndpoints(t *testing.T, when string, live []*haHost) {
	t.Helper()
	t.Run("platform Endpoints "+when, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := c.set.Services.Namespace("default").Get(ctx, "platform", meta.GetOptions{})
		cancel()
		if apierrors.IsNotFound(err) {
			t.Skip("the API server's own Service platform in default does not exist yet")
		}
		if err != nil {
			t.Fatalf("read Service platform: %v", err)
		}
		var wantEPs []string
		for _, h := range live {
			wantEPs = append(wantEPs, fmt.Sprintf("%s:%d", h.addr, h.apiPort))
		}
		slices.Sort(wantEPs)
		Eventually(t, c.endpointsTTL+10*time.Second, "platform Endpoints listing "+strings.Join(wantEPs, " "), func() string {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			ep, err := c.set.Endpoints.Namespace("default").Get(ctx, "platform", meta.GetOptions{})
			if err != nil {
				return err.Error()
			}
			var got []string
			for _, s := range ep.Subsets {
				for _, a := range s.Addresses {
					for _, p := range s.Ports {
						got = append(got, fmt.Sprintf("%s:%d", a.IP, p.Port))
					}
				}
			}
			slices.Sort(got)
			return want(strings.Join(got, " "), strings.Join(wantEPs, " "))
		})
	})
}

// haReport is the table of takeover times the test logs at its end.
type haReport struct {
	mu   sync.Mutex
	rows []haRow
}

type haRow struct {
	event, what, from, to string
	took, bound           time.Duration
}

func (r *haReport) add(event, what, from, to string, took, bound time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rows = append(r.rows, haRow{event, what, from, to, took, bound})
}

// log writes the table: one row per measurement, times from the event
// (the signal sent) to the new leader's "started leading" log line, or to
// what the row names.
func (r *haReport) log(t *testing.T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "HA takeover times (lease %v, renew deadline %v, retry period %v; etcd heartbeat 100ms, election timeout 1s):\n",
		haLeaseDuration, haRenewDeadline, haRetryPeriod)
	fmt.Fprintf(&b, "| %-44s | %-43s | %-9s | %9s | %9s |\n", "event", "measured", "from->to", "time", "bound")
	fmt.Fprintf(&b, "|%s|%s|%s|%s|%s|\n", strings.Repeat("-", 46), strings.Repeat("-", 45), strings.Repeat("-", 11), strings.Repeat("-", 11), strings.Repeat("-", 11))
	for _, row := range r.rows {
		move, bound := "", ""
		if row.from != "" {
			move = row.from + "->" + row.to
		}
		if row.bound > 0 {
			bound = "<= " + row.bound.String()
		}
		fmt.Fprintf(&b, "| %-44s | %-43s | %-9s | %9s | %9s |\n", row.event, row.what, move, row.took.Round(time.Millisecond), bound)
	}
	t.Log(b.String())
}
