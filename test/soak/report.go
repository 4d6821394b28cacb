package soak

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Metric names one sampled quantity; the names are the CSV's.
type Metric string

// The metrics sampled from each daemon.
const (
	// RSS is the resident set (VmRSS in /proc/<pid>/status), in bytes.
	RSS Metric = "rss_bytes"
	// Goroutines is go_goroutines from the daemon's /metrics.
	Goroutines Metric = "goroutines"
	// OpenFDs counts the entries of /proc/<pid>/fd.
	OpenFDs Metric = "open_fds"
	// HeapInuse is go_memstats_heap_inuse_bytes (API server and etcd).
	HeapInuse Metric = "heap_inuse_bytes"
	// EtcdDB is etcd_mvcc_db_total_size_in_bytes.
	EtcdDB Metric = "etcd_db_bytes"
	// EtcdCommitted is etcd_server_proposals_committed_total: the raft
	// entries so far, which says when etcd's in-memory log is full.
	EtcdCommitted Metric = "etcd_proposals_committed"
)

// DefaultThresholds are the bounds of the judged metrics: RSS may grow
// 20%, goroutines 10% and 20, open files 10 over the window. The heap
// and etcd's database size are reported but not judged: the heap is what
// RSS bounds, and the database keeps the pages that compaction freed
// until a defragmentation.
func DefaultThresholds() map[Metric]Threshold {
	return map[Metric]Threshold{
		RSS:        {Relative: 0.20},
		Goroutines: {Relative: 0.10, Absolute: 20},
		OpenFDs:    {Absolute: 10},
	}
}

// Key is one series: a metric of a daemon.
type Key struct {
	Daemon string
	Metric Metric
}

// Row is the verdict on one series; Judged is false for a metric that
// has no threshold, whose Verdict then has no Limit and never fails.
type Row struct {
	Key
	Verdict
	Judged bool
}

// JudgeAll judges every series, in the order of daemon, then metric.
func JudgeAll(series map[Key][]Point, warmup time.Duration, thresholds map[Metric]Threshold) []Row {
	var rows []Row
	for k, points := range series {
		th, judged := thresholds[k.Metric]
		v := Judge(points, warmup, th)
		if !judged {
			v.Grows, v.Limit, v.Reason = false, 0, ""
		}
		rows = append(rows, Row{Key: k, Verdict: v, Judged: judged})
	}
	slices.SortFunc(rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(a.Daemon, b.Daemon), cmp.Compare(a.Metric, b.Metric))
	})
	return rows
}

// Failures describes each failed row: the daemon, the metric and why.
func Failures(rows []Row) []string {
	var out []string
	for _, r := range rows {
		switch {
		case !r.Judged || !r.Failed():
		case r.Reason != "":
			out = append(out, fmt.Sprintf("%s %s: not judged: %s", r.Daemon, r.Metric, r.Reason))
		default:
			out = append(out, fmt.Sprintf("%s %s grows: %s over %s after the warm-up (limit %s; warm-up median %s)",
				r.Daemon, r.Metric, format(r.Metric, r.Growth), r.Window.Round(time.Second), format(r.Metric, r.Limit), format(r.Metric, r.Base)))
		}
	}
	return out
}

// WriteTable writes rows as a Markdown table.
func WriteTable(w io.Writer, rows []Row) error {
	var b strings.Builder
	b.WriteString("| daemon | metric | warm-up median | last | fitted growth over window | per hour | limit | verdict |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---|\n")
	for _, r := range rows {
		verdict, limit := "flat", format(r.Metric, r.Limit)
		switch {
		case !r.Judged:
			verdict, limit = "reported", "-"
		case r.Reason != "":
			verdict = "not judged: " + r.Reason
		case r.Grows:
			verdict = "GROWS"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Daemon, r.Metric,
			format(r.Metric, r.Base), format(r.Metric, r.Last), signed(r.Metric, r.Growth), signed(r.Metric, r.Slope), limit, verdict)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// format renders a value in the metric's unit: MiB for bytes, a count
// otherwise.
func format(m Metric, v float64) string {
	if strings.HasSuffix(string(m), "_bytes") {
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	}
	return fmt.Sprintf("%.0f", v)
}

func signed(m Metric, v float64) string {
	s := format(m, v)
	if v >= 0 && !strings.HasPrefix(s, "-") {
		return "+" + s
	}
	return s
}
