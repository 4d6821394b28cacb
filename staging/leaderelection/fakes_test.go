package leaderelection

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	coordinationv1 "platform.io/client/api/coordination/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// The unit tests run in synctest bubbles: time.Now and timers read the
// bubble's fake time, which moves only when every goroutine is blocked, so
// every wait below is exact and instant. Candidates read that time through
// skewClock, a fake Clock offset by any amount, to model replicas whose
// wall clocks disagree.

// skewClock is the bubble's time shifted by offset.
type skewClock struct{ offset time.Duration }

func (c skewClock) Now() time.Time                 { return time.Now().Add(c.offset) }
func (c skewClock) NewTimer(d time.Duration) Timer { return RealClock{}.NewTimer(d) }

// Short names for the default durations.
const (
	lease = DefaultLeaseDuration
	renew = DefaultRenewDeadline
	retry = DefaultRetryPeriod
)

// eventLog is the ordered record of what candidates and the store did,
// each entry stamped with the bubble's (unskewed) time.
type eventLog struct {
	mu      sync.Mutex
	entries []logEntry
}

type logEntry struct {
	what string
	at   time.Time
}

func (l *eventLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, logEntry{fmt.Sprintf(format, args...), time.Now()})
}

// all returns the entries' texts in order.
func (l *eventLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, len(l.entries))
	for i, e := range l.entries {
		out[i] = e.what
	}
	return out
}

// at returns when the last entry with text what was added, and whether
// there was one.
func (l *eventLog) at(what string) (time.Time, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range slices.Backward(l.entries) {
		if e.what == what {
			return e.at, true
		}
	}
	return time.Time{}, false
}

// fakeStore is the API server's copy of one lock record: a version
// bumped on every write, for compare-and-swap.
type fakeStore struct {
	log     *eventLog
	mu      sync.Mutex
	rec     *LeaderElectionRecord
	version int
}

func (s *fakeStore) record() (LeaderElectionRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec == nil {
		return LeaderElectionRecord{}, false
	}
	return *s.rec, true
}

// put overwrites the record, as another client would.
func (s *fakeStore) put(r LeaderElectionRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rec = &r
	s.version++
}

// fakeLock is one candidate's Lock on a fakeStore.
type fakeLock struct {
	store *fakeStore
	id    string

	failing   atomic.Bool  // every call fails
	conflicts atomic.Int32 // the next n Updates fail with a Conflict
	wedging   atomic.Bool  // Update blocks until unwedge is closed, ignoring ctx
	unwedge   chan struct{}
	// slowUpdates makes Update take this long; the write lands even if
	// ctx is done first, as on a server, but the caller sees ctx's error.
	slowUpdates atomic.Int64
	// lostAnswers makes the next n Updates land but report an error.
	lostAnswers atomic.Int32
	// hanging makes the next n Updates hang, never landing, until their
	// context is done: a server that does not answer.
	hanging atomic.Int32

	mu   sync.Mutex
	seen int
}

var errBroken = errors.New("fake lock: broken")

// leases is the resource fake errors name.
func leases() meta.GroupResource { return coordinationv1.Resource("leases") }

func (l *fakeLock) Get(context.Context) (*LeaderElectionRecord, []byte, error) {
	if l.failing.Load() {
		return nil, nil, errBroken
	}
	s := l.store
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec == nil {
		return nil, nil, apierrors.NewNotFound(leases(), "lock")
	}
	raw, err := json.Marshal(s.rec)
	if err != nil {
		return nil, nil, err
	}
	l.setSeen(s.version)
	r := *s.rec
	return &r, raw, nil
}

func (l *fakeLock) Create(_ context.Context, r LeaderElectionRecord) error {
	if l.failing.Load() {
		return errBroken
	}
	s := l.store
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec != nil {
		return apierrors.NewAlreadyExists(leases(), "lock")
	}
	return l.storeLocked(r)
}

func (l *fakeLock) Update(ctx context.Context, r LeaderElectionRecord) error {
	if l.wedging.Load() {
		<-l.unwedge
		return errBroken
	}
	if l.failing.Load() {
		return errBroken
	}
	if ctx.Err() != nil {
		return ctx.Err() // as a real client, which sends nothing then
	}
	if l.hanging.Add(-1) >= 0 {
		<-ctx.Done()
		return ctx.Err()
	}
	if l.conflicts.Add(-1) >= 0 {
		return apierrors.NewConflict(leases(), "lock", errors.New("injected"))
	}
	var aborted error
	if d := time.Duration(l.slowUpdates.Load()); d > 0 {
		select {
		case <-ctx.Done():
			aborted = ctx.Err()
			time.Sleep(d)
		case <-time.After(d):
		}
	}
	lost := l.lostAnswers.Add(-1) >= 0
	s := l.store
	s.mu.Lock()
	defer s.mu.Unlock()
	l.mu.Lock()
	seen := l.seen
	l.mu.Unlock()
	if s.rec == nil {
		return apierrors.NewNotFound(leases(), "lock")
	}
	if seen != s.version {
		return apierrors.NewConflict(leases(), "lock", errors.New("version changed"))
	}
	if aborted != nil || lost {
		s.rec = &r
		s.version++
		return errors.Join(aborted, errors.New("fake lock: answer lost"))
	}
	return l.storeLocked(r)
}

// storeLocked writes r; s.mu is held.
func (l *fakeLock) storeLocked(r LeaderElectionRecord) error {
	s := l.store
	s.rec = &r
	s.version++
	l.setSeen(s.version)
	if s.log != nil {
		s.log.add("write %s by %s", r.HolderIdentity, l.id)
	}
	return nil
}

func (l *fakeLock) setSeen(v int) {
	l.mu.Lock()
	l.seen = v
	l.mu.Unlock()
}

func (l *fakeLock) RecordEvent(string) {}
func (l *fakeLock) Identity() string   { return l.id }
func (l *fakeLock) Describe() string   { return "fake/" + l.id }

// countingMetrics counts calls per kind.
type countingMetrics struct{ on, off, slow atomic.Int32 }

func (m *countingMetrics) LeaderOn(string)          { m.on.Add(1) }
func (m *countingMetrics) LeaderOff(string)         { m.off.Add(1) }
func (m *countingMetrics) SlowpathExercised(string) { m.slow.Add(1) }

// candidate is one running elector in a test.
type candidate struct {
	le      *LeaderElector
	lock    *fakeLock
	cancel  context.CancelFunc
	done    chan struct{}
	metrics *countingMetrics
}

// options for startCandidate.
type candOpts struct {
	clock Clock
	// work, when set, replaces the default OnStartedLeading body (which
	// waits for ctx); it runs after "started" is logged.
	work    func(ctx context.Context)
	release bool
}

// startCandidate runs an elector for id on store, logging its callbacks
// (with the bubble's time) into store.log.
func startCandidate(t *testing.T, store *fakeStore, id string, o candOpts) *candidate {
	t.Helper()
	log := store.log
	c := &candidate{lock: &fakeLock{store: store, id: id, unwedge: make(chan struct{})}, done: make(chan struct{}), metrics: &countingMetrics{}}
	if o.clock == nil {
		o.clock = skewClock{}
	}
	le, err := New(Config{
		Lock: c.lock, Clock: o.clock, ReleaseOnCancel: o.release, Name: "test", Metrics: c.metrics,
		Callbacks: Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				log.add("started %s", id)
				if o.work != nil {
					o.work(ctx)
				} else {
					<-ctx.Done()
				}
				log.add("returned %s", id)
			},
			OnStoppedLeading: func() { log.add("stopped %s", id) },
			OnNewLeader:      func(h string) { log.add("new %s sees %s", id, h) },
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
		log.add("ran %s", id)
	}()
	return c
}

// stop cancels the candidate and waits for Run to return.
func (c *candidate) stop() {
	c.cancel()
	<-c.done
}

// runBubble runs f in a synctest bubble with a fresh store and log.
func runBubble(t *testing.T, f func(t *testing.T, store *fakeStore)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		f(t, &fakeStore{log: &eventLog{}})
	})
}

// mustAt returns when what was logged, failing t if it never was.
func mustAt(t *testing.T, log *eventLog, what string) time.Time {
	t.Helper()
	at, ok := log.at(what)
	if !ok {
		t.Fatalf("%q never happened; log: %q", what, log.all())
	}
	return at
}
