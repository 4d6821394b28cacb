package apiserver

import (
	"net/http"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

// TestWatchList_InitialEventsThenBookmark: a watch with
// sendInitialEvents=true sends the current objects as ADDED events, then
// one BOOKMARK annotated platform.io/initial-events-end at a
// resourceVersion not older than every object sent, then the changes after
// it, from the cache and from etcd, for resourceVersion unset, "0" and a
// known one.
func TestWatchList_InitialEventsThenBookmark(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "wl")
		coll := "/api/v1/namespaces/wl/configmaps"
		var lastRV string
		var existing []string
		for _, n := range []string{"a", "b", "c"} {
			lastRV = rvOf(t, s.Do(t, "POST", coll, cm(n, "", n)).Expect(t, http.StatusCreated).Map(t))
			existing = append(existing, "ADDED "+n)
		}
		for i, rv := range []string{"", "0", lastRV} {
			w := mustWatch(t, s, coll+q("watch", "1", "sendInitialEvents", "true", "resourceVersionMatch", "NotOlderThan",
				"allowWatchBookmarks", "true", "resourceVersion", rv))
			w.ExpectSet(existing...)
			end := w.Next(10 * time.Second)
			if end.Type != "BOOKMARK" || get(end.Object, "metadata", "annotations", "platform.io/initial-events-end") != "true" {
				t.Fatalf("resourceVersion %q: after the initial events got %s, want the annotated BOOKMARK", rv, end)
			}
			if atoi(t, end.rv()) < atoi(t, lastRV) {
				t.Fatalf("resourceVersion %q: end bookmark at %s, older than the last object %s", rv, end.rv(), lastRV)
			}
			name := string(rune('d' + i))
			lastRV = rvOf(t, s.Do(t, "POST", coll, cm(name, "", name)).Expect(t, http.StatusCreated).Map(t))
			w.Expect("ADDED", name)
			existing = append(existing, "ADDED "+name)
			w.Close()
		}
	})
}

// TestWatchList_NoInitialEvents: sendInitialEvents=false with no
// resourceVersion starts from now: no existing object is sent.
func TestWatchList_NoInitialEvents(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "wl0")
		coll := "/api/v1/namespaces/wl0/configmaps"
		s.Do(t, "POST", coll, cm("old", "", "1")).Expect(t, http.StatusCreated)
		w := mustWatch(t, s, coll+q("watch", "1", "sendInitialEvents", "false", "resourceVersionMatch", "NotOlderThan"))
		s.Do(t, "POST", coll, cm("new", "", "1")).Expect(t, http.StatusCreated)
		w.Expect("ADDED", "new")
	})
}

// TestWatchList_BadParameters: the watch-list parameters are checked as
// upstream checks them, as 422 Invalid ListOptions (400 for a value that is
// not a boolean), before anything is streamed.
func TestWatchList_BadParameters(t *testing.T) {
	t.Parallel()
	s := framework.Start(t)
	coll := "/api/v1/namespaces/default/configmaps"
	cases := []struct {
		query  string
		code   int
		reason string
	}{
		{q("watch", "1", "sendInitialEvents", "true", "allowWatchBookmarks", "true"), 422, "Invalid"},
		{q("watch", "1", "sendInitialEvents", "true", "resourceVersionMatch", "NotOlderThan"), 422, "Invalid"},
		{q("watch", "1", "sendInitialEvents", "true", "resourceVersionMatch", "Exact", "allowWatchBookmarks", "true"), 422, "Invalid"},
		{q("watch", "1", "resourceVersionMatch", "NotOlderThan"), 422, "Invalid"},
		{q("watch", "1", "sendInitialEvents", "maybe", "resourceVersionMatch", "NotOlderThan", "allowWatchBookmarks", "true"), 400, "BadRequest"},
		{q("watch", "1", "sendInitialEvents", "true", "resourceVersionMatch", "Newest", "allowWatchBookmarks", "true"), 422, "Invalid"},
		{q("sendInitialEvents", "true", "resourceVersionMatch", "NotOlderThan"), 422, "Invalid"},
	}
	for _, tc := range cases {
		st := s.Do(t, "GET", coll+tc.query, nil).ExpectStatus(t, tc.code, tc.reason)
		if tc.code == 422 && get(st, "details", "kind") != "ListOptions" {
			t.Errorf("%s: details %v, want kind ListOptions", tc.query, st["details"])
		}
	}
}
