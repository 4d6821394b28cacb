package crd

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// fastCounts recounts apiserver_storage_objects every 50ms instead of
// every minute.
func fastCounts(o *options.Options) { o.Etcd.CountMetricPollPeriod = 50 * time.Millisecond }

// objectCount returns the apiserver_storage_objects line of resource in
// /metrics, "" when the series is absent.
func objectCount(t *testing.T, s *framework.Server, resource string) string {
	t.Helper()
	series := fmt.Sprintf("apiserver_storage_objects{resource=%q} ", resource)
	for line := range strings.SplitSeq(string(s.Do(t, "GET", "/metrics", nil).Expect(t, http.StatusOK).Body), "\n") {
		if strings.HasPrefix(line, series) {
			return strings.TrimPrefix(line, series)
		}
	}
	return ""
}

// TestObjectCountAndReadiness: apiserver_storage_objects counts a custom
// resource's objects as it counts built-in ones, and the series goes with
// the definition; /readyz waits for the definitions present at start and
// their watch caches, so a server that restarts answers ready only once
// it serves its custom types.
func TestObjectCountAndReadiness(t *testing.T) {
	s := framework.Start(t, fastCounts)
	install(t, s, definition("metrics.example.com", "gauges", "Gauge", "Namespaced"))
	base := "/apis/metrics.example.com/v1/namespaces/default/gauges"
	for _, name := range []string{"a", "b", "c"} {
		s.Do(t, "POST", base, map[string]any{"apiVersion": "metrics.example.com/v1", "kind": "Gauge", "metadata": map[string]any{"name": name}}).Expect(t, http.StatusCreated)
	}
	const resource = "gauges.metrics.example.com"
	framework.Eventually(t, 10*time.Second, "3 gauges counted", func() bool { return objectCount(t, s, resource) == "3" })
	// Built-in resources are counted in the same pass, before the custom
	// ones; the pass that counted the gauges may have begun before the
	// system namespaces were created (on etcd 3.4 a pass takes a while:
	// each count waits briefly for its watch cache), so wait for the next.
	framework.Eventually(t, 10*time.Second, "namespaces counted", func() bool {
		n := objectCount(t, s, "namespaces")
		return n != "" && n != "0"
	})
	ready := string(s.Do(t, "GET", "/readyz?verbose", nil).Expect(t, http.StatusOK).Body)
	for _, want := range []string{"[+]crd-informer-synced ok", "[+]crd-watch-cache ok"} {
		if !strings.Contains(ready, want) {
			t.Errorf("/readyz?verbose lacks %s:\n%s", want, ready)
		}
	}

	// After a restart, ready means the type is served with its objects.
	s.Stop()
	s = framework.Start(t, framework.SamePrefix(s), fastCounts)
	if got := items(t, s.Do(t, "GET", base, nil).Expect(t, http.StatusOK).Map(t)); len(got) != 3 {
		t.Errorf("ready server lists %v", got)
	}
	framework.Eventually(t, 10*time.Second, "3 gauges counted after the restart", func() bool { return objectCount(t, s, resource) == "3" })

	s.Do(t, "DELETE", crdsPath+"/"+resource, nil).Expect(t, http.StatusOK)
	framework.Eventually(t, 10*time.Second, "the definition gone", func() bool {
		return s.Do(t, "GET", crdsPath+"/"+resource, nil).Code == http.StatusNotFound
	})
	framework.Eventually(t, 10*time.Second, "the series gone", func() bool { return objectCount(t, s, resource) == "" })
	s.Do(t, "GET", "/readyz", nil).Expect(t, http.StatusOK)
}
