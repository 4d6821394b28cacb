package chaos

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"platform.io/client/client"
	"platform.io/client/rest"

	"platform.io/platform/test/chaos/check"
	"platform.io/platform/test/chaos/cluster"
	"platform.io/platform/test/chaos/workload"
)

// The timing of every scenario.
const (
	// defaultDuration is each scenario's workload time unless
	// CHAOS_DURATION says otherwise (make chaos DURATION=10m).
	defaultDuration = 20 * time.Second
	// requestTimeout is the API server's --request-timeout.
	requestTimeout = 3 * time.Second
	// opTimeout bounds each client call; a stopped API server holds
	// calls longer than this, so they end Unknown.
	opTimeout = 5 * time.Second
	// stopFor is how long a process stays SIGSTOPped: longer than both.
	stopFor = 6 * time.Second
	// compactEvery is the API server's --etcd-compaction-interval: etcd
	// keeps 2-4 s of history, so the lagging watcher, which waits lagBy
	// before it resumes, finds its resourceVersion compacted now and then
	// (410 Gone) and relists, and otherwise resumes from etcd's history
	// beyond the watch cache's window.
	compactEvery = 2 * time.Second
	lagBy        = 5 * time.Second
)

// scenario is one kind of fault, injected again and again while the
// workload runs.
type scenario struct {
	name string
	// inject runs one fault and its repair; round counts from 0.
	inject func(ctx context.Context, c *cluster.Cluster, round int) (string, error)
	// every is the pause between faults.
	every time.Duration
}

var scenarios = []scenario{
	{name: "apiserver-kill", every: 3 * time.Second, inject: func(ctx context.Context, c *cluster.Cluster, _ int) (string, error) {
		c.APIServer.Kill()
		if err := c.APIServer.Start(); err != nil {
			return "", err
		}
		return "SIGKILL API server, restart", c.WaitAPIServer(ctx)
	}},
	{name: "apiserver-stop", every: 3 * time.Second, inject: func(ctx context.Context, c *cluster.Cluster, _ int) (string, error) {
		if err := c.APIServer.Signal(syscall.SIGSTOP); err != nil {
			return "", err
		}
		pause(ctx, stopFor)
		if err := c.APIServer.Signal(syscall.SIGCONT); err != nil {
			return "", err
		}
		return fmt.Sprintf("SIGSTOP API server %v, SIGCONT", stopFor), c.WaitAPIServer(ctx)
	}},
	{name: "etcd-kill", every: 3 * time.Second, inject: func(ctx context.Context, c *cluster.Cluster, round int) (string, error) {
		m, what, err := victim(ctx, c, round)
		if err != nil {
			return "", err
		}
		m.Proc.Kill()
		pause(ctx, 2*time.Second)
		if err := m.Proc.Start(); err != nil {
			return "", err
		}
		return "SIGKILL etcd " + what + ", restart", c.WaitMember(ctx, m)
	}},
	{name: "etcd-stop", every: 3 * time.Second, inject: func(ctx context.Context, c *cluster.Cluster, round int) (string, error) {
		m, what, err := victim(ctx, c, round)
		if err != nil {
			return "", err
		}
		if err := m.Proc.Signal(syscall.SIGSTOP); err != nil {
			return "", err
		}
		pause(ctx, stopFor)
		if err := m.Proc.Signal(syscall.SIGCONT); err != nil {
			return "", err
		}
		return fmt.Sprintf("SIGSTOP etcd %s %v, SIGCONT", what, stopFor), c.WaitMember(ctx, m)
	}},
	{name: "etcd-partition", every: 3 * time.Second, inject: func(ctx context.Context, c *cluster.Cluster, round int) (string, error) {
		m, what, err := victim(ctx, c, round)
		if err != nil {
			return "", err
		}
		c.Net.Isolate(m.Name)
		pause(ctx, stopFor)
		c.Net.Heal()
		return fmt.Sprintf("partition etcd %s %v, heal", what, stopFor), c.WaitMember(ctx, m)
	}},
}

// victim picks the member a round hits: the leader in even rounds, the
// followers in turn in odd ones.
func victim(ctx context.Context, c *cluster.Cluster, round int) (*cluster.Member, string, error) {
	leader, err := c.Leader(ctx)
	if err != nil {
		return nil, "", err
	}
	if round%2 == 0 {
		return leader, leader.Name + " (leader)", nil
	}
	for i := range c.Members {
		if m := c.Members[(round/2+i)%len(c.Members)]; m != leader {
			return m, m.Name + " (follower)", nil
		}
	}
	return leader, leader.Name + " (leader)", nil
}

// TestChaos runs each scenario: a fresh cluster, the workload for the
// scenario's duration with faults injected throughout, then the checks.
func TestChaos(t *testing.T) {
	bin := os.Getenv("PLATFORM_BIN_DIR")
	if bin == "" {
		t.Fatal("PLATFORM_BIN_DIR is not set: the chaos scenarios run the built binaries; use `make test-chaos`")
	}
	etcd, err := exec.LookPath("etcd")
	if err != nil {
		etcd = "/usr/bin/etcd"
	}
	if _, err := os.Stat(etcd); err != nil {
		t.Fatal("etcd not found: install Debian's etcd-server")
	}
	duration := defaultDuration
	if d := os.Getenv("CHAOS_DURATION"); d != "" {
		if duration, err = time.ParseDuration(d); err != nil {
			t.Fatalf("CHAOS_DURATION=%q: %v", d, err)
		}
	}
	only := os.Getenv("CHAOS_SCENARIOS")
	for _, sc := range scenarios {
		if only != "" && !strings.Contains(","+only+",", ","+sc.name+",") {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			dir := t.TempDir()
			runScenario(t, sc, cluster.Config{Dir: dir, EtcdBin: etcd, APIServerBin: filepath.Join(bin, "platform-apiserver"),
				Addrs:         loopbackAddrs(3),
				APIServerArgs: []string{"--request-timeout", requestTimeout.String(), "--etcd-compaction-interval", compactEvery.String()}}, duration)
		})
	}
}

func runScenario(t *testing.T, sc scenario, cfg cluster.Config, duration time.Duration) {
	ctx := t.Context()
	c, err := cluster.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("logs:\n%s", c.Logs(30))
		}
		c.Close()
	})
	rc, err := rest.NewClient(c.RestConfig(opTimeout))
	if err != nil {
		t.Fatal(err)
	}
	cms := client.NewSet(rc).ConfigMaps.Namespace("default")

	runCtx, stop := context.WithTimeout(ctx, duration)
	defer stop()
	faults := make(chan []string, 1)
	go func() { faults <- injectFaults(runCtx, t, c, sc) }()
	seed := rand.Uint64()
	start := time.Now()
	h, err := workload.Run(runCtx, cms, workload.Config{
		Clients: 4, Watchers: 2, LagBy: lagBy, Keys: []string{"k0", "k1", "k2"},
		OpTimeout: opTimeout, SettleTimeout: time.Minute, Seed: seed,
	})
	injected := <-faults
	if err != nil {
		t.Errorf("workload (seed %d): %v", seed, err)
	}
	elapsed := time.Since(start)
	t.Logf("unknown outcomes by cause: %s", unknownCauses(h.Ops))
	checkStart := time.Now()
	r := check.Run(h, check.Options{Timeout: time.Minute + duration/2})
	t.Logf("scenario %s: %v of workload, %d faults (%s); %v; checked in %v; seed %d",
		sc.name, elapsed.Round(time.Second), len(injected), summarize(injected), r, time.Since(checkStart).Round(time.Millisecond), seed)
	for i, a := range r.Anomalies {
		if i == 20 {
			t.Errorf("... and %d more", len(r.Anomalies)-20)
			break
		}
		t.Errorf("anomaly: %v", a)
	}
	if r.OK == 0 {
		t.Errorf("no operation succeeded")
	}
}

// injectFaults injects sc's fault every sc.every until ctx ends; the
// last fault is repaired before it returns. It returns what it did.
func injectFaults(ctx context.Context, t *testing.T, c *cluster.Cluster, sc scenario) []string {
	var done []string
	for round := 0; ; round++ {
		pause(ctx, sc.every)
		if ctx.Err() != nil {
			return done
		}
		// The repair must finish even when the run's time is up.
		what, err := sc.inject(context.WithoutCancel(ctx), c, round)
		if err != nil {
			t.Errorf("fault %d (%s): %v", round, what, err)
			return done
		}
		done = append(done, what)
	}
}

// unknownCauses counts the errors of the operations whose outcome is
// unknown, by the start of their text.
func unknownCauses(ops []check.Op) string {
	var causes []string
	for _, op := range ops {
		if op.Outcome != check.Unknown {
			continue
		}
		c := op.Err
		if i := strings.LastIndex(c, ": "); i >= 0 && len(c)-i < 60 {
			c = c[i+2:]
		}
		causes = append(causes, c)
	}
	return summarize(causes)
}

// summarize counts each kind of fault.
func summarize(faults []string) string {
	counts := map[string]int{}
	var order []string
	for _, f := range faults {
		if counts[f] == 0 {
			order = append(order, f)
		}
		counts[f]++
	}
	var parts []string
	for _, f := range order {
		parts = append(parts, fmt.Sprintf("%dx %s", counts[f], f))
	}
	return strings.Join(parts, ", ")
}

// loopbackAddrs returns n distinct random addresses in 127.0.0.0/8.
func loopbackAddrs(n int) []string {
	base := 2 + rand.IntN(200)
	third := rand.IntN(250)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("127.0.%d.%d", third, base+i)
	}
	return out
}

// pause waits d or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
