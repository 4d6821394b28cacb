package informer

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

func seed(s *fakeServer, n int) {
	for i := range n {
		s.create(pod("ns", fmt.Sprintf("p%04d", i), nil))
	}
}

// storeMatches reports whether store holds exactly the server's objects.
func storeMatches(s *fakeServer, store *Store[*corev1.Pod]) error {
	s.mu.Lock()
	want := map[string]string{}
	for k, p := range s.objs {
		want[k] = p.ResourceVersion
	}
	s.mu.Unlock()
	got := map[string]string{}
	for _, p := range store.List() {
		got[Key(p)] = p.ResourceVersion
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return fmt.Errorf("store %v, server %v", got, want)
	}
	return nil
}

func TestReflectorChunkedList(t *testing.T) {
	cases := []struct {
		name      string
		objects   int
		expire    int
		wantLists []string // "rv=<rv> limit=<n> continue=<set?>"
	}{
		{"single page", 10, 0, []string{"rv=0 limit=500 cont=false"}},
		{"three pages", 1203, 0, []string{
			"rv=0 limit=500 cont=false", "rv= limit=500 cont=true", "rv= limit=500 cont=true"}},
		{"expired continue restarts fresh", 1203, 1, []string{
			"rv=0 limit=500 cont=false", "rv= limit=500 cont=true",
			"rv= limit=500 cont=false", "rv= limit=500 cont=true", "rv= limit=500 cont=true"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer()
			seed(s, tc.objects)
			s.set(func(s *fakeServer) { s.expireContinues = tc.expire })
			store := NewStore[*corev1.Pod]()
			var errs atomic.Int32
			r := NewReflector[*corev1.Pod](s, store, ReflectorOptions{
				Clock: newFakeClock(), OnError: func(error) { errs.Add(1) }})
			run(t, r)
			waitSynced(t, r)
			lists, _ := s.calls()
			var got []string
			for _, o := range lists {
				got = append(got, fmt.Sprintf("rv=%s limit=%d cont=%v", o.ResourceVersion, o.Limit, o.Continue != ""))
			}
			if !slices.Equal(got, tc.wantLists) {
				t.Errorf("lists:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.wantLists, "\n"))
			}
			if err := storeMatches(s, store); err != nil {
				t.Error(err)
			}
			if got, want := store.ResourceVersion(), s.currentRV(); got != want {
				t.Errorf("store resourceVersion %q, want %q", got, want)
			}
			if int(errs.Load()) != tc.expire {
				t.Errorf("%d errors reported, want %d", errs.Load(), tc.expire)
			}
		})
	}
}

// TestReflectorResumesAfterDrop cuts the stream, writes while no watch is
// open, and checks the next watch resumes exactly where the last one ended.
func TestReflectorResumesAfterDrop(t *testing.T) {
	s := newFakeServer()
	seed(s, 3)
	rec := &recorder{}
	inf, _ := newPodInformer(t, s, rec, Options{})
	run(t, inf)
	waitSynced(t, inf)
	up := s.update(pod("ns", "p0000", map[string]string{"v": "1"}))
	rec.wait(t, 4)
	if got := inf.LastSyncResourceVersion(); got != up.ResourceVersion {
		t.Fatalf("last resourceVersion %s, want %s", got, up.ResourceVersion)
	}

	release := s.hold()
	s.drop()
	eventually(t, "reconnect attempt", func() bool { _, w := s.calls(); return len(w) == 2 })
	s.create(pod("ns", "p0003", nil))
	s.update(pod("ns", "p0001", map[string]string{"v": "1"}))
	s.remove("ns", "p0002")
	release()

	want := []string{
		"add ns/p0000@101 initial", "add ns/p0001@102 initial", "add ns/p0002@103 initial",
		"update ns/p0000@101->104",
		"add ns/p0003@105", "update ns/p0001@102->106", "delete ns/p0002@107",
	}
	if got := rec.wait(t, len(want)); !slices.Equal(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	lists, watches := s.calls()
	if len(lists) != 1 {
		t.Errorf("%d lists, want 1 (no relist)", len(lists))
	}
	if watches[1].ResourceVersion != up.ResourceVersion {
		t.Errorf("resumed from %q, want %q", watches[1].ResourceVersion, up.ResourceVersion)
	}
	if err := storeMatches(s, inf.GetStore()); err != nil {
		t.Error(err)
	}
}

func TestReflectorWatchOptions(t *testing.T) {
	s := newFakeServer()
	seed(s, 1)
	r := NewReflector[*corev1.Pod](s, NewStore[*corev1.Pod](), ReflectorOptions{
		Clock: newFakeClock(), LabelSelector: "app=web", FieldSelector: "spec.nodeName=n1"})
	run(t, r)
	eventually(t, "watch", func() bool { _, w := s.calls(); return len(w) == 1 })
	lists, watches := s.calls()
	w := watches[0]
	if !w.Watch || !w.AllowWatchBookmarks || w.ResourceVersion != "101" {
		t.Errorf("watch options %+v", w)
	}
	if w.TimeoutSeconds < 300 || w.TimeoutSeconds >= 600 {
		t.Errorf("timeoutSeconds %d, want in [300, 600)", w.TimeoutSeconds)
	}
	for _, o := range []meta.ListOptions{lists[0], w} {
		if o.LabelSelector != "app=web" || o.FieldSelector != "spec.nodeName=n1" {
			t.Errorf("selectors not passed: %+v", o)
		}
	}
}

func TestReflectorBookmarkAdvancesResourceVersion(t *testing.T) {
	s := newFakeServer()
	seed(s, 2)
	rec := &recorder{}
	inf, _ := newPodInformer(t, s, rec, Options{})
	run(t, inf)
	waitSynced(t, inf)
	eventually(t, "watch", func() bool { _, w := s.calls(); return len(w) == 1 })
	s.bump(40) // writes to other resources
	s.bookmark()
	want := s.currentRV()
	eventually(t, "bookmark", func() bool { return inf.LastSyncResourceVersion() == want })

	release := s.hold()
	s.drop()
	eventually(t, "reconnect attempt", func() bool { _, w := s.calls(); return len(w) == 2 })
	s.create(pod("ns", "late", nil))
	release()
	events := rec.wait(t, 3)
	if events[2] != "add ns/late@143" || len(events) != 3 {
		t.Errorf("events %q", events)
	}
	if _, w := s.calls(); w[1].ResourceVersion != want {
		t.Errorf("resumed from %q, want bookmark's %q", w[1].ResourceVersion, want)
	}
}

// TestReflectorGone makes the resume point unavailable in each way a server
// can say so, and checks the reflector relists and reports only differences.
func TestReflectorGone(t *testing.T) {
	cases := []struct {
		name       string
		fail       func(s *fakeServer)
		wantRelist bool
	}{
		{"ERROR event 410 Expired after compaction", (*fakeServer).compact, true},
		{"HTTP 410 Gone after compaction", func(s *fakeServer) {
			s.compact()
			s.set(func(s *fakeServer) { s.tooOldAsHTTP = true })
		}, true},
		{"HTTP 410 with a bare code", func(s *fakeServer) {
			s.set(func(s *fakeServer) { s.watchErrs = []error{apierrors.FromHTTPStatus(http.StatusGone, "gone", 0)} })
		}, true},
		{"HTTP 500 resumes without relist", func(s *fakeServer) {
			s.set(func(s *fakeServer) { s.watchErrs = []error{apierrors.NewInternalError(fmt.Errorf("boom"))} })
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer()
			seed(s, 3) // p0000@101, p0001@102, p0002@103
			rec := &recorder{}
			inf, _ := newPodInformer(t, s, rec, Options{})
			run(t, inf)
			waitSynced(t, inf)
			s.update(pod("ns", "p0000", map[string]string{"v": "1"})) // @104
			rec.wait(t, 4)

			release := s.hold()
			s.drop()
			eventually(t, "reconnect attempt", func() bool { _, w := s.calls(); return len(w) == 2 })
			s.update(pod("ns", "p0001", map[string]string{"v": "2"})) // @105
			s.remove("ns", "p0002")                                   // @106
			s.create(pod("ns", "p0009", nil))                         // @107
			tc.fail(s)
			release()

			var want []string
			if tc.wantRelist { // list order (by key), then deletions
				want = []string{"update ns/p0001@102->105", "add ns/p0009@107", "delete ns/p0002@103"}
			} else {
				want = []string{"update ns/p0001@102->105", "delete ns/p0002@106", "add ns/p0009@107"}
			}
			got := rec.wait(t, 4+len(want))[4:]
			if !slices.Equal(got, want) {
				t.Errorf("events after the break:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			lists, _ := s.calls()
			if tc.wantRelist && (len(lists) != 2 || lists[1].ResourceVersion != "") {
				t.Errorf("lists %+v, want a second, fresh (rv=\"\") list", lists)
			}
			if !tc.wantRelist && len(lists) != 1 {
				t.Errorf("%d lists, want 1", len(lists))
			}
			if err := storeMatches(s, inf.GetStore()); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestReflectorGoneEvent sends a 410 ERROR event on a live stream.
func TestReflectorGoneEvent(t *testing.T) {
	s := newFakeServer()
	seed(s, 2)
	inf, _ := newPodInformer(t, s, nil, Options{})
	run(t, inf)
	waitSynced(t, inf)
	s.update(pod("ns", "p0000", nil))
	eventually(t, "update", func() bool { return inf.LastSyncResourceVersion() == s.currentRV() })
	s.sendError(apierrors.NewResourceExpired("too old").Status())
	eventually(t, "relist", func() bool { l, _ := s.calls(); return len(l) == 2 })
	if err := storeMatches(s, inf.GetStore()); err != nil {
		t.Error(err)
	}
}

// TestReflectorBackoff checks that repeated watch failures wait on the
// clock, and that every retry resumes from the same resourceVersion.
func TestReflectorBackoff(t *testing.T) {
	s := newFakeServer()
	seed(s, 1)
	boom := apierrors.NewServiceUnavailable("down")
	s.set(func(s *fakeServer) { s.watchErrs = []error{boom, boom, boom} })
	clock := newFakeClock()
	var errs atomic.Int32
	r := NewReflector[*corev1.Pod](s, NewStore[*corev1.Pod](), ReflectorOptions{
		Clock: clock, OnError: func(error) { errs.Add(1) }})
	run(t, r)

	// The first failure retries at once; the second waits.
	eventually(t, "backoff timer", func() bool { return clock.Pending() == 1 })
	if _, w := s.calls(); len(w) != 2 {
		t.Fatalf("%d watch calls before the first wait, want 2", len(w))
	}
	clock.Step(DefaultInitialBackoff*3/2 + time.Millisecond)
	eventually(t, "second backoff timer", func() bool { _, w := s.calls(); return len(w) == 3 && clock.Pending() == 1 })
	clock.Step(DefaultInitialBackoff * 3)
	eventually(t, "fourth watch", func() bool { _, w := s.calls(); return len(w) == 4 })
	lists, watches := s.calls()
	for _, w := range watches {
		if w.ResourceVersion != "101" {
			t.Errorf("watch from %q, want 101", w.ResourceVersion)
		}
	}
	if len(lists) != 1 || errs.Load() != 3 {
		t.Errorf("%d lists and %d errors, want 1 and 3", len(lists), errs.Load())
	}
}

// TestReflectorListFailureBacksOff checks the first list is retried until
// it succeeds, without HasSynced turning true before.
func TestReflectorListFailureBacksOff(t *testing.T) {
	s := newFakeServer()
	seed(s, 1)
	s.set(func(s *fakeServer) {
		s.listErr = apierrors.NewForbidden(meta.GroupResource{Resource: "pods"}, "", fmt.Errorf("no"))
	})
	clock := newFakeClock()
	r := NewReflector[*corev1.Pod](s, NewStore[*corev1.Pod](), ReflectorOptions{Clock: clock})
	run(t, r)
	eventually(t, "backoff timer", func() bool { return clock.Pending() == 1 })
	if r.HasSynced() {
		t.Fatal("synced without a list")
	}
	s.set(func(s *fakeServer) { s.listErr = nil })
	clock.Step(time.Minute)
	waitSynced(t, r)
	if lists, _ := s.calls(); len(lists) != 3 || lists[2].ResourceVersion != "0" {
		t.Errorf("lists %+v", lists)
	}
}
