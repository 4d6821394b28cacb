package bench

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// tableSides are the sides of the table, in column order, with their
// headings: raw etcd, the API server over JSON and over protobuf, and the
// HTTP floor (floor_test.go).
var tableSides = []struct{ name, heading string }{
	{"etcd", "etcd"}, {"api", "JSON"}, {"proto", "proto"}, {"floor", "floor"},
}

// printTable writes the results as a markdown table: per concurrency and
// operation, the throughput of each side measured, each as a fraction of
// etcd's, and the latency percentiles of each.
func printTable(w io.Writer, resource string, results map[cell]*result) {
	fmt.Fprintf(w, "\n%s: API server (JSON and protobuf) and HTTP floor vs raw etcd (ops/s; latencies in ms)\n\n", resource)
	var head, rule strings.Builder
	head.WriteString("| clients | operation |")
	rule.WriteString("|--:|---|")
	for _, sd := range tableSides {
		head.WriteString(" " + sd.heading + " ops/s |")
		if sd.name != "etcd" {
			head.WriteString(" " + sd.heading + "/etcd |")
			rule.WriteString("--:|")
		}
		rule.WriteString("--:|")
	}
	for _, q := range []string{"p50", "p99"} {
		for _, sd := range tableSides {
			head.WriteString(" " + sd.heading + " " + q + " |")
			rule.WriteString("--:|")
		}
	}
	fmt.Fprintln(w, head.String())
	fmt.Fprintln(w, rule.String())
	for _, lv := range levels {
		for _, op := range operations {
			c := fmt.Sprint(lv.clients)
			e := results[cell{c, op, "etcd"}]
			if e == nil {
				continue
			}
			row := fmt.Sprintf("| %d | %s |", lv.clients, op)
			for _, sd := range tableSides {
				r := results[cell{c, op, sd.name}]
				row += " " + rateOf(r) + " |"
				if sd.name != "etcd" {
					row += " " + shareOf(r, e) + " |"
				}
			}
			for _, q := range []float64{0.50, 0.99} {
				for _, sd := range tableSides {
					row += " " + percentileOf(results[cell{c, op, sd.name}], q) + " |"
				}
			}
			fmt.Fprintln(w, row)
		}
	}
	fmt.Fprintln(w)
}

func rateOf(r *result) string {
	if r == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.0f", r.opsPerSec())
}

func shareOf(r, etcd *result) string {
	if r == nil || etcd.opsPerSec() == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*r.opsPerSec()/etcd.opsPerSec())
}

func percentileOf(r *result, q float64) string {
	if r == nil {
		return "n/a"
	}
	v := r.percentile(q)
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", v)
}
