package bench

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"testing"
	"time"
)

// writeSide is one configuration compared by compareWrites: a name and
// its writes lo..hi-1.
type writeSide struct {
	name  string
	write func(lo, hi int) result
}

// compareWrites runs n writes on each side, cut into rounds that take
// turns (so a noisy moment of the shared machine hits every side), and
// prints one Markdown row per side against the first, the baseline: the
// rate, the CPU time of the whole process (clients, servers, etcd) per
// write, the steadier figure on two cores, their ratios to the baseline,
// and the p50 and p99 latencies. It reports the same as benchmark metrics,
// and returns the CPU figures for further ratios.
func compareWrites(b *testing.B, title string, n int, sides []writeSide) sideCPU {
	return compareOps(b, title, "write", n, sides)
}

// compareOps is compareWrites for operations of any kind, named unit in
// the table and the metrics.
func compareOps(b *testing.B, title, unit string, n int, sides []writeSide) sideCPU {
	got := map[string]*result{}
	cpu := map[string]time.Duration{}
	for _, sd := range sides {
		got[sd.name] = &result{}
	}
	for range b.N {
		for r := range rounds {
			order := append(slices.Clone(sides[r%len(sides):]), sides[:r%len(sides)]...)
			for _, sd := range order {
				lo, hi := r*n/rounds, (r+1)*n/rounds
				before := processCPU()
				// Labelled, as startSideServer labels a side's server, so
				// that a CPU profile splits by side.
				pprof.Do(context.Background(), pprof.Labels("side", sd.name), func(context.Context) {
					got[sd.name].merge(sd.write(lo, hi))
				})
				cpu[sd.name] += processCPU() - before
			}
		}
	}
	b.ReportMetric(0, "ns/op")
	base := sides[0].name
	cpuPer := func(name string) float64 {
		return float64(cpu[name].Microseconds()) / float64(max(got[name].ops, 1))
	}
	fmt.Fprintf(os.Stdout, "%s: %d %ss per side in %d rounds; %s\n\n", title, n, unit, rounds, stamp())
	fmt.Printf("| side | ops/s | vs %s | CPU µs/%s | vs %s | p50 ms | p99 ms |\n|---|--:|--:|--:|--:|--:|--:|\n", base, unit, base)
	for _, sd := range sides {
		res := got[sd.name]
		if res.errors > 0 {
			b.Errorf("%s: %d of %d %ss failed; first: %v", sd.name, res.errors, res.errors+res.ops, unit, res.firstErr)
		}
		rate := sd.name + "-ops/s"
		if unit != "write" {
			rate = sd.name + "-" + unit + "s/s"
		}
		b.ReportMetric(res.opsPerSec(), rate)
		b.ReportMetric(cpuPer(sd.name), sd.name+"-cpu-us/"+unit)
		fmt.Printf("| %s | %.0f | %s | %.0f | %s | %.1f | %.1f |\n", sd.name, res.opsPerSec(),
			ratio(res.opsPerSec(), got[base].opsPerSec()), cpuPer(sd.name), ratio(cpuPer(sd.name), cpuPer(base)),
			res.percentile(0.50), res.percentile(0.99))
	}
	fmt.Println()
	out := sideCPU{}
	for _, sd := range sides {
		out[sd.name] = cpuPer(sd.name)
	}
	return out
}

// sideCPU is the CPU time per write of each side, in microseconds.
type sideCPU map[string]float64

// cpuRatio is side a's CPU time per write over side b's.
func (c sideCPU) cpuRatio(a, b string) float64 {
	if c[b] == 0 {
		return 0
	}
	return c[a] / c[b]
}
