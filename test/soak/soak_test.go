package soak

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Settings of a soak run, from the environment `make soak` sets.
const (
	envDuration = "SOAK_DURATION"
	envInterval = "SOAK_INTERVAL"
	envOut      = "SOAK_OUT"
	// cyclePeriod paces the workload's cycles; nodes is how many
	// simulated nodes run its pods.
	cyclePeriod = 20 * time.Second
	nodes       = 3
	// maxOpErrors is the share of operations that may fail (a conflict, a
	// timeout under the machine's load) before the run fails.
	maxOpErrors = 0.01
	// drainTimeout bounds the wait for the last cycle after the run ends.
	drainTimeout = 5 * time.Minute
)

type settings struct {
	duration, interval time.Duration
	out                string
}

func settingsFromEnv(t *testing.T) settings {
	t.Helper()
	s := settings{interval: 30 * time.Second, out: filepath.Join("..", "..", "_output", "soak")}
	var err error
	if s.duration, err = time.ParseDuration(os.Getenv(envDuration)); err != nil || s.duration <= 0 {
		t.Fatalf("%s=%q: want a positive duration: %v", envDuration, os.Getenv(envDuration), err)
	}
	if v := os.Getenv(envInterval); v != "" {
		if s.interval, err = time.ParseDuration(v); err != nil || s.interval <= 0 {
			t.Fatalf("%s=%q: want a positive duration: %v", envInterval, v, err)
		}
	}
	if v := os.Getenv(envOut); v != "" {
		s.out = v
	}
	if err := os.MkdirAll(s.out, 0o755); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSoak is `make soak`: the whole control plane under the mixed
// workload for SOAK_DURATION, sampled every SOAK_INTERVAL; it fails when
// a daemon's RSS, goroutines or open files grow after the warm-up, when a
// daemon exits, or when the workload's checks fail. It writes
// samples.csv and summary.md under SOAK_OUT (_output/soak).
func TestSoak(t *testing.T) {
	if os.Getenv(envDuration) == "" {
		t.Skipf("the soak runs only when %s is set: use `make soak` (SOAK_DURATION=1h by default)", envDuration)
	}
	cfg := settingsFromEnv(t)
	c := StartCluster(t, nodes)
	w := NewWorkload(c, cyclePeriod)
	setupCtx, cancelSetup := context.WithTimeout(context.Background(), 3*time.Minute)
	err := w.Setup(setupCtx)
	cancelSetup()
	if err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	rec, err := NewRecorder(filepath.Join(cfg.out, "samples.csv"), start)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	ctx, cancel := context.WithTimeout(context.Background(), cfg.duration)
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); w.Run(ctx) }()
	// Heap profiles at the end of the warm-up and at the end of the run
	// say where memory that the samples show growing went.
	warm := time.AfterFunc(Warmup(cfg.duration), func() { saveProfiles(ctx, t, c, cfg.out, "warmup") })
	defer warm.Stop()
	samples, sampleErrs := sampleUntil(ctx, t, c, rec, cfg.interval, cancel)
	saveProfiles(context.Background(), t, c, cfg.out, "end")
	select {
	case <-done:
	case <-time.After(drainTimeout):
		t.Fatalf("the workload did not stop within %v of the end", drainTimeout)
	}
	elapsed := time.Since(start)

	rows := JudgeAll(rec.Series, Warmup(cfg.duration), DefaultThresholds())
	summary := w.summary(rows, cfg, elapsed, samples, sampleErrs)
	if err := os.WriteFile(filepath.Join(cfg.out, "summary.md"), []byte(summary), 0o644); err != nil {
		t.Error(err)
	}
	t.Logf("soak summary (also in %s):\n%s", filepath.Join(cfg.out, "summary.md"), summary)
	for _, f := range Failures(rows) {
		t.Error(f)
	}
	for _, f := range w.Checks.Failures() {
		t.Errorf("workload check failed: %s", f)
	}
	if ok, failed := w.Ops.Totals(); ok == 0 || float64(failed) > maxOpErrors*float64(ok+failed) {
		t.Errorf("%d of %d operations failed (at most %.0f%% may): %s", failed, ok+failed, 100*maxOpErrors, strings.Join(w.Ops.Failures(), "; "))
	}
	if ok, _ := w.Checks.Count("deployment converges"); ok < 2 {
		t.Errorf("the deployment converged %d times: the workload did not run", ok)
	}
	if sampleErrs > samples/10 {
		t.Errorf("%d of %d samplings had errors", sampleErrs, samples)
	}
}

// saveProfiles saves the daemons' heap profiles under dir, logging
// rather than failing: they help read a failure, they do not judge.
func saveProfiles(ctx context.Context, t *testing.T, c *Cluster, dir, label string) {
	pctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := c.SaveHeapProfiles(pctx, dir, label); err != nil {
		t.Logf("heap profiles (%s): %v", label, err)
	}
}

// sampleUntil samples every target every interval until ctx ends, and
// ends the run (cancel) when a daemon exits. It returns how many
// samplings it made and how many of them had an error.
func sampleUntil(ctx context.Context, t *testing.T, c *Cluster, rec *Recorder, interval time.Duration, cancel func()) (n, errs int) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		sctx, scancel := context.WithTimeout(ctx, interval)
		s, err := Collect(sctx, c.Targets)
		scancel()
		if ctx.Err() != nil {
			return n, errs
		}
		n++
		if err != nil {
			errs++
			t.Logf("sample %d: %v", n, err)
		}
		if err := rec.Add(time.Now(), s); err != nil {
			t.Errorf("record samples: %v", err)
		}
		if exited := c.Exited(); len(exited) > 0 {
			for _, e := range exited {
				t.Error(e)
			}
			cancel()
			return n, errs
		}
		select {
		case <-ctx.Done():
			return n, errs
		case <-tick.C:
		}
	}
}

// summary renders the run's tables as Markdown.
func (w *Workload) summary(rows []Row, cfg settings, elapsed time.Duration, samples, sampleErrs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Soak of %v (SOAK_DURATION=%v), sampled every %v (%d samplings, %d with errors), warm-up %v; "+
		"%d workload cycles, one every %v, on %d simulated nodes; finished %s.\n\n",
		elapsed.Round(time.Second), cfg.duration, cfg.interval, samples, sampleErrs, Warmup(cfg.duration),
		w.Cycles, w.Period, w.c.Nodes, time.Now().UTC().Format(time.RFC3339))
	_ = WriteTable(&b, rows)
	b.WriteString("\n")
	_ = w.Checks.WriteTable(&b, "workload check")
	b.WriteString("\n")
	_ = w.Ops.WriteTable(&b, "operation")
	b.WriteString("\nWatches: " + strings.Join(w.WatchSummary(), "; ") + ".\n")
	return b.String()
}
