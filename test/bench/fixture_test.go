package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/encoding/protowire"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// This file holds what the list, watch, memory and encoding benchmarks
// share: a server, pods written straight into etcd, requests in either
// encoding, and small statistics.

// benchNamespace holds the pods of those benchmarks; each server has a key
// prefix of its own, so the namespace holds only the benchmark's pods.
const benchNamespace = "default"

// startServer starts an in-process API server with the API server's etcd
// compaction off, so that no snapshot a continue token points at is
// compacted during a run (compaction is global to the shared test etcd).
func startServer(b *testing.B, opts ...framework.Option) *framework.Server {
	b.Helper()
	all := append([]framework.Option{func(o *options.Options) { o.Etcd.CompactionInterval = 0 }}, opts...)
	return framework.Start(b, all...)
}

// startSideServer is startServer for the side of a comparison named
// side: the server's goroutines, its etcd's included, carry the pprof
// label side=<side>, as compareWrites gives that side's clients, so a CPU
// profile of the benchmark splits by side (go tool pprof -tagfocus
// side=<side>). Left out: the collector's work, unlabelled, and the test
// etcd's, which every server shares and which carries the label of the
// side that started it (the first).
func startSideServer(b *testing.B, side string, opts ...framework.Option) *framework.Server {
	var s *framework.Server
	pprof.Do(context.Background(), pprof.Labels("side", side), func(context.Context) { s = startServer(b, opts...) })
	return s
}

// podsURL is the collection of the benchmark's pods.
func podsURL(s *framework.Server) string {
	return s.URL + "/api/v1/namespaces/" + benchNamespace + "/pods"
}

// podName names pod i of a benchmark; all names have the same length, so
// the stored values of all pods have the same length too.
func podName(i int) string { return fmt.Sprintf("bench-pod-%07d", i) }

// podUID is a distinct uid for pod i, as long as a random one.
func podUID(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i) }

// loader writes pods straight into etcd at the API server's keys, in the
// form the server stores them: the stored value of one pod created through
// the API, with its name and uid changed. Loading this way takes a fraction
// of the time creating through the API would take.
type loader struct {
	client    *clientv3.Client
	keyPrefix string // <server prefix>/core/pods/<namespace>/
	value     []byte // the probe's stored value
	probe     string // the probe's name
	uidAt     int    // offset of the uid in value
	uidLen    int
}

// newLoader creates pod 0 through the API server and reads back what the
// server stored for it; that pod is the first of the benchmark's pods.
func newLoader(b *testing.B, srv *framework.Server, etcd *clientv3.Client) *loader {
	b.Helper()
	bd, err := newBodies("Pod")
	if err != nil {
		b.Fatal(err)
	}
	api := &apiTarget{client: newHTTPClient(), collection: podsURL(srv), bodies: bd}
	defer api.client.CloseIdleConnections()
	probe := object{name: podName(0)}
	if err := api.create(context.Background(), &probe); err != nil {
		b.Fatalf("create probe pod: %v", err)
	}
	l := &loader{client: etcd, keyPrefix: srv.Prefix + "/core/pods/" + benchNamespace + "/", probe: probe.name}
	resp, err := etcd.Get(context.Background(), l.keyPrefix+probe.name)
	if err != nil {
		b.Fatal(err)
	}
	if len(resp.Kvs) != 1 {
		b.Fatalf("the probe pod is not stored at %s%s", l.keyPrefix, probe.name)
	}
	l.value = resp.Kvs[0].Value
	uid, rv := storedMeta(b, l.value)
	if rv != "" {
		b.Fatalf("the stored probe has a resourceVersion; the stored format changed")
	}
	// The stored value is cloned by byte replacement: names and uids of
	// equal length keep both JSON and protobuf (length-prefixed) intact.
	i := bytes.Index(l.value, []byte(uid))
	if uid == "" || i < 0 || len(uid) != len(podUID(0)) {
		b.Fatalf("no 36-character uid in the stored probe: %.300q", l.value)
	}
	l.uidAt, l.uidLen = i, len(uid)
	return l
}

// storedMeta reads the uid and resourceVersion of a stored pod, in the
// protobuf envelope or JSON, whichever the server wrote.
func storedMeta(b *testing.B, value []byte) (uid, rv string) {
	b.Helper()
	if bytes.HasPrefix(value, protobuf.Prefix()) {
		var pod corev1.Pod
		if _, _, err := protobuf.DecodeInto(value, &pod); err != nil {
			b.Fatalf("stored probe: %v", err)
		}
		return string(pod.UID), pod.ResourceVersion
	}
	var stored struct {
		Metadata struct {
			UID             string `json:"uid"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(value, &stored); err != nil {
		b.Fatalf("stored probe is neither protobuf nor JSON: %v", err)
	}
	return stored.Metadata.UID, stored.Metadata.ResourceVersion
}

// valueOf returns the stored value of pod i.
func (l *loader) valueOf(i int) []byte {
	v := bytes.ReplaceAll(l.value, []byte(l.probe), []byte(podName(i)))
	copy(v[l.uidAt:l.uidAt+l.uidLen], podUID(i))
	return v
}

// load writes pods from..to-1 (pod 0 is the probe, already stored) from
// 32 concurrent writers, one put per pod: each pod gets a revision of its
// own, as when created through the API (the watch cache assumes that).
func (l *loader) load(b *testing.B, from, to int) {
	b.Helper()
	const writers = 32
	from = max(from, 1)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int, writers)
	)
	for range writers {
		wg.Go(func() {
			for i := range next {
				ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
				_, err := l.client.Put(ctx, l.keyPrefix+podName(i), string(l.valueOf(i)))
				cancel()
				if err != nil {
					mu.Lock()
					if first == nil {
						first = fmt.Errorf("pod %d: %w", i, err)
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := from; i < to; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if first != nil {
		b.Fatalf("load pods %d..%d into etcd: %v", from, to-1, first)
	}
}

// storedSize returns the mean key and value sizes of the pods in etcd.
func (l *loader) storedSize(b *testing.B) (keyBytes, valueBytes float64, n int) {
	b.Helper()
	resp, err := l.client.Get(context.Background(), l.keyPrefix, clientv3.WithPrefix())
	if err != nil {
		b.Fatal(err)
	}
	var k, v int
	for _, kv := range resp.Kvs {
		k += len(kv.Key)
		v += len(kv.Value)
	}
	n = len(resp.Kvs)
	if n == 0 {
		return 0, 0, 0
	}
	return float64(k) / float64(n), float64(v) / float64(n), n
}

// cachedCount waits until the server's watch cache has caught up with etcd
// (a consistent list waits for that) and returns how many pods it holds,
// with a list of one item.
func cachedCount(b *testing.B, client *http.Client, srv *framework.Server) int {
	b.Helper()
	var buf bytes.Buffer
	if _, err := fetch(context.Background(), client, podsURL(srv)+"?limit=1", encJSON, &buf); err != nil {
		b.Fatal(err)
	}
	var l struct {
		Metadata struct {
			Remaining *int64 `json:"remainingItemCount"`
		} `json:"metadata"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(buf.Bytes(), &l); err != nil {
		b.Fatal(err)
	}
	n := len(l.Items)
	if l.Metadata.Remaining != nil {
		n += int(*l.Metadata.Remaining)
	}
	return n
}

// encoding is a response format a client asks for.
type encoding struct{ name, accept string }

var (
	encJSON  = encoding{"JSON", "application/json"}
	encProto = encoding{"protobuf", protobuf.MediaType}
)

// fetch GETs url in the encoding into buf (reset first) and returns the
// response size.
func fetch(ctx context.Context, client *http.Client, url string, enc encoding, buf *bytes.Buffer) (int, error) {
	buf.Reset()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", enc.accept)
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(buf, resp.Body); err != nil {
		return 0, fmt.Errorf("GET %s: read body: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: HTTP %d: %.300s", url, resp.StatusCode, buf.Bytes())
	}
	if ct := resp.Header.Get("Content-Type"); !bytes.HasPrefix([]byte(ct), []byte(enc.accept)) {
		return 0, fmt.Errorf("GET %s as %s: got Content-Type %q", url, enc.accept, ct)
	}
	return buf.Len(), nil
}

// listMetaOf returns the list metadata at the start of a list response,
// without decoding the items: in JSON, metadata comes before items; in
// protobuf, it is field 1 of the list inside the envelope.
func listMetaOf(enc encoding, body []byte) (meta.ListMeta, error) {
	var lm meta.ListMeta
	if enc == encJSON {
		end := bytes.Index(body, []byte(`"items":`))
		if end < 0 {
			return lm, fmt.Errorf("no items in %.200s", body)
		}
		// The head is `{"kind":...,"metadata":{...},`: close it.
		head := append(bytes.Clone(body[:end]), []byte(`"items":null}`)...)
		var l struct {
			Metadata meta.ListMeta `json:"metadata"`
		}
		err := json.Unmarshal(head, &l)
		return l.Metadata, err
	}
	_, _, raw, err := protobuf.Decode(body)
	if err != nil {
		return lm, err
	}
	for len(raw) > 0 {
		num, typ, n := protowire.ConsumeTag(raw)
		if n < 0 {
			return lm, protowire.ParseError(n)
		}
		raw = raw[n:]
		if num == 1 && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(raw)
			if n < 0 {
				return lm, protowire.ParseError(n)
			}
			return lm, lm.UnmarshalProto(v)
		}
		n = protowire.ConsumeFieldValue(num, typ, raw)
		if n < 0 {
			return lm, protowire.ParseError(n)
		}
		raw = raw[n:]
	}
	return lm, fmt.Errorf("no list metadata in the protobuf list")
}

// durations are the times of repeated runs of one scenario.
type durations []time.Duration

// quantile is the nearest-rank q-quantile in milliseconds (q in (0, 1]).
func (d durations) quantile(q float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(float64(len(s))*q+0.999999) - 1
	i = max(0, min(i, len(s)-1))
	return float64(s[i]) / float64(time.Millisecond)
}

func (d durations) median() float64 { return d.quantile(0.5) }

func (d durations) min() float64 {
	if len(d) == 0 {
		return 0
	}
	return float64(slices.Min(d)) / float64(time.Millisecond)
}

// ratio formats a/b, or n/a.
func ratio(a, b float64) string {
	if b <= 0 {
		return "n/a"
	}
	return strconv.FormatFloat(a/b, 'f', 2, 64) + "x"
}

// heap returns the heap in use and the live heap after two full
// collections, with freed memory returned to the system.
func heap() (inuse, alloc uint64) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse, ms.HeapAlloc
}

// raiseFileLimit lifts the soft limit on open files to the hard one and
// returns it.
func raiseFileLimit() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	if rl.Cur < rl.Max {
		rl.Cur = rl.Max
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl)
	}
	return rl.Cur
}

// manyConnClient is an HTTP client for many concurrent long requests: no
// overall timeout (watches last), and room for many idle connections.
func manyConnClient(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}}
}

// stamp is the time of day the figures were taken.
func stamp() string { return time.Now().UTC().Format(time.RFC3339) }
