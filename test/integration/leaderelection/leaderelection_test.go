package leaderelection_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"platform.io/client/leaderelection"
	"platform.io/client/rest"

	"platform.io/platform/test/integration/framework"
)

// Short durations, so a scenario takes seconds.
const (
	leaseDuration = 1500 * time.Millisecond
	renewDeadline = time.Second
	retryPeriod   = 200 * time.Millisecond
	// slack covers requests to the server and scheduling.
	slack = 300 * time.Millisecond
	// effectiveLease is what candidates wait for: the record advertises
	// the lease in whole seconds, rounded up, and that is honoured.
	effectiveLease = 2 * time.Second
)

// actLog is the ordered log of what leaders did, each entry stamped under
// one mutex, so its order is the order of events.
type actLog struct {
	mu      sync.Mutex
	entries []act
}

type act struct {
	holder, what string // what: "start", "act" or "end"
	at           time.Time
}

// add appends an entry unless ctx is done ("end" is always added).
func (l *actLog) add(ctx context.Context, holder, what string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if what != "end" && ctx.Err() != nil {
		return false
	}
	l.entries = append(l.entries, act{holder, what, time.Now()})
	return true
}

// check fails t unless leaders' spans, from "start" to "end", never
// overlap and every act falls inside its holder's span.
func (l *actLog) check(t *testing.T) (leaders []string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	current := ""
	for _, e := range l.entries {
		switch {
		case e.what == "start" && current != "":
			t.Errorf("%s started at %s while %s was leading", e.holder, e.at.Format(time.StampMicro), current)
		case e.what == "start":
			current = e.holder
			leaders = append(leaders, e.holder)
			continue
		case e.holder != current:
			t.Errorf("%s did %q at %s while %q was leading", e.holder, e.what, e.at.Format(time.StampMicro), current)
		case e.what == "end":
			current = ""
		}
	}
	return leaders
}

// work is a leader's OnStartedLeading: it acts every 10ms until ctx is
// done, and does nothing if ctx is done by the time it runs.
func (l *actLog) work(holder string) func(ctx context.Context) {
	return func(ctx context.Context) {
		if !l.add(ctx, holder, "start") {
			return
		}
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for l.add(ctx, holder, "act") {
			select {
			case <-ctx.Done():
			case <-tick.C:
			}
		}
		l.add(ctx, holder, "end")
	}
}

// flakyLock is a Lock that fails every call once failing is set.
type flakyLock struct {
	leaderelection.Lock
	failing atomic.Bool
}

var errInjected = errors.New("injected lock failure")

func (f *flakyLock) Get(ctx context.Context) (*leaderelection.LeaderElectionRecord, []byte, error) {
	if f.failing.Load() {
		return nil, nil, errInjected
	}
	return f.Lock.Get(ctx)
}

func (f *flakyLock) Create(ctx context.Context, r leaderelection.LeaderElectionRecord) error {
	if f.failing.Load() {
		return errInjected
	}
	return f.Lock.Create(ctx, r)
}

func (f *flakyLock) Update(ctx context.Context, r leaderelection.LeaderElectionRecord) error {
	if f.failing.Load() {
		return errInjected
	}
	return f.Lock.Update(ctx, r)
}

// candidate is one running elector.
type candidate struct {
	id      string
	le      *leaderelection.LeaderElector
	lock    *flakyLock
	cancel  context.CancelFunc
	started chan struct{} // closed at OnStartedLeading
	stopped chan struct{} // closed at OnStoppedLeading
	done    chan struct{} // closed when Run returns
}

func newClient(t *testing.T, s *framework.Server) leaderelection.Client {
	t.Helper()
	c, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	return leaderelection.NewRESTClient(c)
}

// startCandidate runs a candidate for the lock kind/name, with its own
// client, until the test ends.
func startCandidate(t *testing.T, s *framework.Server, log *actLog, kind, name, id string) *candidate {
	t.Helper()
	lock, err := leaderelection.NewLock(kind, "", name, id, newClient(t, s))
	if err != nil {
		t.Fatal(err)
	}
	c := &candidate{id: id, lock: &flakyLock{Lock: lock},
		started: make(chan struct{}), stopped: make(chan struct{}), done: make(chan struct{})}
	le, err := leaderelection.New(leaderelection.Config{
		Lock: c.lock, LeaseDuration: leaseDuration, RenewDeadline: renewDeadline, RetryPeriod: retryPeriod,
		ReleaseOnCancel: true, Name: name,
		OnError: func(err error) {
			if !errors.Is(err, errInjected) {
				t.Logf("%s: %v", id, err)
			}
		},
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				close(c.started)
				log.work(id)(ctx)
			},
			OnStoppedLeading: func() { close(c.stopped) },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	c.le = le
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() {
		defer close(c.done)
		le.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-c.done
	})
	return c
}
