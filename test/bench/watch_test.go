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
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"platform.io/platform/test/integration/framework"
)

const (
	// fanOutWatchers is the number of concurrent watch streams.
	fanOutWatchers = 1000
	// fanOutChanges is how many changes each configuration is timed over,
	// split evenly over fanOutRounds.
	fanOutChanges = 100
	fanOutRounds  = 4
	// deliveryTimeout bounds the wait for one change to reach every watcher.
	deliveryTimeout = 30 * time.Second
	// changePause separates changes, so each is timed on quiet streams.
	changePause = 50 * time.Millisecond
)

// The seq annotation of the benchmark's pod, as it appears in a JSON watch
// event and in a protobuf one (a map entry: the key, then field 2 of eight
// bytes); eight digits follow.
var (
	seqJSON  = []byte(`"bench.platform.io/seq":"`)
	seqProto = []byte("bench.platform.io/seq\x12\x08")
)

// seqOf finds the pod's seq annotation in one watch event.
func seqOf(enc encoding, event []byte) (int, bool) {
	marker := seqJSON
	if enc == encProto {
		marker = seqProto
	}
	i := bytes.Index(event, marker)
	if i < 0 || len(event) < i+len(marker)+8 {
		return 0, false
	}
	n, err := strconv.Atoi(string(event[i+len(marker) : i+len(marker)+8]))
	return n, err == nil
}

// fanOut times the delivery of changes of one pod to groups of watchers.
type fanOut struct {
	srv     *framework.Server
	api     *apiTarget
	pod     object
	seq     int
	maxSeq  int
	arrived []atomic.Int64  // per seq: how many watchers have it
	done    []chan struct{} // per seq: closed when all have it
}

// watchers is one group of open watch streams.
type watchers struct {
	n      int
	enc    encoding
	client *http.Client
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// at[w][seq] is when watcher w read change seq (UnixNano).
	at      [][]int64
	closing atomic.Bool
	broken  atomic.Int64 // streams that ended or failed early
	first   atomic.Value // the first failure
}

// open starts n watch streams of the pod's namespace from its current
// resourceVersion, and returns once the server has answered every one of
// them (then every watch is registered with the cache).
func (f *fanOut) open(b *testing.B, n int, enc encoding) *watchers {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ws := &watchers{n: n, enc: enc, client: manyConnClient(2 * n), cancel: cancel, at: make([][]int64, n)}
	url := podsURL(f.srv) + "?watch=1&timeoutSeconds=900&resourceVersion=" + f.pod.rv
	const dialers = 50
	next := make(chan int)
	var opening sync.WaitGroup
	var failed atomic.Int64
	var firstErr atomic.Value
	for range dialers {
		opening.Go(func() {
			for w := range next {
				ws.at[w] = make([]int64, f.maxSeq+1)
				req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				if err == nil {
					req.Header.Set("Accept", enc.accept)
					var resp *http.Response
					if resp, err = ws.client.Do(req); err == nil {
						if resp.StatusCode != http.StatusOK {
							body, _ := io.ReadAll(resp.Body)
							resp.Body.Close()
							err = fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, body)
						} else {
							ws.wg.Go(func() { f.read(ws, w, resp.Body) })
						}
					}
				}
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err)
				}
			}
		})
	}
	for w := range n {
		next <- w
	}
	close(next)
	opening.Wait()
	if failed.Load() > 0 {
		ws.close()
		b.Fatalf("%d of %d %s watches failed to open; first: %v", failed.Load(), n, enc.name, firstErr.Load())
	}
	return ws
}

// read consumes watcher w's stream, noting when each change arrives.
func (f *fanOut) read(ws *watchers, w int, body io.ReadCloser) {
	defer body.Close()
	r := bufio.NewReaderSize(body, 64<<10)
	var frame []byte
	for {
		var event []byte
		var err error
		if ws.enc == encProto {
			var size [4]byte
			if _, err = io.ReadFull(r, size[:]); err == nil {
				frame = slices.Grow(frame[:0], int(binary.BigEndian.Uint32(size[:])))[:binary.BigEndian.Uint32(size[:])]
				_, err = io.ReadFull(r, frame)
				event = frame
			}
		} else {
			event, err = r.ReadSlice('\n')
		}
		if err != nil {
			if !ws.closing.Load() {
				ws.broken.Add(1)
				ws.first.CompareAndSwap(nil, fmt.Errorf("watcher %d: %w", w, err))
			}
			return
		}
		now := time.Now().UnixNano()
		seq, ok := seqOf(ws.enc, event)
		if !ok || seq <= 0 || seq > f.maxSeq || ws.at[w][seq] != 0 {
			continue
		}
		ws.at[w][seq] = now
		if int(f.arrived[seq].Add(1)) == ws.n {
			close(f.done[seq])
		}
	}
}

// close ends the streams and waits for their readers.
func (ws *watchers) close() {
	ws.closing.Store(true)
	ws.cancel()
	ws.wg.Wait()
	ws.client.CloseIdleConnections()
}

// change updates the pod once and returns how long the last watcher and
// the median watcher took to read the change, from just before the update
// was sent; ok is false if some watcher did not get it within
// deliveryTimeout.
func (f *fanOut) change(b *testing.B, ws *watchers) (last, median time.Duration, ok bool) {
	b.Helper()
	f.seq++
	seq := f.seq
	if seq > f.maxSeq {
		b.Fatalf("more changes than planned (%d)", f.maxSeq)
	}
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	t0 := time.Now()
	if err := f.api.replace(ctx, &f.pod, seq); err != nil {
		b.Fatalf("update the pod: %v", err)
	}
	select {
	case <-f.done[seq]:
	case <-time.After(deliveryTimeout):
		return 0, 0, false
	}
	lat := make([]time.Duration, ws.n)
	for w := range ws.n {
		lat[w] = time.Duration(ws.at[w][seq] - t0.UnixNano())
	}
	slices.Sort(lat)
	return lat[len(lat)-1], lat[(len(lat)-1)/2], true
}

// fanOutResult is what one configuration (encoding, watchers) measured.
type fanOutResult struct {
	last, median durations
	missed       int
}

// BenchmarkWatchFanOut measures how long one change of a pod (an update
// through the API) takes to reach every one of 1,000 concurrent watchers
// (HTTP watch streams of the pod's namespace on loopback, from the watch
// cache), in JSON and in protobuf; next to it, the same with a single
// watcher, measured in the same run. Each configuration is timed over
// fanOutChanges changes, in fanOutRounds rounds that alternate single and
// many watchers; the time of a change runs from just before the update is
// sent until the last watcher has read the event. A table of p50 and p99
// over the changes is printed at the end.
func BenchmarkWatchFanOut(b *testing.B) {
	if limit := raiseFileLimit(); limit < 2*fanOutWatchers+512 {
		b.Fatalf("open-file limit %d is too low for %d watch streams (client and server ends)", limit, fanOutWatchers)
	}
	srv := startServer(b)
	bd, err := newBodies("Pod")
	if err != nil {
		b.Fatal(err)
	}
	f := &fanOut{srv: srv, api: &apiTarget{client: newHTTPClient(), collection: podsURL(srv), bodies: bd}, pod: object{name: podName(0)}}
	b.Cleanup(f.api.client.CloseIdleConnections)
	if err := f.api.create(context.Background(), &f.pod); err != nil {
		b.Fatal(err)
	}
	encs := []encoding{encJSON, encProto}
	counts := []int{1, fanOutWatchers}
	f.maxSeq = b.N * len(encs) * len(counts) * (fanOutChanges + fanOutRounds) // warm-up changes included
	f.arrived = make([]atomic.Int64, f.maxSeq+1)
	f.done = make([]chan struct{}, f.maxSeq+1)
	for i := range f.done {
		f.done[i] = make(chan struct{})
	}
	fmt.Printf("\nBenchmarkWatchFanOut: pod of %d request bytes; etcd %s; GOMAXPROCS %d; %s\n",
		len(bd.render(podName(0), "", 0)), etcdMode(), runtime.GOMAXPROCS(0), stamp())

	type key struct {
		enc encoding
		n   int
	}
	res := map[key]*fanOutResult{}
	for range b.N {
		for r := range fanOutRounds {
			for _, enc := range encs {
				order := slices.Clone(counts)
				if r%2 == 1 {
					slices.Reverse(order)
				}
				for _, n := range order {
					k := key{enc, n}
					if res[k] == nil {
						res[k] = &fanOutResult{}
					}
					ws := f.open(b, n, enc)
					time.Sleep(changePause)
					f.change(b, ws) // warm-up: not counted
					for range fanOutChanges / fanOutRounds {
						time.Sleep(changePause)
						last, median, ok := f.change(b, ws)
						if !ok {
							res[k].missed++
							continue
						}
						res[k].last = append(res[k].last, last)
						res[k].median = append(res[k].median, median)
					}
					ws.close()
					if broken := ws.broken.Load(); broken > 0 {
						b.Errorf("%s, %d watchers: %d streams ended early; first: %v", enc.name, n, broken, ws.first.Load())
					}
				}
			}
		}
	}
	b.ReportMetric(0, "ns/op")

	w := os.Stdout
	fmt.Fprintf(w, "\nWatch fan-out: one pod update delivered to every watcher (ms from just before the update to the last watcher's read; p50 and p99 over %d changes)\n\n", fanOutChanges*b.N)
	fmt.Fprintln(w, "| encoding | watchers | changes | last watcher p50 | p90 | p99 | median watcher p50 | p50 / single | p90 / single | p99 / single |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, enc := range encs {
		one := res[key{enc, 1}]
		for _, n := range counts {
			r := res[key{enc, n}]
			if r.missed > 0 {
				b.Errorf("%s, %d watchers: %d changes did not reach every watcher within %v", enc.name, n, r.missed, deliveryTimeout)
			}
			fmt.Fprintf(w, "| %s | %d | %d | %.2f | %.2f | %.2f | %.2f | %s | %s | %s |\n", enc.name, n, len(r.last),
				r.last.median(), r.last.quantile(0.9), r.last.quantile(0.99), r.median.median(),
				ratio(r.last.median(), one.last.median()), ratio(r.last.quantile(0.9), one.last.quantile(0.9)),
				ratio(r.last.quantile(0.99), one.last.quantile(0.99)))
			if n > 1 {
				b.ReportMetric(r.last.median()/one.last.median(), enc.name+"-p50/single")
				b.ReportMetric(r.last.quantile(0.99)/one.last.quantile(0.99), enc.name+"-p99/single")
				b.ReportMetric(r.last.quantile(0.99), enc.name+"-p99-ms")
			}
		}
	}
	fmt.Fprintln(w)
}
