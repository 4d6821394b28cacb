package metricsserver

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func TestRate(t *testing.T) {
	started := at(-100)
	tests := []struct {
		name      string
		prev, cur point
		want      Usage
		wantOK    bool
	}{
		{name: "quarter core over 10s", prev: point{Time: at(0), CPU: 1, Started: started},
			cur:  point{Time: at(10), CPU: 3.5, Memory: 64 << 20, Started: started},
			want: Usage{Time: at(10), Window: 10 * time.Second, CPU: 250_000_000, Memory: 64 << 20}, wantOK: true},
		{name: "idle", prev: point{Time: at(0), CPU: 7}, cur: point{Time: at(2), CPU: 7, Memory: 1},
			want: Usage{Time: at(2), Window: 2 * time.Second, Memory: 1}, wantOK: true},
		{name: "same time", prev: point{Time: at(5), CPU: 1}, cur: point{Time: at(5), CPU: 2}},
		{name: "older sample", prev: point{Time: at(5), CPU: 1}, cur: point{Time: at(4), CPU: 2}},
		{name: "counter went back", prev: point{Time: at(0), CPU: 5}, cur: point{Time: at(1), CPU: 1}},
		{name: "restarted", prev: point{Time: at(0), CPU: 1, Started: started}, cur: point{Time: at(1), CPU: 2, Started: at(0.5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := rate(tt.prev, tt.cur)
			if ok != tt.wantOK || got != tt.want {
				t.Fatalf("rate = %+v, %v; want %+v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// scrape builds a sample of a node whose CPU counters stand at cpu
// core-seconds and whose containers (namespace/pod/container) stand at
// their own.
func scrape(tm time.Time, nodeCPU float64, containers map[string]float64) *nodeSample {
	s := &nodeSample{Node: point{Time: tm, CPU: nodeCPU, Memory: 1 << 30}, Pods: map[podRef]map[string]point{}}
	for path, cpu := range containers {
		parts := strings.Split(path, "/")
		ref := podRef{parts[0], parts[1]}
		if s.Pods[ref] == nil {
			s.Pods[ref] = map[string]point{}
		}
		s.Pods[ref][parts[2]] = point{Time: tm, CPU: cpu, Memory: 10 << 20}
	}
	return s
}

func TestStoreKeepsLatestWindow(t *testing.T) {
	s := NewStore()
	s.Add("n1", scrape(at(0), 10, map[string]float64{"ns/a/c1": 1, "ns/a/c2": 1}))
	if _, ok := s.Node("n1"); ok {
		t.Fatal("a node scraped once has usage")
	}
	s.Add("n1", scrape(at(10), 30, map[string]float64{"ns/a/c1": 2, "ns/a/c2": 6, "ns/b/c": 0}))
	n, ok := s.Node("n1")
	if !ok || n.CPU != 2e9 || n.Window != 10*time.Second {
		t.Fatalf("node usage %+v %v, want 2 cores over 10s", n, ok)
	}
	pa, ok := s.Pod("ns", "a")
	want := PodUsage{Time: at(10), Window: 10 * time.Second, Containers: []ContainerUsage{
		{Name: "c1", Usage: Usage{Time: at(10), Window: 10 * time.Second, CPU: 100_000_000, Memory: 10 << 20}},
		{Name: "c2", Usage: Usage{Time: at(10), Window: 10 * time.Second, CPU: 500_000_000, Memory: 10 << 20}},
	}}
	if diff := cmp.Diff(want, pa); !ok || diff != "" {
		t.Fatalf("pod a (-want +got):\n%s", diff)
	}
	if _, ok := s.Pod("ns", "b"); ok {
		t.Fatal("a pod first seen in the last scrape has usage")
	}
	// The next window replaces the last one: only the latest is kept.
	s.Add("n1", scrape(at(15), 35, map[string]float64{"ns/a/c1": 2.5, "ns/b/c": 1}))
	if n, _ := s.Node("n1"); n.CPU != 1e9 || n.Window != 5*time.Second {
		t.Fatalf("node usage %+v, want 1 core over 5s", n)
	}
	if pa, ok := s.Pod("ns", "a"); !ok || len(pa.Containers) != 1 || pa.Containers[0].CPU != 100_000_000 {
		t.Fatalf("pod a %+v %v, want c1 only at 100m", pa, ok)
	}
	if pb, ok := s.Pod("ns", "b"); !ok || pb.Containers[0].CPU != 200_000_000 {
		t.Fatalf("pod b %+v %v, want 200m", pb, ok)
	}
	// A failed scrape drops the usage; the next success rates against the
	// last good sample.
	s.Fail("n1")
	if _, ok := s.Node("n1"); ok {
		t.Fatal("usage kept after a failed scrape")
	}
	if _, ok := s.Pod("ns", "b"); ok {
		t.Fatal("pod usage kept after a failed scrape")
	}
	s.Add("n1", scrape(at(25), 45, map[string]float64{"ns/b/c": 1}))
	if n, _ := s.Node("n1"); n.CPU != 1e9 || n.Window != 10*time.Second {
		t.Fatalf("node usage %+v, want 1 core over 10s", n)
	}
	s.Retain(map[string]bool{"other": true})
	if _, ok := s.Node("n1"); ok {
		t.Fatal("a deleted node kept its usage")
	}
	if _, ok := s.Pod("ns", "b"); ok {
		t.Fatal("a deleted node's pods kept their usage")
	}
}

func TestDecode(t *testing.T) {
	body := `# HELP container_cpu_usage_seconds_total [STABLE] x
# TYPE container_cpu_usage_seconds_total counter
container_cpu_usage_seconds_total{container="c",namespace="ns",pod="p"} 1.5 1767225600000
container_cpu_usage_seconds_total{container="nomem",namespace="ns",pod="p"} 1 1767225600000
# TYPE container_memory_working_set_bytes gauge
container_memory_working_set_bytes{container="c",namespace="ns",pod="p"} 1.2e+07 1767225600000
# TYPE container_start_time_seconds gauge
container_start_time_seconds{container="c",namespace="ns",pod="p"} 1.7672256e+09 1767225600000
# TYPE node_cpu_usage_seconds_total counter
node_cpu_usage_seconds_total 357.5 1767225601000
# TYPE node_memory_working_set_bytes gauge
node_memory_working_set_bytes 1.6e+09 1767225601000
# TYPE resource_scrape_error gauge
resource_scrape_error 0
`
	got, err := decode(strings.NewReader(body), at(99))
	if err != nil {
		t.Fatal(err)
	}
	want := &nodeSample{
		Node: point{Time: at(1), CPU: 357.5, Memory: 1.6e9},
		Pods: map[podRef]map[string]point{{"ns", "p"}: {"c": {Time: at(0), CPU: 1.5, Memory: 12e6, Started: at(0)}}},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Fatalf("decode (-want +got):\n%s", diff)
	}
	if _, err := decode(strings.NewReader("resource_scrape_error 0\n"), at(0)); err == nil {
		t.Fatal("a body without node metrics decoded")
	}
}
