package apiserver

import (
	"net/http"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// checkBookmark fails unless e is a BOOKMARK whose object is of the
// requested kind with only metadata.resourceVersion set.
func checkBookmark(t *testing.T, e watchEvent, kind, apiVersion string) {
	t.Helper()
	if e.Type != "BOOKMARK" || e.Object["kind"] != kind || e.Object["apiVersion"] != apiVersion || e.rv() == "" {
		t.Fatalf("bookmark %s, want kind %s apiVersion %s with a resourceVersion", e, kind, apiVersion)
	}
	for k, v := range e.Object {
		if k != "kind" && k != "apiVersion" && k != "metadata" && !emptyJSON(v) {
			t.Fatalf("bookmark sets %s: %s", k, e)
		}
	}
	for k, v := range metaOf(e.Object) {
		if k != "resourceVersion" && !emptyJSON(v) {
			t.Fatalf("bookmark sets metadata.%s: %s", k, e)
		}
	}
}

func emptyJSON(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case map[string]any:
		for _, vv := range x {
			if !emptyJSON(vv) {
				return false
			}
		}
		return true
	case []any:
		return len(x) == 0
	}
	return false
}

// TestEvents_Bookmark_BeforeTimeoutEnd: with allowWatchBookmarks=true a
// watch ending on timeoutSeconds sends a BOOKMARK (the requested kind, only
// metadata.resourceVersion set, at least as new as the changes sent) before
// it ends.
func TestEvents_Bookmark_BeforeTimeoutEnd(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "bm")
		coll := "/api/v1/namespaces/bm/configmaps"
		rv := listRV(t, s, coll)
		w := mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv, "allowWatchBookmarks", "true", "timeoutSeconds", "2"))
		prv := listRV(t, s, "/apis/apps/v1/deployments")
		wd := mustWatch(t, s, "/apis/apps/v1/watch/deployments"+q("resourceVersion", prv, "allowWatchBookmarks", "true", "timeoutSeconds", "2"))
		created := s.Do(t, "POST", coll, cm("x", "", "1")).Expect(t, http.StatusCreated).Map(t)

		evs := w.Drain(8 * time.Second)
		if len(evs) < 2 || evs[0].Type != "ADDED" || evs[0].name() != "x" {
			t.Fatalf("events %v, want ADDED x then a BOOKMARK", evs)
		}
		last := evs[len(evs)-1]
		for _, e := range evs[1:] {
			checkBookmark(t, e, "ConfigMap", "v1")
		}
		if atoi(t, last.rv()) < atoi(t, rvOf(t, created)) {
			t.Fatalf("final bookmark at %s, before the change at %s", last.rv(), rvOf(t, created))
		}
		devs := wd.Drain(8 * time.Second)
		if len(devs) == 0 {
			t.Fatal("deployments watch: no BOOKMARK before its timeout")
		}
		for _, e := range devs {
			checkBookmark(t, e, "Deployment", "apps/v1")
		}
	})
}

// TestEvents_Bookmark_NeverUnlessAsked: a watch without
// allowWatchBookmarks=true (absent or false) never gets a BOOKMARK.
func TestEvents_Bookmark_NeverUnlessAsked(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "nbm")
		coll := "/api/v1/namespaces/nbm/configmaps"
		rv := listRV(t, s, coll)
		ws := []*watchStream{
			mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv, "timeoutSeconds", "2")),
			mustWatch(t, s, coll+q("watch", "true", "resourceVersion", rv, "allowWatchBookmarks", "false", "timeoutSeconds", "2")),
			mustWatch(t, s, coll+q("watch", "true", "timeoutSeconds", "2")),
		}
		s.Do(t, "POST", coll, cm("x", "", "1")).Expect(t, http.StatusCreated)
		for _, w := range ws {
			evs := w.Drain(8 * time.Second)
			if len(evs) != 1 || evs[0].Type != "ADDED" {
				t.Fatalf("watch %s: events %v, want only ADDED x", w.path, evs)
			}
		}
	})
}

// TestEvents_ExpireAfterEventTTL: core/v1 Events are deleted --event-ttl
// after their last write (watchers see DELETED); other objects stay.
func TestEvents_ExpireAfterEventTTL(t *testing.T) {
	t.Parallel()
	eachCacheMode(t, func(t *testing.T, s *framework.Server) {
		createNamespace(t, s, "ttl")
		events := "/api/v1/namespaces/ttl/events"
		rv := listRV(t, s, events)
		w := mustWatch(t, s, events+q("watch", "true", "resourceVersion", rv))
		ev := sampleOf(t, "Event", "v1")
		start := time.Now()
		s.Do(t, "POST", events, ev.object("e1", "ttl")).Expect(t, http.StatusCreated)
		s.Do(t, "POST", "/api/v1/namespaces/ttl/configmaps", cm("keep", "", "1")).Expect(t, http.StatusCreated)
		w.Expect("ADDED", "e1")
		s.Do(t, "GET", events+"/e1", nil).Expect(t, http.StatusOK)
		del := w.Next(15 * time.Second)
		if del.Type != "DELETED" || del.name() != "e1" {
			t.Fatalf("got %s, want DELETED e1 on expiry", del)
		}
		if d := time.Since(start); d < 1500*time.Millisecond {
			t.Fatalf("event expired after %v, before its TTL of 2s", d)
		}
		s.Do(t, "GET", events+"/e1", nil).ExpectStatus(t, http.StatusNotFound, "NotFound")
		if names, _, _ := list(t, s, events); len(names) != 0 {
			t.Fatalf("events left after TTL: %v", names)
		}
		s.Do(t, "GET", "/api/v1/namespaces/ttl/configmaps/keep", nil).Expect(t, http.StatusOK)
	}, func(o *options.Options) { o.API.EventTTL = 2 * time.Second })
}
