package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/test/integration/framework"
)

// Sizes of BenchmarkWatchStorm.
const (
	stormPods     = 3000
	stormWatchers = 1000
	// stormTimeout bounds one storm: every watch established.
	stormTimeout = 3 * time.Minute
)

// stormKind is how a watcher starts after the restart it simulates.
type stormKind int

const (
	// stormResume resumes from the resourceVersion it last saw (recent).
	stormResume stormKind = iota
	// stormRV0 asks for the whole state first (resourceVersion=0).
	stormRV0
	// stormWatchList is an informer's watch-list: sendInitialEvents=true,
	// established at the initial-events-end bookmark.
	stormWatchList
	stormKinds
)

func (k stormKind) String() string {
	return [...]string{"resume", "rv=0", "watch-list"}[k]
}

// stormURL is the watch a watcher of kind k opens: all pods, as
// informers watch them.
func stormURL(srv *framework.Server, k stormKind, rv string) string {
	base := srv.URL + "/api/v1/pods?watch=1&timeoutSeconds=600&allowWatchBookmarks=true"
	switch k {
	case stormResume:
		return base + "&resourceVersion=" + rv
	case stormRV0:
		return base + "&resourceVersion=0"
	default:
		return base + "&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion="
	}
}

// stormResult is what one storm measured.
type stormResult struct {
	established [stormKinds]durations // per kind: from the storm's start
	all         time.Duration         // until the last watch was established
	retried     int64                 // 429 and 504 answers the watchers waited out
	live, obj   uint64                // peak heap growth over the settled heap before
	goroutines  int                   // peak goroutine growth
	cpu         time.Duration         // CPU time of the process (server and watchers)
	before      uint64                // settled live heap before
}

// storm opens stormWatchers watches at once, a third of each kind, half
// in protobuf and half in JSON, waits until every one is established
// (response headers for a resume; every pod read for rv=0; the
// initial-events-end bookmark for a watch-list), then closes them all.
// A 429 or 504 with Retry-After is retried after it, as informers do.
func storm(b *testing.B, srv *framework.Server, client *http.Client, rv string) stormResult {
	b.Helper()
	var res stormResult
	_, res.before = heap()
	g0 := runtime.NumGoroutine()
	cpu0 := cpuTime()
	peaks := watchHeap()
	gpeak := sampleGoroutines()
	ctx, cancel := context.WithTimeout(context.Background(), stormTimeout)
	defer cancel()
	at := make([]time.Duration, stormWatchers)
	var wg, readers sync.WaitGroup
	var failed, retried atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	for w := range stormWatchers {
		wg.Go(func() {
			k := stormKind(w % int(stormKinds))
			enc := encJSON
			if w%2 == 0 {
				enc = encProto
			}
			body, err := openStormWatch(ctx, client, stormURL(srv, k, rv), enc, &retried)
			if err == nil {
				err = waitEstablished(body, k, enc)
			}
			if err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, fmt.Errorf("watcher %d (%s, %s): %w", w, k, enc.name, err))
				return
			}
			at[w] = time.Since(start)
			readers.Go(func() { io.Copy(io.Discard, body); body.Close() })
		})
	}
	wg.Wait()
	res.all = time.Since(start)
	res.cpu = cpuTime() - cpu0
	res.retried = retried.Load()
	res.live, res.obj = peaks()
	res.goroutines = gpeak() - g0
	cancel()
	readers.Wait()
	client.CloseIdleConnections()
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d of %d watches failed; first: %v", n, stormWatchers, firstErr.Load())
	}
	for w, d := range at {
		k := w % int(stormKinds)
		res.established[k] = append(res.established[k], d)
	}
	return res
}

// openStormWatch sends the watch request, waiting out a 429 or 504 that
// carries Retry-After (a 504 "Too large resource version" is a watch from
// the current state whose wait for the cache ran out), as an informer
// retries them.
func openStormWatch(ctx context.Context, client *http.Client, url string, enc encoding, retried *atomic.Int64) (io.ReadCloser, error) {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", enc.accept)
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusOK {
			return resp.Body, nil
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusGatewayTimeout) || err != nil {
			return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, msg)
		}
		retried.Add(1)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(secs) * time.Second):
		}
	}
}

// initialEventsEnd is the annotation of the bookmark that ends a
// watch-list's initial events, as it appears in either encoding.
var initialEventsEnd = []byte("initial-events-end")

// waitEstablished reads the stream until the watch of kind k is
// established, with a small reader: the clients' memory is in the same
// heap as the server's.
func waitEstablished(body io.ReadCloser, k stormKind, enc encoding) error {
	if k == stormResume {
		return nil
	}
	r := bufio.NewReaderSize(body, 4096)
	small := make([]byte, 4096)
	for events := 0; ; events++ {
		var event []byte
		if enc == encProto {
			var size [4]byte
			if _, err := io.ReadFull(r, size[:]); err != nil {
				return fmt.Errorf("after %d events: %w", events, err)
			}
			n := int(binary.BigEndian.Uint32(size[:]))
			if n > len(small) {
				// An object event: a bookmark is small.
				if _, err := r.Discard(n); err != nil {
					return err
				}
			} else {
				if _, err := io.ReadFull(r, small[:n]); err != nil {
					return err
				}
				event = small[:n]
			}
		} else {
			line, err := r.ReadSlice('\n')
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				line = nil // a long line is an object
			}
			if err != nil {
				return fmt.Errorf("after %d events: %w", events, err)
			}
			event = line
		}
		switch k {
		case stormRV0:
			if events+1 == stormPods {
				return nil
			}
		case stormWatchList:
			if bytes.Contains(event, initialEventsEnd) {
				if events != stormPods {
					return fmt.Errorf("initial events ended after %d events, want %d", events, stormPods)
				}
				return nil
			}
		}
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sampleGoroutines samples the goroutine count every 5ms until the
// returned function is called, which returns the peak.
func sampleGoroutines() func() int {
	sample := []metrics.Sample{{Name: "/sched/goroutines:goroutines"}}
	stop, done := make(chan struct{}), make(chan struct{})
	var peak int
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, int(sample[0].Value.Uint64()))
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() int { close(stop); <-done; return peak }
}

// BenchmarkWatchStorm measures a watch storm after a restart (issue 17):
// 1,000 watchers of all pods reconnect at once to a server holding 3,000
// pods, a third resuming from a recent resourceVersion, a third from
// resourceVersion=0 (the whole state as ADDED events) and a third as
// watch-lists (sendInitialEvents=true), half in protobuf, half in JSON.
// It reports the time until every watch is established, per kind and in
// all, and the growth of the server's heap (live, and all objects) and of
// its goroutines over the server at rest just before, sampled every 5ms.
// The server runs in this process; the watchers read with 4 KiB buffers
// and drop what they read, so the growth is the server's.
func BenchmarkWatchStorm(b *testing.B) {
	if limit := raiseFileLimit(); limit < 2*stormWatchers+512 {
		b.Fatalf("open-file limit %d is too low for %d watch streams", limit, stormWatchers)
	}
	srv := startServer(b)
	etcd, _ := etcdtest.Client(b)
	ld := newLoader(b, srv, etcd)
	ld.load(b, 1, stormPods)
	client := manyConnClient(2 * stormWatchers)
	if n := cachedCount(b, client, srv); n != stormPods {
		b.Fatalf("the cache holds %d pods, want %d", n, stormPods)
	}
	var buf bytes.Buffer
	if _, err := fetch(context.Background(), client, podsURL(srv)+"?limit=1", encJSON, &buf); err != nil {
		b.Fatal(err)
	}
	lm, err := listMetaOf(encJSON, buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	w := os.Stdout
	fmt.Fprintf(w, "\nBenchmarkWatchStorm: %d pods; %d watchers at once (a third each of resume, rv=0, watch-list; half protobuf); GOMAXPROCS %d; %s\n\n",
		stormPods, stormWatchers, runtime.GOMAXPROCS(0), stamp())
	fmt.Fprintln(w, "| run | all established s | CPU s | resume p50 / max s | rv=0 p50 / max s | watch-list p50 / max s | 429/504 waited out | settled heap MB | peak live heap growth MB | peak heap objects growth MB | peak goroutines growth |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for i := range b.N {
		r := storm(b, srv, client, lm.ResourceVersion)
		sec := func(d durations, q float64) float64 { return d.quantile(q) / 1000 }
		mb := func(v uint64) float64 { return (float64(v) - float64(r.before)) / 1e6 }
		fmt.Fprintf(w, "| %d | %.1f | %.1f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %d | %.0f | %.0f | %.0f | %d |\n", i+1, r.all.Seconds(), r.cpu.Seconds(),
			sec(r.established[stormResume], 0.5), sec(r.established[stormResume], 1),
			sec(r.established[stormRV0], 0.5), sec(r.established[stormRV0], 1),
			sec(r.established[stormWatchList], 0.5), sec(r.established[stormWatchList], 1),
			r.retried, float64(r.before)/1e6, mb(r.live), mb(r.obj), r.goroutines)
		b.ReportMetric(r.all.Seconds(), "established-s")
		b.ReportMetric(r.cpu.Seconds(), "cpu-s")
		b.ReportMetric(mb(r.live), "live-growth-MB")
		b.ReportMetric(mb(r.obj), "objects-growth-MB")
	}
	b.ReportMetric(0, "ns/op")
	fmt.Fprintln(w)
}
