package cacher

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestProgressRequestsAreShared: however many reads wait for the cache,
// etcd is asked for progress once per interval, and not at all once none
// waits.
func TestProgressRequestsAreShared(t *testing.T) {
	var requests atomic.Int64
	p := &progressRequester{request: func(context.Context) error { requests.Add(1); return nil }, interval: 10 * time.Millisecond}
	const waiters = 500
	dones := make([]func(), waiters)
	var wg sync.WaitGroup
	for i := range waiters {
		wg.Go(func() { dones[i] = p.want() })
	}
	wg.Wait()
	waitFor(t, "three requests", func() bool { return requests.Load() >= 3 })
	for _, done := range dones {
		done()
		done() // a second call is harmless
	}
	n := requests.Load()
	waitFor(t, "the loop to end", func() bool { p.mu.Lock(); defer p.mu.Unlock(); return !p.running })
	if n > 10 {
		t.Errorf("%d waiters caused %d progress requests over three intervals, want one per interval", waiters, n)
	}
	after := requests.Load()
	if after > n+1 {
		t.Errorf("%d progress requests after every waiter left, want at most 1", after-n)
	}
	// A new waiter starts asking again.
	done := p.want()
	defer done()
	waitFor(t, "a request for a new waiter", func() bool { return requests.Load() > after })
}

// waitFor fails t unless cond holds within 10s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
