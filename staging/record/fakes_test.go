package record

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// fakeClock is a Clock that moves only when told to.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []clockWaiter
}

type clockWaiter struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, clockWaiter{at: c.now.Add(d), ch: ch})
	return ch
}

// Step moves the clock by d and fires the waiters due.
func (c *fakeClock) Step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waiters = kept
}

// waiters returns how many After channels have not fired.
func (c *fakeClock) pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// fakeSink keeps events in memory, in the way the API server would, and
// lets tests fail or hold its calls.
type fakeSink struct {
	mu     sync.Mutex
	events map[string]*corev1.Event // by namespace/name
	calls  []string                 // "create name", "update name", "patch name"
	rv     int
	// hook, when set, runs first in every call; a non-nil error fails it.
	hook func(op string, ev *corev1.Event) error
}

func newFakeSink() *fakeSink { return &fakeSink{events: map[string]*corev1.Event{}} }

func (s *fakeSink) begin(op string, ev *corev1.Event) error {
	s.mu.Lock()
	s.calls = append(s.calls, op+" "+ev.Name)
	hook := s.hook
	s.mu.Unlock()
	if hook != nil {
		return hook(op, ev)
	}
	return nil
}

func (s *fakeSink) store(ev *corev1.Event) *corev1.Event {
	s.rv++
	cp := copyEvent(ev)
	cp.ResourceVersion = strconv.Itoa(s.rv)
	s.events[ev.Namespace+"/"+ev.Name] = cp
	return copyEvent(cp)
}

func (s *fakeSink) Create(_ context.Context, ev *corev1.Event) (*corev1.Event, error) {
	if err := s.begin("create", ev); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.events[ev.Namespace+"/"+ev.Name]; ok {
		return nil, apierrors.NewAlreadyExists(corev1.Resource("events"), ev.Name)
	}
	return s.store(ev), nil
}

func (s *fakeSink) Update(_ context.Context, ev *corev1.Event) (*corev1.Event, error) {
	if err := s.begin("update", ev); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store(ev), nil
}

func (s *fakeSink) Patch(_ context.Context, ev *corev1.Event, patch []byte) (*corev1.Event, error) {
	if err := s.begin("patch", ev); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.events[ev.Namespace+"/"+ev.Name]
	if !ok {
		return nil, apierrors.NewNotFound(corev1.Resource("events"), ev.Name)
	}
	next := copyEvent(cur)
	if err := json.Unmarshal(patch, next); err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return s.store(next), nil
}

// list returns the stored events.
func (s *fakeSink) list() []*corev1.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*corev1.Event
	for _, ev := range s.events {
		out = append(out, copyEvent(ev))
	}
	return out
}

// callLog returns the calls made so far.
func (s *fakeSink) callLog() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

// pod returns a pod in namespace ns, with its TypeMeta set.
func pod(ns, name string) *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name, UID: meta.UID("uid-" + name), ResourceVersion: "7"},
	}
}

// shutdown flushes b, failing the test if that takes long.
func shutdown(t *testing.T, b *Broadcaster) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// eventually polls cond until it holds, failing the test after a while.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
