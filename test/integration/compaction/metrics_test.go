package compaction

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestMetrics_Compaction: compactions are counted and timed on /metrics.
func TestMetrics_Compaction(t *testing.T) {
	s := framework.Start(t, func(o *options.Options) { o.Etcd.CompactionInterval = 200 * time.Millisecond })
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		s.Do(t, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"generateName":"m-"}}`).Expect(t, http.StatusCreated)
		body := string(s.Do(t, "GET", "/metrics", nil).Expect(t, http.StatusOK).Body)
		if strings.Contains(body, `etcd_compactions_total{result="success"}`) && strings.Contains(body, "etcd_compaction_duration_seconds_count") {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no successful compaction reported on /metrics within 10s")
}
