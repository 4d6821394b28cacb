package discovery

import (
	"context"
	"sync"
	"time"

	"platform.io/client/api/meta"
	"platform.io/client/rest"
	"platform.io/client/workqueue"
)

// Set is the last discovery of one server, refreshed on demand (Refresh,
// Get with a maximum age) or on a period (Run). It is safe for concurrent
// use; concurrent refreshes are one read.
type Set struct {
	rc    *rest.Client
	clock workqueue.Clock

	// refreshing is held for a whole refresh, so callers asking at once
	// share one read.
	refreshing sync.Mutex

	mu   sync.Mutex // guards snap, at, read, reads and err
	snap Snapshot
	at   time.Time
	read bool
	// reads counts the reads started; err is the last one's failure.
	reads int
	err   error
}

// NewSet returns a Set reading through rc, timed by clock (nil for the
// wall clock). It reads nothing until asked.
func NewSet(rc *rest.Client, clock workqueue.Clock) *Set {
	if clock == nil {
		clock = workqueue.RealClock{}
	}
	return &Set{rc: rc, clock: clock}
}

// Refresh returns a snapshot read after the call began: its own read, or
// that of a concurrent call that started after it (callers arriving
// together share one read). A group version that fails keeps the
// resources it had in the previous snapshot. When /api or /apis fails the
// previous snapshot is returned with the error.
func (s *Set) Refresh(ctx context.Context) (Snapshot, error) {
	s.mu.Lock()
	asked := s.reads
	s.mu.Unlock()
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	s.mu.Lock()
	if s.reads > asked { // a read started after the call, and is done
		snap, err := s.snap, s.err
		s.mu.Unlock()
		return snap, err
	}
	s.mu.Unlock()
	return s.refreshLocked(ctx)
}

// Get returns the snapshot if it was read within maxAge, and refreshes it
// otherwise.
func (s *Set) Get(ctx context.Context, maxAge time.Duration) (Snapshot, error) {
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	s.mu.Lock()
	snap, fresh := s.snap, s.read && s.clock.Now().Sub(s.at) <= maxAge
	s.mu.Unlock()
	if fresh {
		return snap, nil
	}
	return s.refreshLocked(ctx)
}

// Last returns the last snapshot read, and whether there is one.
func (s *Set) Last() (Snapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap, s.read
}

// Run refreshes the set every period until ctx ends, the first time at
// once, and hands every outcome to observe.
func (s *Set) Run(ctx context.Context, period time.Duration, observe func(Snapshot, error)) {
	for {
		snap, err := s.Refresh(ctx)
		if ctx.Err() != nil {
			return
		}
		observe(snap, err)
		t := s.clock.NewTimer(period)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
	}
}

// refreshLocked reads and installs a snapshot; the caller holds
// refreshing.
func (s *Set) refreshLocked(ctx context.Context) (Snapshot, error) {
	s.mu.Lock()
	s.reads++
	s.mu.Unlock()
	snap, err := Read(ctx, s.rc)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
	if err != nil {
		return s.snap, err
	}
	if len(snap.Failed) > 0 && s.read {
		snap = keepFailed(snap, s.snap)
	}
	s.snap, s.at, s.read = snap, s.clock.Now(), true
	return snap, nil
}

// keepFailed adds to snap the resources prev had in the group versions
// snap failed to read.
func keepFailed(snap, prev Snapshot) Snapshot {
	out := Snapshot{Resources: append([]Resource(nil), snap.Resources...), Failed: snap.Failed}
	for _, r := range prev.Resources {
		if _, failed := snap.Failed[meta.GroupVersion{Group: r.Group, Version: r.Version}]; failed {
			out.Resources = append(out.Resources, r)
		}
	}
	return out
}
