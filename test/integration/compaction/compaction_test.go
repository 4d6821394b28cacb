package compaction

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/test/integration/framework"
)

var cacheModes = []struct {
	name string
	opt  framework.Option
}{
	{"watchcache", func(o *options.Options) { o.API.WatchCache = true }},
	{"etcd", func(o *options.Options) { o.API.WatchCache = false }},
}

var mergePatch = framework.Header{"Content-Type": "application/merge-patch+json"}

// compactNow compacts the test etcd's history up to its current revision.
func compactNow(t *testing.T) int64 {
	t.Helper()
	c, _ := etcdtest.Client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.Get(ctx, "compaction-probe")
	if err != nil {
		t.Fatalf("etcd get: %v", err)
	}
	rev := resp.Header.Revision
	if _, err := c.Compact(ctx, rev, clientv3.WithCompactPhysical()); err != nil {
		t.Fatalf("compact at %d: %v", rev, err)
	}
	return rev
}

func meta(m map[string]any, key string) string {
	md, _ := m["metadata"].(map[string]any)
	s, _ := md[key].(string)
	return s
}

func names(m map[string]any) []string {
	var out []string
	items, _ := m["items"].([]any)
	for _, it := range items {
		out = append(out, meta(it.(map[string]any), "name"))
	}
	return out
}

func cm(name string) string { return `{"metadata":{"name":"` + name + `"},"data":{"k":"v"}}` }

// setup starts a server with a namespace of ConfigMaps c0..c(n-1).
func setup(t *testing.T, opt framework.Option, n int, more ...framework.Option) (*framework.Server, string) {
	t.Helper()
	s := framework.Start(t, append([]framework.Option{opt}, more...)...)
	s.Do(t, "POST", "/api/v1/namespaces", `{"metadata":{"name":"cp"}}`).Expect(t, http.StatusCreated)
	coll := "/api/v1/namespaces/cp/configmaps"
	for i := 0; i < n; i++ {
		s.Do(t, "POST", coll, cm(fmt.Sprintf("c%d", i))).Expect(t, http.StatusCreated)
	}
	return s, coll
}

// watchOutcome opens a watch and returns the HTTP code with the Status body
// (before streaming) or the first event's type and object (once streaming).
func watchOutcome(t *testing.T, s *framework.Server, path string) (code int, typ string, obj map[string]any) {
	t.Helper()
	// A stream may end cleanly before its first event (the watch cache
	// closes its streams when it relists after etcd compacted under it);
	// a client then resumes from the same version, and so does this.
	for attempt := 1; ; attempt++ {
		code, typ, obj, ended := watchOnce(t, s, path)
		if !ended || attempt == 3 {
			if ended {
				t.Fatalf("watch %s: the stream ended without an event %d times", path, attempt)
			}
			return code, typ, obj
		}
	}
}

// watchOnce opens one watch; ended reports a 200 stream that closed
// cleanly before its first event.
func watchOnce(t *testing.T, s *framework.Server, path string) (code int, typ string, obj map[string]any, ended bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("watch %s: %v", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatalf("watch %s: HTTP %d body %s", path, resp.StatusCode, b)
		}
		return resp.StatusCode, "", obj, false
	}
	line, err := bufio.NewReader(resp.Body).ReadBytes('\n')
	if errors.Is(err, io.EOF) && len(line) == 0 {
		return 0, "", nil, true
	}
	if err != nil {
		t.Fatalf("watch %s: no first event: %v", path, err)
	}
	var e struct {
		Type   string         `json:"type"`
		Object map[string]any `json:"object"`
	}
	if err := json.Unmarshal(line, &e); err != nil {
		t.Fatalf("watch %s: bad event %q", path, line)
	}
	return http.StatusOK, e.Type, e.Object, false
}

// expectGone: 410 Expired, as HTTP 410 before streaming or as an ERROR
// event with that Status once streaming.
func expectGone(t *testing.T, s *framework.Server, path string) {
	t.Helper()
	code, typ, st := watchOutcome(t, s, path)
	if code == http.StatusOK && typ != "ERROR" {
		t.Fatalf("watch %s from compacted history: first event %s %v, want ERROR 410 or HTTP 410", path, typ, st)
	}
	if code != http.StatusOK && code != http.StatusGone {
		t.Fatalf("watch %s from compacted history: HTTP %d %v, want 410", path, code, st)
	}
	if st["kind"] != "Status" || st["reason"] != "Expired" || fmt.Sprint(st["code"]) != "410" {
		t.Fatalf("watch %s from compacted history: %v, want Status 410 Expired", path, st)
	}
}

// TestWatch_CompactedResourceVersion_Gone: a watch from a version whose
// history is no longer kept (compacted in etcd, and out of the watch cache's
// window of 2 events) fails with 410 Expired; after the same compaction a
// watch from a current version works.
func TestWatch_CompactedResourceVersion_Gone(t *testing.T) {
	for _, m := range cacheModes {
		t.Run(m.name, func(t *testing.T) {
			small := func(o *options.Options) { o.API.DefaultWatchCacheSize = 2 }
			s, coll := setup(t, m.opt, 1, small)
			obj := s.Do(t, "GET", coll+"/c0", nil).Expect(t, http.StatusOK).Map(t)
			old := meta(obj, "resourceVersion")
			for i := 0; i < 5; i++ {
				s.Do(t, "PATCH", coll+"/c0", fmt.Sprintf(`{"data":{"k":"%d"}}`, i), mergePatch).Expect(t, http.StatusOK)
			}
			compactNow(t)
			// A consistent list: the cache has caught up, its window is past old.
			list := s.Do(t, "GET", coll, nil).Expect(t, http.StatusOK).Map(t)
			expectGone(t, s, coll+"?watch=true&resourceVersion="+old)
			expectGone(t, s, "/api/v1/watch/namespaces/cp/configmaps/c0?resourceVersion="+old)
			expectGone(t, s, "/api/v1/watch/namespaces/cp/configmaps?labelSelector=x%21%3Dy&resourceVersion="+old)

			// A fresh list's version is inside the kept history.
			rv := meta(list, "resourceVersion")
			done := make(chan struct{})
			go func() {
				defer close(done)
				time.Sleep(200 * time.Millisecond)
				s.Do(t, "PATCH", coll+"/c0", `{"data":{"k":"after"}}`, mergePatch)
			}()
			code, typ, o := watchOutcome(t, s, coll+"?watch=true&resourceVersion="+rv)
			<-done
			if code != http.StatusOK || typ != "MODIFIED" || meta(o, "name") != "c0" {
				t.Fatalf("watch from a fresh list after compaction: %d %s %v", code, typ, o)
			}

			// A server started after the compaction cannot serve it either.
			s2 := framework.Start(t, m.opt, framework.SamePrefix(s))
			expectGone(t, s2, coll+"?watch=true&resourceVersion="+old)
		})
	}
}

// TestChunkedLists_ExpiredContinue_GoneWithFreshToken: a continue token
// whose snapshot was compacted fails with 410 Expired carrying a fresh
// token in metadata.continue, which continues from the next key on a newer
// snapshot.
func TestChunkedLists_ExpiredContinue_GoneWithFreshToken(t *testing.T) {
	for _, m := range cacheModes {
		t.Run(m.name, func(t *testing.T) {
			s, coll := setup(t, m.opt, 6)
			first := s.Do(t, "GET", coll+"?limit=2", nil).Expect(t, http.StatusOK).Map(t)
			token := meta(first, "continue")
			if fmt.Sprint(names(first)) != "[c0 c1]" || token == "" {
				t.Fatalf("first chunk %v continue %q", names(first), token)
			}
			// Changes after the snapshot, then compaction past it.
			s.Do(t, "POST", coll, cm("c1a")).Expect(t, http.StatusCreated)
			s.Do(t, "DELETE", coll+"/c2", nil).Expect(t, http.StatusOK)
			compactNow(t)

			st := s.Do(t, "GET", coll+"?limit=2&continue="+url.QueryEscape(token), nil).ExpectStatus(t, http.StatusGone, "Expired")
			fresh := meta(st, "continue")
			if fresh == "" {
				t.Fatalf("410 for an expired token has no fresh token in metadata.continue: %v", st)
			}
			next := s.Do(t, "GET", coll+"?limit=2&continue="+url.QueryEscape(fresh), nil).Expect(t, http.StatusOK).Map(t)
			if fmt.Sprint(names(next)) != "[c1a c3]" {
				t.Fatalf("chunk after the fresh token: %v, want [c1a c3] (next keys on a newer snapshot)", names(next))
			}
			if a, b := meta(next, "resourceVersion"), meta(first, "resourceVersion"); len(a) < len(b) || (len(a) == len(b) && a <= b) {
				t.Fatalf("fresh snapshot at %s is not newer than %s", a, b)
			}
			rest := names(next)
			for c := meta(next, "continue"); c != ""; {
				page := s.Do(t, "GET", coll+"?limit=2&continue="+url.QueryEscape(c), nil).Expect(t, http.StatusOK).Map(t)
				rest = append(rest, names(page)...)
				c = meta(page, "continue")
			}
			if fmt.Sprint(rest) != "[c1a c3 c4 c5]" {
				t.Fatalf("list finished with the fresh token: %v", rest)
			}
		})
	}
}

// TestLimits_CompactionIntervalBoundsHistory: the API server's own
// compaction (--etcd-compaction-interval) removes old history, after which
// a watch from an old version fails with 410 Expired.
func TestLimits_CompactionIntervalBoundsHistory(t *testing.T) {
	s := framework.Start(t, cacheModes[1].opt, func(o *options.Options) { o.Etcd.CompactionInterval = 500 * time.Millisecond })
	s.Do(t, "POST", "/api/v1/namespaces", `{"metadata":{"name":"cp"}}`).Expect(t, http.StatusCreated)
	coll := "/api/v1/namespaces/cp/configmaps"
	old := meta(s.Do(t, "POST", coll, cm("a")).Expect(t, http.StatusCreated).Map(t), "resourceVersion")
	deadline := time.Now().Add(15 * time.Second)
	for i := 0; ; i++ {
		s.Do(t, "PATCH", coll+"/a", fmt.Sprintf(`{"data":{"k":"%d"}}`, i), mergePatch).Expect(t, http.StatusOK)
		code, typ, st := watchOutcome(t, s, coll+"?watch=true&timeoutSeconds=1&resourceVersion="+old)
		if code == http.StatusGone || typ == "ERROR" {
			if st["reason"] != "Expired" || fmt.Sprint(st["code"]) != "410" {
				t.Fatalf("watch from compacted history: %v, want 410 Expired", st)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("history from %s still watchable after 15s with a 500ms compaction interval", old)
		}
		time.Sleep(300 * time.Millisecond)
	}
}
