package informer

import (
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// TestReflectorWatchList: against a server with watch-list the sink is
// filled from one watch, with no list at all; later changes come on the
// same stream, and after it ends the next watch resumes from the last
// resourceVersion as usual.
func TestReflectorWatchList(t *testing.T) {
	s := newFakeServer()
	seed(s, 1203)
	s.set(func(s *fakeServer) { s.watchList = true })
	store := NewStore[*corev1.Pod]()
	r := NewReflector[*corev1.Pod](s, store, ReflectorOptions{Clock: newFakeClock()})
	run(t, r)
	waitSynced(t, r)
	if err := storeMatches(s, store); err != nil {
		t.Fatal(err)
	}
	if got, want := store.ResourceVersion(), s.currentRV(); got != want {
		t.Errorf("store resourceVersion %q, want %q", got, want)
	}
	s.create(pod("ns", "later", nil))
	eventually(t, "the change on the same stream", func() bool { return storeMatches(s, store) == nil })
	s.end()
	s.create(pod("ns", "after-end", nil))
	eventually(t, "the change after the stream ended", func() bool { return storeMatches(s, store) == nil })

	lists, watches := s.calls()
	s.mu.Lock()
	wl := s.watchListCalls
	s.mu.Unlock()
	if len(lists) != 0 {
		t.Errorf("%d lists, want none", len(lists))
	}
	if len(wl) != 1 {
		t.Fatalf("%d watch-list calls, want 1", len(wl))
	}
	o := wl[0]
	if o.SendInitialEvents == nil || !*o.SendInitialEvents || o.ResourceVersionMatch != "NotOlderThan" || !o.AllowWatchBookmarks || o.ResourceVersion != "0" {
		t.Errorf("watch-list options %+v", o)
	}
	if len(watches) == 0 || watches[0].ResourceVersion == "" || watches[0].SendInitialEvents != nil {
		t.Errorf("watches after the stream ended: %+v, want a plain watch from the last resourceVersion", watches)
	}
}

// TestReflectorWatchListFallback: a server that refuses the parameters,
// or ignores them (its streams end without the end of the initial
// events), gets paged lists from then on.
func TestReflectorWatchListFallback(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ignore bool
		// then acts on the ignoring server's streams: ends them, lets them
		// stall, or sends a plain bookmark.
		then string
	}{{"refused", false, ""}, {"ignored, streams end", true, "end"}, {"ignored, streams stall", true, "stall"}, {"ignored, plain bookmark", true, "bookmark"}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeServer()
			seed(s, 10)
			s.set(func(s *fakeServer) { s.ignoreWatchList = tc.ignore })
			store := NewStore[*corev1.Pod]()
			r := NewReflector[*corev1.Pod](s, store, ReflectorOptions{InitialBackoff: time.Millisecond, MaxBackoff: time.Millisecond,
				WatchListStall: 50 * time.Millisecond})
			run(t, r)
			attempts := map[string]int{"": 1, "end": maxEarlyEnds, "stall": maxEarlyEnds, "bookmark": 1}[tc.then]
			switch tc.then {
			case "end":
				for i := range maxEarlyEnds {
					eventually(t, "a watch-list stream", func() bool {
						_, w := s.calls()
						return len(w) > i
					})
					s.end()
				}
			case "bookmark":
				eventually(t, "a watch-list stream", func() bool { _, w := s.calls(); return len(w) > 0 })
				s.bookmark()
			}
			waitSynced(t, r)
			if err := storeMatches(s, store); err != nil {
				t.Fatal(err)
			}
			// The next watch is too old: a relist, which must not try
			// watch-list again.
			release := s.hold()
			s.drop()
			s.create(pod("ns", "while-away", nil))
			s.compact()
			release()
			eventually(t, "a relist", func() bool { l, _ := s.calls(); return len(l) >= 2 })
			s.mu.Lock()
			n := len(s.watchListCalls)
			for _, o := range s.watchCalls {
				if o.SendInitialEvents != nil {
					n++ // the ignoring server took them as plain watches
				}
			}
			s.mu.Unlock()
			if n != attempts {
				t.Errorf("%d watch-list attempts, want %d", n, attempts)
			}
		})
	}
}
