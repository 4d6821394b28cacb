package daemon

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// Election timing for the tests: short, with the runner's validation rules.
const (
	leaseDuration = 3 * time.Second
	renewDeadline = 2 * time.Second
	retryPeriod   = 500 * time.Millisecond
	// slack covers process start, retry jitter and a loaded machine.
	slack = 2 * time.Second
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// testdaemon builds the test daemon once per test binary.
func testdaemon(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "testdaemon")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "testdaemon")
		out, err := exec.Command("go", "build", "-o", binary, "./testdaemon").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// lockedBuffer is a process's stderr, written by exec's copying goroutine
// while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer // mu guards buf
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// replica is one running daemon process.
type replica struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
	done   chan struct{}
	err    error
}

func (r *replica) exited(within time.Duration) (code int, ok bool) {
	select {
	case <-r.done:
		return r.cmd.ProcessState.ExitCode(), true
	case <-time.After(within):
		return 0, false
	}
}

// cluster is a set of replicas competing for one lock, logging to one file.
type cluster struct {
	t    *testing.T
	s    *framework.Server
	log  string
	lock string
}

func newCluster(t *testing.T) *cluster {
	s := framework.Start(t)
	return &cluster{t: t, s: s, log: filepath.Join(t.TempDir(), "acts"),
		lock: strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))}
}

// start starts a replica; extra flags come after (and override) the
// cluster's.
func (c *cluster) start(extra ...string) *replica {
	c.t.Helper()
	args := append([]string{
		"--master=" + c.s.URL, "--secure-port=0",
		"--leader-elect-lease-duration=" + leaseDuration.String(),
		"--leader-elect-renew-deadline=" + renewDeadline.String(),
		"--leader-elect-retry-period=" + retryPeriod.String(),
		"--leader-elect-resource-name=" + c.lock,
		"--act-log=" + c.log, "--act-interval=20ms"}, extra...)
	cmd := exec.Command(testdaemon(c.t), args...)
	r := &replica{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	go func() { r.err = cmd.Wait(); close(r.done) }()
	c.t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT)
		_ = cmd.Process.Kill()
		<-r.done
		if c.t.Failed() {
			c.t.Logf("replica %d stderr:\n%s", cmd.Process.Pid, r.stderr.String())
		}
	})
	return r
}

// act is one line of the log.
type act struct {
	holder string
	at     time.Time
}

func (c *cluster) acts() []act {
	c.t.Helper()
	f, err := os.Open(c.log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		c.t.Fatal(err)
	}
	defer f.Close()
	var out []act
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 {
			continue // a line being written
		}
		ns, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil {
			continue
		}
		out = append(out, act{fields[0], time.Unix(0, ns)})
	}
	slices.SortFunc(out, func(a, b act) int { return a.at.Compare(b.at) })
	return out
}

// waitActor waits for an act after since by a holder other than not and
// returns it.
func (c *cluster) waitActor(since time.Time, not string, within time.Duration) act {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		for _, a := range c.acts() {
			if a.at.After(since) && a.holder != not {
				return a
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.t.Fatalf("no replica other than %q acted within %s", not, within)
	return act{}
}

// checkTerms fails if the acts of two holders interleave: each holder's
// acts must form one run, so two replicas never acted at once.
func (c *cluster) checkTerms() []string {
	c.t.Helper()
	var holders []string
	for _, a := range c.acts() {
		if len(holders) > 0 && holders[len(holders)-1] == a.holder {
			continue
		}
		if slices.Contains(holders, a.holder) {
			c.t.Fatalf("%s acted again after another replica had acted: terms %v then %s", a.holder, holders, a.holder)
		}
		holders = append(holders, a.holder)
	}
	return holders
}

func (c *cluster) holderProcess(reps []*replica, holder string) *replica {
	c.t.Helper()
	// Every replica logs the identity of the new leader; only the leader
	// logs that it started leading, with its own identity.
	for _, r := range reps {
		for _, line := range strings.Split(r.stderr.String(), "\n") {
			if strings.Contains(line, "started leading") && strings.Contains(line, holder) {
				return r
			}
		}
	}
	c.t.Fatalf("no replica logged identity %s", holder)
	return nil
}

func TestKilledLeaderIsReplaced(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	reps := []*replica{c.start(), c.start(), c.start()}
	first := c.waitActor(time.Time{}, "", 30*time.Second)
	leader := c.holderProcess(reps, first.holder)

	killed := time.Now()
	if err := leader.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	next := c.waitActor(killed, first.holder, leaseDuration+retryPeriod+2*slack)
	took := next.at.Sub(killed)
	t.Logf("successor %s acted %s after the leader was killed", next.holder, took)
	if bound := leaseDuration + retryPeriod + slack; took > bound {
		t.Errorf("takeover took %s, want at most lease duration + retry period (+ %s slack) = %s", took, slack, bound)
	}
	time.Sleep(time.Second)
	if terms := c.checkTerms(); len(terms) != 2 {
		t.Errorf("terms = %v, want the killed leader then one successor", terms)
	}
}

func TestPausedLeaderStopsActing(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	reps := []*replica{c.start(), c.start()}
	first := c.waitActor(time.Time{}, "", 30*time.Second)
	leader := c.holderProcess(reps, first.holder)

	paused := time.Now()
	if err := leader.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	next := c.waitActor(paused, first.holder, leaseDuration+retryPeriod+2*slack)
	t.Logf("successor %s acted %s after the leader was paused", next.holder, next.at.Sub(paused))
	if err := leader.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// Once resumed, the old leader finds its term over: it must not act,
	// and it exits with an error so its supervisor restarts it.
	code, ok := leader.exited(renewDeadline + 2*slack)
	if !ok {
		t.Fatal("the resumed leader did not exit")
	}
	if code == 0 {
		t.Errorf("the resumed leader exited with 0, want a failure")
	}
	if !strings.Contains(leader.stderr.String(), "leader election lost") {
		t.Errorf("the resumed leader did not log that it lost the election")
	}
	if terms := c.checkTerms(); len(terms) != 2 {
		t.Errorf("terms = %v, want the paused leader then one successor", terms)
	}
}

func TestTerminatedLeaderReleases(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	reps := []*replica{c.start(), c.start()}
	first := c.waitActor(time.Time{}, "", 30*time.Second)
	leader := c.holderProcess(reps, first.holder)

	stopped := time.Now()
	if err := leader.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, ok := leader.exited(10 * time.Second); !ok || code != 0 {
		t.Fatalf("after SIGTERM the leader exited=%v with code %d, want a clean exit", ok, code)
	}
	next := c.waitActor(stopped, first.holder, leaseDuration+2*slack)
	took := next.at.Sub(stopped)
	t.Logf("successor %s acted %s after SIGTERM", next.holder, took)
	// A released lock is taken at the next attempt, long before the lease
	// would have run out.
	if took >= leaseDuration {
		t.Errorf("takeover after a release took %s, want less than the lease duration %s", took, leaseDuration)
	}
	if terms := c.checkTerms(); len(terms) != 2 {
		t.Errorf("terms = %v, want the stopped leader then one successor", terms)
	}
}

func TestNoLeaderElection(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	log := filepath.Join(t.TempDir(), "acts")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, testdaemon(t), "--master="+s.URL, "--secure-port=0",
		"--leader-elect=false", "--act-log="+log, "--act-interval=20ms")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(log); len(b) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v\n%s", err, stderr.String())
	}
	if b, _ := os.ReadFile(log); len(b) == 0 {
		t.Fatalf("the daemon never acted without leader election\n%s", stderr.String())
	}
}
