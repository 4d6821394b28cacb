package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// listPods is how many pods the list benchmarks hold.
const listPods = 10000

// listLimit bounds the time of the list scenarios: no new round starts
// after it (the first two rounds always run).
const listLimit = 150 * time.Second

// listRounds is how many times each list is timed.
const listRounds = 5

// listVariant is one way of listing all the pods.
type listVariant struct {
	rv    string // resourceVersion: "0", or "" for unset (a consistent list)
	limit int    // page size; 0 for one page
	enc   encoding
}

func (v listVariant) String() string {
	rv := "unset"
	if v.rv != "" {
		rv = v.rv
	}
	return fmt.Sprintf("%s rv=%s limit=%d", v.enc.name, rv, v.limit)
}

// url returns the URL of a page of the list.
func (v listVariant) url(collection, cont string) string {
	q := url.Values{}
	if v.rv != "" && cont == "" {
		q.Set("resourceVersion", v.rv)
	}
	if v.limit > 0 {
		q.Set("limit", strconv.Itoa(v.limit))
	}
	if cont != "" {
		q.Set("continue", cont)
	}
	if len(q) == 0 {
		return collection
	}
	return collection + "?" + q.Encode()
}

// listed is what listing all pages returned.
type listed struct {
	pages, bytes int
}

// listAll lists every page of v, following continue, reading each
// response whole and only its metadata.
func listAll(ctx context.Context, tc *listClient, v listVariant) (listed, error) {
	var out listed
	cont := ""
	for {
		n, err := fetch(ctx, tc.client, v.url(tc.collection, cont), v.enc, &tc.buf)
		if err != nil {
			return out, err
		}
		out.pages++
		out.bytes += n
		lm, err := listMetaOf(v.enc, tc.buf.Bytes())
		if err != nil {
			return out, fmt.Errorf("page %d: %w", out.pages, err)
		}
		if lm.Continue == "" {
			return out, nil
		}
		if out.pages > listPods {
			return out, fmt.Errorf("more than %d pages", listPods)
		}
		cont = lm.Continue
	}
}

// listClient lists one server with a buffer for the responses.
type listClient struct {
	client     *http.Client
	collection string
	buf        bytes.Buffer
}

// decodeList decodes a list response whole.
func decodeList(enc encoding, body []byte) (*corev1.PodList, error) {
	var l corev1.PodList
	if enc == encJSON {
		if err := json.Unmarshal(body, &l); err != nil {
			return nil, err
		}
		return &l, nil
	}
	if _, _, err := protobuf.DecodeInto(body, &l); err != nil {
		return nil, err
	}
	return &l, nil
}

// checkList lists all pages of v once, decoding every page, and fails
// unless they hold n distinct pods. It returns the pods when v is a single
// page.
func checkList(b *testing.B, tc *listClient, v listVariant, n int) *corev1.PodList {
	b.Helper()
	seen := map[string]bool{}
	var first *corev1.PodList
	cont := ""
	for page := 1; ; page++ {
		if _, err := fetch(context.Background(), tc.client, v.url(tc.collection, cont), v.enc, &tc.buf); err != nil {
			b.Fatalf("%v: %v", v, err)
		}
		l, err := decodeList(v.enc, tc.buf.Bytes())
		if err != nil {
			b.Fatalf("%v: decode: %v", v, err)
		}
		for _, p := range l.Items {
			seen[p.Name] = true
		}
		if page == 1 {
			first = l
		}
		if l.Continue == "" {
			if page > 1 {
				first = nil
			}
			break
		}
		if v.limit > 0 && len(l.Items) != v.limit {
			b.Fatalf("%v: a page of %d items", v, len(l.Items))
		}
		cont = l.Continue
	}
	if len(seen) != n {
		b.Fatalf("%v: listed %d distinct pods, want %d", v, len(seen), n)
	}
	return first
}

// storedValues reads the stored values of the pods from etcd.
func storedValues(b *testing.B, l *loader) [][]byte {
	b.Helper()
	resp, err := l.client.Get(context.Background(), l.keyPrefix, clientv3.WithPrefix())
	if err != nil {
		b.Fatal(err)
	}
	out := make([][]byte, len(resp.Kvs))
	for i, kv := range resp.Kvs {
		out[i] = kv.Value
	}
	return out
}

// timeIt returns how long f takes.
func timeIt(f func()) time.Duration {
	t0 := time.Now()
	f()
	return time.Since(t0)
}

// encodeJSON, encodeProto and decodeStored are the baselines of the list
// benchmarks: the encoding of the same pods once, in the benchmark process,
// and the decoding of their stored values once (the server decodes every
// stored value of a list before encoding it).
func encodeJSON(pods *corev1.PodList) int {
	data, err := json.Marshal(pods)
	if err != nil {
		panic(err)
	}
	return len(data)
}

func encodeProto(pods *corev1.PodList) int {
	return len(protobuf.Encode("v1", "PodList", pods))
}

// decodeStored decodes the stored values as the server does: the protobuf
// envelope, or JSON for values written as JSON.
func decodeStored(values [][]byte) int {
	for _, v := range values {
		var p corev1.Pod
		var err error
		if bytes.HasPrefix(v, protobuf.Prefix()) {
			_, _, err = protobuf.DecodeInto(v, &p)
		} else {
			err = json.Unmarshal(v, &p)
		}
		if err != nil {
			panic(err)
		}
	}
	return len(values)
}

// listVariants are the lists timed by BenchmarkList.
var listVariants = []listVariant{
	{"0", 0, encJSON}, {"", 0, encJSON}, {"0", 500, encJSON}, {"", 500, encJSON},
	{"0", 0, encProto}, {"", 0, encProto}, {"0", 500, encProto}, {"", 500, encProto},
}

// Baseline names.
const (
	baseJSON   = "json.Marshal once"
	baseProto  = "MarshalProto once"
	baseDecode = "json.Unmarshal of the stored values once"
)

// BenchmarkList measures LIST of 10,000 pods of ~2 KiB (2.7 KiB stored)
// through an in-process API server with the watch cache: with
// resourceVersion=0 and unset, in one page and in pages of 500 following
// continue, in JSON and in protobuf; next to the time to encode the same
// pods once in the benchmark process (json.Marshal of the PodList,
// MarshalProto in the envelope). Each list is timed listRounds times, the
// lists and the baselines interleaved, in a rotating order; a table of
// medians is printed at the end.
func BenchmarkList(b *testing.B) {
	srv := startServer(b)
	etcd, _ := etcdtest.Client(b)
	ld := newLoader(b, srv, etcd)
	loadTime := timeIt(func() { ld.load(b, 1, listPods) })
	tc := &listClient{client: newHTTPClient(), collection: podsURL(srv)}
	b.Cleanup(tc.client.CloseIdleConnections)
	if n := cachedCount(b, tc.client, srv); n != listPods {
		b.Fatalf("the cache holds %d pods, want %d", n, listPods)
	}
	keyBytes, valueBytes, _ := ld.storedSize(b)
	fmt.Printf("\nBenchmarkList: %d pods loaded into etcd in %v; stored key %.0f bytes, value %.0f bytes; etcd %s; GOMAXPROCS %d; %s\n",
		listPods, loadTime.Round(time.Millisecond), keyBytes, valueBytes, etcdMode(), runtime.GOMAXPROCS(0), stamp())

	// Every list once, decoding all pages: a check, and a warm-up.
	var pods *corev1.PodList
	for _, v := range listVariants {
		if l := checkList(b, tc, v, listPods); l != nil && v.enc == encJSON {
			pods = l
		}
	}
	values := storedValues(b, ld)

	times := map[string]durations{}
	size := map[string]int{}
	pageCount := map[string]int{}
	deadline := time.Now().Add(listLimit)
	for range b.N {
		for r := 0; r < listRounds && (r < 2 || time.Now().Before(deadline)); r++ {
			times[baseJSON] = append(times[baseJSON], timeIt(func() { size[baseJSON] = encodeJSON(pods) }))
			times[baseProto] = append(times[baseProto], timeIt(func() { size[baseProto] = encodeProto(pods) }))
			times[baseDecode] = append(times[baseDecode], timeIt(func() { decodeStored(values) }))
			for i := range listVariants {
				v := listVariants[(i+r)%len(listVariants)]
				ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
				var got listed
				var err error
				d := timeIt(func() { got, err = listAll(ctx, tc, v) })
				cancel()
				if err != nil {
					b.Fatalf("%v: %v", v, err)
				}
				k := v.String()
				times[k] = append(times[k], d)
				size[k], pageCount[k] = got.bytes, got.pages
			}
		}
	}
	b.ReportMetric(0, "ns/op")

	w := os.Stdout
	fmt.Fprintf(w, "\nLIST of %d pods (median and fastest of %d runs; ratio: median over the median of encoding the same pods once)\n\n",
		listPods, len(times[baseJSON]))
	fmt.Fprintln(w, "| list | encoding | resourceVersion | limit | pages | response MB | median ms | fastest ms | / encode once |")
	fmt.Fprintln(w, "|---|---|---|--:|--:|--:|--:|--:|--:|")
	for _, v := range listVariants {
		k := v.String()
		base := baseJSON
		if v.enc == encProto {
			base = baseProto
		}
		rv, limit := "unset", "none"
		if v.rv != "" {
			rv = v.rv
		}
		if v.limit > 0 {
			limit = strconv.Itoa(v.limit)
		}
		fmt.Fprintf(w, "| LIST | %s | %s | %s | %d | %.1f | %.0f | %.0f | %s |\n", v.enc.name, rv, limit, pageCount[k],
			float64(size[k])/1e6, times[k].median(), times[k].min(), ratio(times[k].median(), times[base].median()))
		b.ReportMetric(times[k].median()/times[base].median(), metricName(v))
	}
	for _, base := range []string{baseJSON, baseProto, baseDecode} {
		mb := "-"
		if size[base] > 0 {
			mb = fmt.Sprintf("%.1f", float64(size[base])/1e6)
		}
		fmt.Fprintf(w, "| baseline: %s | | | | | %s | %.0f | %.0f | |\n", base, mb, times[base].median(), times[base].min())
	}
	fmt.Fprintln(w)
}

// metricName names a list's ratio to its baseline in the benchmark output.
func metricName(v listVariant) string {
	rv := "unset"
	if v.rv != "" {
		rv = v.rv
	}
	return fmt.Sprintf("%s-rv%s-limit%d/encode", v.enc.name, rv, v.limit)
}

// etcdMode describes the test etcd.
func etcdMode() string {
	if m := os.Getenv(etcdtest.EnvEndpoints); m != "" {
		return m
	}
	return "embedded"
}
