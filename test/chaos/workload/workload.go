package workload

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"platform.io/platform/test/chaos/check"
)

// SentinelKey is the key written once after the clients stop: its
// resourceVersion is the last change every watcher must reach.
const SentinelKey = "sentinel"

// Config sizes a run.
type Config struct {
	// Clients and Watchers count the concurrent clients and watchers;
	// every second watcher lags: it waits LagBy before resuming a stream.
	Clients, Watchers int
	LagBy             time.Duration
	// Keys are the ConfigMaps' names the clients use.
	Keys []string
	// OpTimeout bounds each call; a call that runs out is Unknown.
	OpTimeout time.Duration
	// SettleTimeout bounds the end: the sentinel write, the final list and
	// the watchers catching up, after the faults have stopped.
	SettleTimeout time.Duration
	// Seed makes the clients' choices repeatable.
	Seed uint64
}

// Run starts the watchers, runs the clients until ctx ends, then writes
// the sentinel, takes the final quorum list, waits until every watcher
// has seen the sentinel, and returns the history. It fails only when the
// end cannot be reached within SettleTimeout; anomalies are for the
// checker.
func Run(ctx context.Context, cms *ConfigMaps, cfg Config) (check.History, error) {
	rec := check.NewRecorder()
	h := check.History{Keys: append(append([]string(nil), cfg.Keys...), SentinelKey)}
	wctx, stopWatchers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWatchers()
	watchers := make([]*watcher, cfg.Watchers)
	var wg sync.WaitGroup
	for i := range watchers {
		// Watchers list as clients of their own, after the workload's.
		w := &watcher{id: cfg.Clients + 1 + i, cms: cms, rec: rec, timeout: cfg.OpTimeout,
			rng: rand.New(rand.NewPCG(cfg.Seed, uint64(1000+i)))}
		if i%2 == 1 {
			w.resumeDelay = cfg.LagBy
		}
		watchers[i] = w
		wg.Go(func() { w.run(wctx) })
	}
	runClients(ctx, cfg.Clients, cms, rec, cfg.Keys, cfg.OpTimeout, cfg.Seed)

	settle, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.SettleTimeout)
	defer cancel()
	target, err := writeSentinel(settle, cms, rec, cfg)
	if err == nil {
		var final check.Op
		final, err = finalList(settle, cms, rec, cfg)
		h.Final = &final
	}
	if err == nil {
		err = waitWatchers(settle, watchers, target)
	}
	stopWatchers()
	wg.Wait()
	h.Ops = rec.Ops()
	for _, w := range watchers {
		h.Watches = append(h.Watches, check.Watch{ID: w.id, Sessions: w.sessions})
	}
	return h, err
}

// writeSentinel creates the sentinel key, retrying unknown outcomes, and
// returns its resourceVersion; each attempt is recorded.
func writeSentinel(ctx context.Context, cms *ConfigMaps, rec *check.Recorder, cfg Config) (int64, error) {
	w := &worker{id: cfg.Clients, cms: cms, rec: rec, keys: []string{SentinelKey}, timeout: cfg.OpTimeout, known: map[string]check.Object{}}
	for ctx.Err() == nil {
		w.create(ctx, SentinelKey)
		if _, ok := w.known[SentinelKey]; !ok {
			// Unknown, or it exists already because an earlier
			// attempt went through: read it.
			w.get(ctx, SentinelKey)
		}
		if obj, ok := w.known[SentinelKey]; ok {
			return obj.RV, nil
		}
		pause(ctx, retryWait)
	}
	return 0, fmt.Errorf("write the sentinel: %w", ctx.Err())
}

// finalList takes the quorum list every watcher's state must end equal
// to; it is not recorded among the operations.
func finalList(ctx context.Context, cms *ConfigMaps, rec *check.Recorder, cfg Config) (check.Op, error) {
	scratch := check.NewRecorder()
	for ctx.Err() == nil {
		lctx, cancel := context.WithTimeout(ctx, cfg.OpTimeout)
		call := rec.Now()
		op, err := listOnce(lctx, scratch, cms, -1)
		cancel()
		if err == nil {
			// Times on the run's clock, not the scratch recorder's.
			op.Call, op.Return = call, rec.Now()
			return op, nil
		}
		pause(ctx, retryWait)
	}
	return check.Op{}, fmt.Errorf("final list: %w", ctx.Err())
}

// waitWatchers waits until every watcher has seen revision target.
func waitWatchers(ctx context.Context, watchers []*watcher, target int64) error {
	for {
		behind := 0
		for _, w := range watchers {
			if w.last.Load() < target {
				behind++
			}
		}
		if behind == 0 {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%d watchers did not reach the sentinel's resourceVersion %d: %w", behind, target, ctx.Err())
		}
		pause(ctx, 50*time.Millisecond)
	}
}
