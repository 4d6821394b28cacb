package apiserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestWatch_MinRequestTimeout: a watch without timeoutSeconds lasts a
// random time between --min-request-timeout and twice that.
func TestWatch_MinRequestTimeout(t *testing.T) {
	s := framework.Start(t, func(o *options.Options) { o.API.MinRequestTimeout = 1 })
	start := time.Now()
	r := s.Do(t, "GET", "/api/v1/namespaces/default/configmaps?watch=true", nil).Expect(t, http.StatusOK)
	d := time.Since(start)
	if d < time.Second || d > 3*time.Second {
		t.Fatalf("watch lasted %v, want between 1s and 2s", d)
	}
	if len(r.Body) != 0 {
		t.Fatalf("an idle watch sent %q", r.Body)
	}
}

// TestMetrics_WatchCache: the watch cache reports its events, watchers and
// objects. (Compaction metrics are tested in the compaction package, which
// may compact its etcd.)
func TestMetrics_WatchCache(t *testing.T) {
	s := framework.Start(t)
	// From resourceVersion 0, which the cache serves whatever etcd it
	// runs on: a watch from the current state is read from etcd instead
	// when etcd's progress notifications are not trusted (Debian's 3.4.23)
	// and the server's own background writes have moved etcd's revision
	// past the configmaps cache.
	w := openWatch(t, s, "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0&timeoutSeconds=60")
	defer w.Close()
	s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"m"}}`).Expect(t, http.StatusCreated)
	w.Next(5 * time.Second)
	deadline := time.Now().Add(5 * time.Second)
	want := []string{
		`watch_cache_events_dispatched_total{resource="configmaps"}`,
		`watch_cache_watchers{resource="configmaps"} 1`,
		`watch_cache_objects{resource="namespaces"} 4`,
	}
	var missing []string
	for time.Now().Before(deadline) {
		body := string(s.Do(t, "GET", "/metrics", nil).Expect(t, http.StatusOK).Body)
		missing = missing[:0]
		for _, m := range want {
			if !strings.Contains(body, m) {
				missing = append(missing, m)
			}
		}
		if len(missing) == 0 {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("/metrics lacks %v", missing)
}
