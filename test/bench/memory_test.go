package bench

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// memoryPods is how many pods the memory benchmark loads; the heap is also
// measured at memoryStep pods on the way.
const (
	memoryPods = 50000
	memoryStep = 10000
)

// heapPoint is the heap at one number of pods.
type heapPoint struct {
	pods         int
	inuse, alloc uint64
	loadTime     time.Duration
	keyB, valueB float64 // mean stored key and value sizes
}

// BenchmarkCacheMemory measures the heap of an in-process API server
// holding 50,000 pods of ~2 KiB (2.7 KiB stored): the heap in use and the
// live heap after a full collection (runtime.ReadMemStats), with the watch
// cache on and, as a control, off, each minus the same process holding only
// the one probe pod (the baseline), at 10,000 and at 50,000 pods. Pods are
// written straight into etcd; the figures are taken once the server's
// consistent list shows them all.
//
// etcd runs as a separate process when an etcd binary is on PATH (and
// PLATFORM_TEST_ETCD does not choose another), so that the heap holds only
// the API server and the benchmark; with the embedded etcd, the figures
// include what etcd itself keeps in memory for the pods.
func BenchmarkCacheMemory(b *testing.B) {
	endpoints, _, mode := ownEtcd(b, "the heap figures include the embedded etcd's memory for the pods")
	fmt.Printf("\nBenchmarkCacheMemory: etcd %s; GOMAXPROCS %d; %s\n", mode, runtime.GOMAXPROCS(0), stamp())
	results := map[bool][]heapPoint{}
	for _, cache := range []bool{true, false} {
		b.Run(fmt.Sprintf("watch-cache=%v", cache), func(b *testing.B) {
			for range b.N {
				results[cache] = measureMemory(b, endpoints, cache)
			}
			b.ReportMetric(0, "ns/op")
			pts := results[cache]
			base, top := pts[0], pts[len(pts)-1]
			b.ReportMetric(float64(int64(top.alloc)-int64(base.alloc))/float64(top.pods-base.pods), "live-heap-B/pod")
			b.ReportMetric(top.valueB+top.keyB, "stored-B/pod")
		})
	}

	w := os.Stdout
	fmt.Fprintf(w, "\nHeap of the API server process holding pods, after a full collection, minus the same process holding only the probe pod\n")
	fmt.Fprintf(w, "(live: HeapAlloc, the objects reachable; spans: HeapInuse, which also counts free room in spans, and so depends on what the process did before)\n\n")
	fmt.Fprintln(w, "| watch cache | pods | live heap MB | live B/pod | live MB per 10,000 pods | spans MB | spans B/pod | stored B/pod (key + value) | live / stored |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, cache := range []bool{true, false} {
		pts := results[cache]
		if len(pts) == 0 {
			continue
		}
		base := pts[0]
		for _, p := range pts[1:] {
			n := float64(p.pods - base.pods)
			in := float64(int64(p.inuse) - int64(base.inuse))
			live := float64(int64(p.alloc) - int64(base.alloc))
			stored := p.keyB + p.valueB
			fmt.Fprintf(w, "| %v | %d | %.1f | %.0f | %.1f | %.1f | %.0f | %.0f (%.0f + %.0f) | %s |\n",
				on(cache), p.pods, live/1e6, live/n, live/n*10000/1e6, in/1e6, in/n, stored, p.keyB, p.valueB, ratio(live/n, stored))
		}
		fmt.Fprintf(w, "| %v | baseline: %d | %.1f | | | %.1f | | | |\n", on(cache), base.pods, float64(base.alloc)/1e6, float64(base.inuse)/1e6)
	}
	fmt.Fprintln(w)
}

func on(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// ownEtcd returns the etcd a benchmark uses: a process of its own when it
// can (pid is its process id), else the test etcd (pid 0), after printing
// warning.
func ownEtcd(b *testing.B, warning string) (endpoints []string, pid int, mode string) {
	if os.Getenv(etcdtest.EnvEndpoints) == "" {
		if _, err := exec.LookPath("etcd"); err == nil {
			e, err := etcdtest.StartExternal()
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(e.Stop)
			return []string{e.ClientURL}, e.Pid(), "external process (started for this benchmark)"
		}
		fmt.Println("WARNING: no etcd on PATH: " + warning)
	}
	return etcdtest.Endpoints(b), 0, etcdMode()
}

// measureMemory starts a server over etcd, takes the baseline with the one
// probe pod, loads pods up to memoryPods and takes the heap at every
// memoryStep and at the end.
func measureMemory(b *testing.B, endpoints []string, cache bool) []heapPoint {
	srv := startServer(b, func(o *options.Options) {
		o.Etcd.Servers = endpoints
		o.API.WatchCache = cache
	})
	etcd, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		b.Fatal(err)
	}
	defer etcd.Close()
	ld := newLoader(b, srv, etcd)
	client := newHTTPClient()
	defer client.CloseIdleConnections()
	count := func(want int) {
		if n := cachedCount(b, client, srv); n != want {
			b.Fatalf("the server lists %d pods, want %d", n, want)
		}
	}
	count(1)
	var pts []heapPoint
	p := heapPoint{pods: 1}
	p.inuse, p.alloc = heap()
	pts = append(pts, p)
	for _, n := range []int{memoryStep, memoryPods} {
		p := heapPoint{pods: n}
		p.loadTime = timeIt(func() { ld.load(b, pts[len(pts)-1].pods, n) })
		count(n)
		client.CloseIdleConnections()
		p.inuse, p.alloc = heap()
		pts = append(pts, p)
		if f := os.Getenv("BENCH_HEAP_PROFILE"); f != "" && cache && n == memoryPods {
			writeHeapProfile(b, f)
		}
	}
	// The stored sizes, once the heap figures are taken.
	keyB, valueB, stored := ld.storedSize(b)
	if stored != memoryPods {
		b.Fatalf("etcd holds %d pods, want %d", stored, memoryPods)
	}
	for i := range pts {
		pts[i].keyB, pts[i].valueB = keyB, valueB
	}
	return pts
}

// writeHeapProfile writes a heap profile of the process to file (set
// BENCH_HEAP_PROFILE to get one of the server holding all the pods; read it
// with go tool pprof -sample_index=inuse_space).
func writeHeapProfile(b *testing.B, file string) {
	f, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}
