package bench

import (
	"fmt"
	"io"
	"math"
)

// printTable writes the results as a markdown table: per concurrency and
// operation, the throughput of etcd and of the API server over JSON and
// over protobuf ("proto", absent when not measured), each API figure as a
// fraction of etcd's, and latency percentiles of all three.
func printTable(w io.Writer, resource string, results map[cell]*result) {
	fmt.Fprintf(w, "\n%s: API server (JSON and protobuf) vs raw etcd (ops/s; latencies in ms)\n\n", resource)
	fmt.Fprintln(w, "| clients | operation | etcd ops/s | JSON ops/s | JSON/etcd | proto ops/s | proto/etcd | etcd p50 | JSON p50 | proto p50 | etcd p99 | JSON p99 | proto p99 |")
	fmt.Fprintln(w, "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, lv := range levels {
		for _, op := range operations {
			c := fmt.Sprint(lv.clients)
			e := results[cell{c, op, "etcd"}]
			if e == nil {
				continue
			}
			a, p := results[cell{c, op, "api"}], results[cell{c, op, "proto"}]
			rate := func(r *result) string {
				if r == nil {
					return "n/a"
				}
				return fmt.Sprintf("%.0f", r.opsPerSec())
			}
			ratio := func(r *result) string {
				if r == nil || e.opsPerSec() == 0 {
					return "n/a"
				}
				return fmt.Sprintf("%.0f%%", 100*r.opsPerSec()/e.opsPerSec())
			}
			pct := func(r *result, q float64) string {
				if r == nil {
					return "n/a"
				}
				v := r.percentile(q)
				if math.IsNaN(v) {
					return "n/a"
				}
				return fmt.Sprintf("%.2f", v)
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				lv.clients, op, rate(e), rate(a), ratio(a), rate(p), ratio(p),
				pct(e, 0.50), pct(a, 0.50), pct(p, 0.50),
				pct(e, 0.99), pct(a, 0.99), pct(p, 0.99))
		}
	}
	fmt.Fprintln(w)
}
