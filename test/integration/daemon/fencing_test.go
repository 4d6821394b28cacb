package daemon

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSaturatedWorkKeepsLease: the work client's rate limiter is kept full
// (50 goroutines at 5 QPS: each request waits about 10 s, five renew
// deadlines) for three lease durations; the election's own client renews
// all the same, and the leader keeps its lease and keeps acting.
func TestSaturatedWorkKeepsLease(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	r := c.start("--platform-api-qps=5", "--platform-api-burst=5", "--saturate=50")
	first := c.waitActor(time.Time{}, "", 30*time.Second)
	window := 3 * leaseDuration
	if code, exited := r.exited(window); exited {
		t.Fatalf("the saturated leader exited with %d within %s", code, window)
	}
	if !strings.Contains(r.stderr.String(), "saturating the work client") {
		t.Fatal("the work client was not saturated")
	}
	if strings.Contains(r.stderr.String(), "leader election lost") {
		t.Fatal("the saturated leader lost its lease")
	}
	acts := c.acts()
	last := acts[len(acts)-1]
	if gap := time.Since(last.at); gap > time.Second {
		t.Fatalf("the saturated leader stopped acting: last act %s ago", gap)
	}
	if terms := c.checkTerms(); len(terms) != 1 || terms[0] != first.holder {
		t.Fatalf("terms = %v, want one term of %s", terms, first.holder)
	}
	t.Logf("%d acts in %s of saturation, one term", len(acts), window)
}

// written is one ConfigMap an act created.
type written struct {
	holder string
	rv     int64
}

// writes lists the ConfigMaps the acts created, in the order etcd
// committed them.
func (c *cluster) writes() []written {
	c.t.Helper()
	var list struct {
		Items []struct {
			Metadata struct {
				ResourceVersion string            `json:"resourceVersion"`
				Annotations     map[string]string `json:"annotations"`
			} `json:"metadata"`
		} `json:"items"`
	}
	c.s.Do(c.t, "GET", "/api/v1/namespaces/default/configmaps", nil).Expect(c.t, http.StatusOK).Into(c.t, &list)
	var out []written
	for _, it := range list.Items {
		h := it.Metadata.Annotations["testdaemon.platform.io/holder"]
		if h == "" {
			continue
		}
		rv, err := strconv.ParseInt(it.Metadata.ResourceVersion, 10, 64)
		if err != nil {
			c.t.Fatal(err)
		}
		out = append(out, written{h, rv})
	}
	slices.SortFunc(out, func(a, b written) int { return int(a.rv - b.rv) })
	return out
}

// TestPausedLeaderWritesAreFenced: the leader is paused past its lease
// while writing through the API server, a standby takes over, and the old
// leader is resumed. Its acts skip the IsLeader check and it finishes one
// more after its term ends, so only the API server's check of its leader
// lock stands between its writes and the store: none may land after the
// successor's first, and each refusal is a 409 NotLeader.
func TestPausedLeaderWritesAreFenced(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	flags := []string{"--act-write", "--act-unguarded", "--act-interval=50ms"}
	reps := []*replica{c.start(flags...), c.start(flags...)}
	first := c.waitActor(time.Time{}, "", 30*time.Second)
	leader := c.holderProcess(reps, first.holder)
	c.waitActs(first.holder, 5, 10*time.Second)

	paused := time.Now()
	if err := leader.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	next := c.waitActor(paused, first.holder, leaseDuration+retryPeriod+2*slack)
	t.Logf("successor %s acted %s after the leader was paused", next.holder, next.at.Sub(paused))
	if err := leader.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if _, ok := leader.exited(renewDeadline + 4*slack); !ok {
		t.Fatal("the resumed leader did not exit")
	}
	c.waitActs(next.holder, 5, 10*time.Second)
	refused := strings.Count(leader.stderr.String(), "act refused")
	notLeader := strings.Count(leader.stderr.String(), "the writer is not the leader")
	t.Logf("the resumed leader's writes refused: %d (%d with the not-leader message)", refused, notLeader)
	if refused == 0 || notLeader < refused {
		t.Errorf("the resumed leader had %d writes refused (%d as not the leader), want at least one, each as not the leader", refused, notLeader)
	}

	// In etcd's order the writes are one run per holder: the paused
	// leader's, then the successor's; nothing of the old leader after.
	ws := c.writes()
	var runs []string
	counts := map[string]int{}
	for _, w := range ws {
		counts[w.holder]++
		if len(runs) == 0 || runs[len(runs)-1] != w.holder {
			runs = append(runs, w.holder)
		}
	}
	if len(runs) != 2 || runs[0] != first.holder || runs[1] != next.holder {
		t.Fatalf("holders of the writes in commit order: %v, want %s then %s", runs, first.holder, next.holder)
	}
	// Every act logged has its write, and every other write that landed
	// is one whose outcome the old leader never learned: a request cut off
	// by its shutdown ("act failed" with context canceled) may have been
	// committed all the same.
	logged := map[string]int{}
	for _, a := range c.acts() {
		logged[a.holder]++
	}
	unknown := strings.Count(leader.stderr.String(), "context canceled (last attempt")
	if got, acts := counts[first.holder], logged[first.holder]; got < acts || got > acts+unknown {
		t.Errorf("the old leader's writes landed %d, acts logged %d, with %d of unknown outcome", got, acts, unknown)
	}
	if terms := c.checkTerms(); len(terms) != 2 {
		t.Errorf("terms = %v, want the paused leader then one successor", terms)
	}
	t.Logf("writes landed: %s %d, then %s %d", first.holder, counts[first.holder], next.holder, counts[next.holder])
}

// waitActs waits until holder has made n acts.
func (c *cluster) waitActs(holder string, n int, within time.Duration) {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		got := 0
		for _, a := range c.acts() {
			if a.holder == holder {
				got++
			}
		}
		if got >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.t.Fatalf("%s did not make %d acts within %s", holder, n, within)
}
