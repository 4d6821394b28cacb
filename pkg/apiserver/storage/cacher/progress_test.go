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
	asked := make(chan struct{}, 1024) // one per request
	ticks := make(chan time.Time)      // the test's clock: each send is one interval
	p := &progressRequester{
		request:  func(context.Context) error { requests.Add(1); asked <- struct{}{}; return nil },
		interval: 10 * time.Millisecond,
		ticks:    ticks,
	}
	const waiters = 500
	dones := make([]func(), waiters)
	var wg sync.WaitGroup
	for i := range waiters {
		wg.Go(func() { dones[i] = p.want() })
	}
	wg.Wait()
	// One request at once, then one per interval: three over two intervals.
	waitAsked(t, asked)
	for range 2 {
		ticks <- time.Time{}
		waitAsked(t, asked)
	}
	for _, done := range dones {
		done()
		done() // a second call is harmless
	}
	n := requests.Load()
	// The next interval finds no one waiting: the loop ends without asking.
	ticks <- time.Time{}
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
	waitAsked(t, asked)
	if requests.Load() <= after {
		t.Error("no request for a new waiter")
	}
}

// waitAsked fails t unless a progress request is made within 10s.
func waitAsked(t *testing.T, asked <-chan struct{}) {
	t.Helper()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("no progress request within 10s")
	}
}
