package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/codec/protobuf"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

// getOps is how many GETs of one pod each encoding gets, over all rounds.
const getOps = 2000

// BenchmarkJSONVsProtobuf measures the same requests in JSON and in
// protobuf: GET of one ~2 KiB pod (one client, getOps requests per
// encoding, in rounds that alternate the encodings) and LIST of 10,000 such
// pods with resourceVersion=0 (from the watch cache). Next to them, the
// time to encode the same pod, or the same 10,000 pods, once in the
// benchmark process in each encoding. A table is printed at the end.
func BenchmarkJSONVsProtobuf(b *testing.B) {
	srv := startServer(b)
	etcd, _ := etcdtest.Client(b)
	ld := newLoader(b, srv, etcd)
	ld.load(b, 1, listPods)
	tc := &listClient{client: newHTTPClient(), collection: podsURL(srv)}
	b.Cleanup(tc.client.CloseIdleConnections)
	if n := cachedCount(b, tc.client, srv); n != listPods {
		b.Fatalf("the cache holds %d pods, want %d", n, listPods)
	}
	fmt.Printf("\nBenchmarkJSONVsProtobuf: %d pods; etcd %s; GOMAXPROCS %d; %s\n", listPods, etcdMode(), runtime.GOMAXPROCS(0), stamp())

	// Check both encodings of both requests, and keep the decoded objects
	// for the baselines.
	podURL := podsURL(srv) + "/" + podName(1)
	var pod corev1.Pod
	var buf bytes.Buffer
	if _, err := fetch(context.Background(), tc.client, podURL, encProto, &buf); err != nil {
		b.Fatal(err)
	}
	if _, _, err := protobuf.DecodeInto(buf.Bytes(), &pod); err != nil || pod.Name != podName(1) {
		b.Fatalf("protobuf GET: %v (name %q)", err, pod.Name)
	}
	getSize := map[encoding]int{}
	for _, enc := range []encoding{encJSON, encProto} {
		n, err := fetch(context.Background(), tc.client, podURL, enc, &buf)
		if err != nil {
			b.Fatal(err)
		}
		getSize[enc] = n
	}
	variants := []listVariant{{"0", 0, encJSON}, {"0", 0, encProto}}
	var pods *corev1.PodList
	for _, v := range variants {
		if l := checkList(b, tc, v, listPods); v.enc == encJSON {
			pods = l
		}
	}

	gets := map[encoding]*result{encJSON: {}, encProto: {}}
	lists := map[encoding]durations{}
	listSize := map[encoding]int{}
	var encGet, encList [2]durations // JSON, protobuf
	deadline := time.Now().Add(listLimit)
	for range b.N {
		for r := 0; r < listRounds && (r < 2 || time.Now().Before(deadline)); r++ {
			order := []encoding{encJSON, encProto}
			if r%2 == 1 {
				order[0], order[1] = order[1], order[0]
			}
			for _, enc := range order {
				gets[enc].merge(run(1, getOps/listRounds, scenarioLimit/listRounds, func(ctx context.Context, _ int) error {
					_, err := fetch(ctx, tc.client, podURL, enc, &buf)
					return err
				}))
			}
			for _, enc := range order {
				v := listVariant{"0", 0, enc}
				ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
				var got listed
				var err error
				d := timeIt(func() { got, err = listAll(ctx, tc, v) })
				cancel()
				if err != nil {
					b.Fatalf("%v: %v", v, err)
				}
				lists[enc] = append(lists[enc], d)
				listSize[enc] = got.bytes
			}
			const reps = 1000 // one pod's encoding is timed over this many
			encGet[0] = append(encGet[0], timeIt(func() {
				for range reps {
					encodeJSONPod(&pod)
				}
			})/reps)
			encGet[1] = append(encGet[1], timeIt(func() {
				for range reps {
					protobuf.Encode("v1", "Pod", &pod)
				}
			})/reps)
			encList[0] = append(encList[0], timeIt(func() { encodeJSON(pods) }))
			encList[1] = append(encList[1], timeIt(func() { encodeProto(pods) }))
		}
	}
	b.ReportMetric(0, "ns/op")
	for _, enc := range []encoding{encJSON, encProto} {
		if r := gets[enc]; r.errors > 0 {
			b.Errorf("GET %s: %d failures; first: %v", enc.name, r.errors, r.firstErr)
		}
	}
	j, p := gets[encJSON], gets[encProto]
	b.ReportMetric(p.opsPerSec()/j.opsPerSec(), "get-protobuf/json-ops")
	b.ReportMetric(lists[encJSON].median()/lists[encProto].median(), "list-json/protobuf-time")

	w := os.Stdout
	fmt.Fprintf(w, "\nJSON vs protobuf: GET of one pod (%d per encoding, one client) and LIST of %d pods with resourceVersion=0 (median of %d); JSON/protobuf: how many times faster protobuf is\n\n",
		j.ops, listPods, len(lists[encJSON]))
	fmt.Fprintln(w, "| request | JSON | protobuf | JSON/protobuf |")
	fmt.Fprintln(w, "|---|--:|--:|--:|")
	fmt.Fprintf(w, "| GET pod: ops/s | %.0f | %.0f | %s |\n", j.opsPerSec(), p.opsPerSec(), ratio(p.opsPerSec(), j.opsPerSec()))
	fmt.Fprintf(w, "| GET pod: p50 ms | %.3f | %.3f | %s |\n", j.percentile(0.5), p.percentile(0.5), ratio(j.percentile(0.5), p.percentile(0.5)))
	fmt.Fprintf(w, "| GET pod: p99 ms | %.3f | %.3f | %s |\n", j.percentile(0.99), p.percentile(0.99), ratio(j.percentile(0.99), p.percentile(0.99)))
	fmt.Fprintf(w, "| GET pod: response bytes | %d | %d | %s |\n", getSize[encJSON], getSize[encProto], ratio(float64(getSize[encJSON]), float64(getSize[encProto])))
	fmt.Fprintf(w, "| baseline: encode the pod once, µs | %.1f | %.1f | %s |\n", 1000*encGet[0].median(), 1000*encGet[1].median(), ratio(encGet[0].median(), encGet[1].median()))
	fmt.Fprintf(w, "| LIST %d pods: median ms | %.0f | %.0f | %s |\n", listPods, lists[encJSON].median(), lists[encProto].median(), ratio(lists[encJSON].median(), lists[encProto].median()))
	fmt.Fprintf(w, "| LIST %d pods: fastest ms | %.0f | %.0f | %s |\n", listPods, lists[encJSON].min(), lists[encProto].min(), ratio(lists[encJSON].min(), lists[encProto].min()))
	fmt.Fprintf(w, "| LIST %d pods: response MB | %.1f | %.1f | %s |\n", listPods, float64(listSize[encJSON])/1e6, float64(listSize[encProto])/1e6, ratio(float64(listSize[encJSON]), float64(listSize[encProto])))
	fmt.Fprintf(w, "| baseline: encode the %d pods once, ms | %.0f | %.0f | %s |\n", listPods, encList[0].median(), encList[1].median(), ratio(encList[0].median(), encList[1].median()))
	fmt.Fprintln(w)
}

// encodeJSONPod encodes one pod as json.Marshal does.
func encodeJSONPod(p *corev1.Pod) int {
	data, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	return len(data)
}
