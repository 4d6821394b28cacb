package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// listMemoryPods and listMemoryClients size BenchmarkListMemory.
const (
	listMemoryPods    = 50000
	listMemoryClients = 10
)

// BenchmarkListMemory measures the API server's heap while ten clients
// list 50,000 pods at once (issue 17): lists are written to the wire item
// by item, so the heap should grow by a small multiple of one item per
// list, not by the lists' size. The server runs in this process; the
// clients read each response into io.Discard, so the heap growth is the
// server's. Before the measurement every list is made once: the watch
// cache keeps the JSON rendering of each pod it has served (shared by all
// later readers), which is the cache's memory, not a list's. It reports,
// per encoding, the total bytes served and two growths over the settled
// heap before, sampled every 5ms: of the live heap (what the last
// collection found reachable: what the lists hold), against the issue's
// aim of below 20% of the bytes served, and of all heap objects
// (reachable or not yet collected: also what the garbage collector's
// pacing lets accumulate).
func BenchmarkListMemory(b *testing.B) {
	srv := startServer(b)
	etcd, _ := etcdtest.Client(b)
	ld := newLoader(b, srv, etcd)
	ld.load(b, 1, listMemoryPods)
	client := manyConnClient(listMemoryClients)
	b.Cleanup(client.CloseIdleConnections)
	if n := cachedCount(b, client, srv); n != listMemoryPods {
		b.Fatalf("the cache holds %d pods, want %d", n, listMemoryPods)
	}
	fmt.Printf("\nBenchmarkListMemory: %d pods, %d concurrent lists of all of them; %s\n\n", listMemoryPods, listMemoryClients, stamp())
	fmt.Println("| encoding | served MB | settled heap before MB | peak live heap growth MB | live growth / served | peak heap objects growth MB | objects growth / served |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|")
	for _, enc := range []struct{ name, accept string }{
		{"json", "application/json"},
		{"protobuf", "application/vnd.platform.protobuf"},
	} {
		list := func() int64 { return listOnce(b, client, podsURL(srv), enc.accept) }
		list() // warm-up: the cache's renderings
		for range b.N {
			_, before := heap()
			peaks := watchHeap()
			var served atomic.Int64
			var wg sync.WaitGroup
			for range listMemoryClients {
				wg.Go(func() { served.Add(list()) })
			}
			wg.Wait()
			live, objects := peaks()
			mb := func(v uint64) float64 { return (float64(v) - float64(before)) / 1e6 }
			share := func(v uint64) float64 { return 100 * (float64(v) - float64(before)) / float64(served.Load()) }
			fmt.Printf("| %s | %.0f | %.0f | %.1f | %.1f%% | %.1f | %.1f%% |\n", enc.name, float64(served.Load())/1e6, float64(before)/1e6,
				mb(live), share(live), mb(objects), share(objects))
			b.ReportMetric(share(live), enc.name+"-live-growth-%-of-served")
			b.ReportMetric(mb(live), enc.name+"-live-growth-MB")
		}
	}
	b.ReportMetric(0, "ns/op")
}

// listOnce lists url in one page and returns the bytes read.
func listOnce(b *testing.B, client *http.Client, url, accept string) int64 {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	resp, err := client.Do(req)
	if err != nil {
		b.Error(err)
		return 0
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Errorf("list: %d %v", resp.StatusCode, err)
	}
	return n
}

// watchHeap samples the heap every 5ms until the returned function is
// called, which returns the peaks of the live heap (as of the latest
// collection) and of all heap objects (live or not yet swept). It forces a
// collection every 100ms, so the live figure follows what the lists hold
// even when the garbage collector's pacing would not run one.
func watchHeap() (peaks func() (live, objects uint64)) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	stop := make(chan struct{})
	done := make(chan struct{})
	var live, objects uint64 // written by the sampler until done is closed
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			if i%20 == 19 {
				runtime.GC()
			}
			metrics.Read(sample)
			live, objects = max(live, sample[0].Value.Uint64()), max(objects, sample[1].Value.Uint64())
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() (uint64, uint64) { close(stop); <-done; return live, objects }
}
