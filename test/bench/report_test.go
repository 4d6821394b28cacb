package bench

import (
	"fmt"
	"io"
)

// printTable writes the results as a markdown table: per concurrency and
// operation, throughput and latency percentiles of the API server and of
// etcd, and the API server's throughput as a fraction of etcd's.
func printTable(w io.Writer, resource string, results map[cell]*result) {
	fmt.Fprintf(w, "\n%s: API server vs raw etcd (ops/s; latencies in ms)\n\n", resource)
	fmt.Fprintln(w, "| clients | operation | API ops/s | etcd ops/s | API/etcd | API p50 | etcd p50 | API p90 | etcd p90 | API p99 | etcd p99 |")
	fmt.Fprintln(w, "|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, lv := range levels {
		for _, op := range operations {
			c := fmt.Sprint(lv.clients)
			a, e := results[cell{c, op, "api"}], results[cell{c, op, "etcd"}]
			if a == nil || e == nil {
				continue
			}
			ratio := "n/a"
			if e.opsPerSec() > 0 {
				ratio = fmt.Sprintf("%.0f%%", 100*a.opsPerSec()/e.opsPerSec())
			}
			fmt.Fprintf(w, "| %d | %s | %.0f | %.0f | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
				lv.clients, op, a.opsPerSec(), e.opsPerSec(), ratio,
				a.percentile(0.50), e.percentile(0.50),
				a.percentile(0.90), e.percentile(0.90),
				a.percentile(0.99), e.percentile(0.99))
		}
	}
	fmt.Fprintln(w)
}
