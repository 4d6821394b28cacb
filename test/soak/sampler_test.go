package soak

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseRSS(t *testing.T) {
	for _, c := range []struct {
		name, status string
		want         float64
		wantErr      bool
	}{
		{"kB", "Name:\tx\nVmHWM:\t  2000 kB\nVmRSS:\t  1234 kB\nThreads:\t7\n", 1234 * 1024, false},
		{"no VmRSS", "Name:\tx\nState:\tZ (zombie)\n", 0, true},
		{"another unit", "VmRSS:\t 12 MB\n", 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseRSS(c.status)
			if (err != nil) != c.wantErr || got != c.want {
				t.Errorf("parseRSS = %v, %v; want %v, error %v", got, err, c.want, c.wantErr)
			}
		})
	}
}

func TestParseExposition(t *testing.T) {
	got, err := parseExposition(strings.NewReader(`# HELP go_goroutines Number of goroutines.
# TYPE go_goroutines gauge
go_goroutines 87
process_resident_memory_bytes 5.5574528e+07
apiserver_request_total{code="200",verb="GET"} 12
etcd_mvcc_db_total_size_in_bytes 2.4576e+06
`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"go_goroutines": 87, "process_resident_memory_bytes": 55574528, "etcd_mvcc_db_total_size_in_bytes": 2457600}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if _, err := parseExposition(strings.NewReader("go_goroutines many\n")); err == nil {
		t.Error("a value that is no number: want an error")
	}
}

// TestCollect samples this test process: its RSS and open files from
// /proc, goroutines from a /metrics it serves; a metric missing from the
// exposition is an error, the other values are kept.
func TestCollect(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("go_goroutines 42\n"))
	}))
	defer srv.Close()
	self := func() (int, error) { return os.Getpid(), nil }
	target := Target{Name: "self", Pid: self, MetricsURL: srv.URL, Client: srv.Client(),
		FromMetrics: map[Metric]string{Goroutines: "go_goroutines"}}
	got, err := Collect(context.Background(), []Target{target})
	if err != nil {
		t.Fatal(err)
	}
	values := map[Metric]float64{}
	for _, s := range got {
		values[s.Metric] = s.Value
	}
	if values[Goroutines] != 42 || values[RSS] < 1<<20 || values[OpenFDs] < 3 {
		t.Errorf("samples %v: want goroutines 42, RSS over 1 MiB, at least 3 open files", got)
	}

	target.FromMetrics[HeapInuse] = "go_memstats_heap_inuse_bytes"
	got, err = Collect(context.Background(), []Target{target})
	if err == nil || !strings.Contains(err.Error(), "self: "+srv.URL+" has no go_memstats_heap_inuse_bytes") {
		t.Errorf("error %v: want the missing metric named", err)
	}
	if len(got) != 3 {
		t.Errorf("samples %v: want the three that could be read", got)
	}
}

func TestRecorder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "samples.csv")
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r, err := NewRecorder(path, start)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(start.Add(30*time.Second), []Sample{{"etcd", RSS, 1048576}, {"etcd", OpenFDs, 12}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "time,elapsed_seconds,daemon,metric,value\n" +
		"2026-01-02T03:04:35Z,30.0,etcd,rss_bytes,1048576\n" +
		"2026-01-02T03:04:35Z,30.0,etcd,open_fds,12\n"
	if d := cmp.Diff(want, string(data)); d != "" {
		t.Errorf("CSV (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Point{{30 * time.Second, 12}}, r.Series[Key{"etcd", OpenFDs}]); d != "" {
		t.Errorf("series (-want +got):\n%s", d)
	}
}
