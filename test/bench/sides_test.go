package bench

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
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
// the p50 and p99 latencies, and, per write, the collector's share of the
// CPU time and the bytes allocated. It reports the same as benchmark metrics,
// and returns the CPU figures for further ratios.
func compareWrites(b *testing.B, title string, n int, sides []writeSide) sideCPU {
	return compareOps(b, title, "write", n, sides)
}

// compareOps is compareWrites for operations of any kind, named unit in
// the table and the metrics.
func compareOps(b *testing.B, title, unit string, n int, sides []writeSide) sideCPU {
	got := map[string]*result{}
	used := map[string]usage{}
	for _, sd := range sides {
		got[sd.name] = &result{}
	}
	for range b.N {
		for r := range rounds {
			order := append(slices.Clone(sides[r%len(sides):]), sides[:r%len(sides)]...)
			for _, sd := range order {
				lo, hi := r*n/rounds, (r+1)*n/rounds
				before := readUsage()
				// Labelled, as startSideServer labels a side's server, so
				// that a CPU profile splits by side.
				pprof.Do(context.Background(), pprof.Labels("side", sd.name), func(context.Context) {
					got[sd.name].merge(sd.write(lo, hi))
				})
				used[sd.name] = used[sd.name].add(readUsage().sub(before))
			}
		}
	}
	b.ReportMetric(0, "ns/op")
	base := sides[0].name
	per := func(name string, v float64) float64 { return v / float64(max(got[name].ops, 1)) }
	cpuPer := func(name string) float64 { return per(name, float64(used[name].cpu.Microseconds())) }
	fmt.Fprintf(os.Stdout, "%s: %d %ss per side in %d rounds; %s\n\n", title, n, unit, rounds, stamp())
	fmt.Printf("| side | ops/s | vs %s | CPU µs/%s | vs %s | p50 ms | p99 ms | of it GC µs | KB allocated |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n", base, unit, base)
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
		gc, kb := per(sd.name, float64(used[sd.name].gc.Microseconds())), per(sd.name, float64(used[sd.name].alloc)/1024)
		b.ReportMetric(gc, sd.name+"-gc-cpu-us/"+unit)
		b.ReportMetric(kb, sd.name+"-alloc-KB/"+unit)
		fmt.Printf("| %s | %.0f | %s | %.0f | %s | %.1f | %.1f | %.0f | %.1f |\n", sd.name, res.opsPerSec(),
			ratio(res.opsPerSec(), got[base].opsPerSec()), cpuPer(sd.name), ratio(cpuPer(sd.name), cpuPer(base)),
			res.percentile(0.50), res.percentile(0.99), gc, kb)
	}
	fmt.Println()
	out := sideCPU{}
	for _, sd := range sides {
		out[sd.name] = cpuPer(sd.name)
	}
	return out
}

// usage is what the process has used: CPU time, the part of it the
// collector took (the runtime's estimate), and bytes allocated on the
// heap; as a difference, what one side's writes used.
type usage struct {
	cpu, gc time.Duration
	alloc   uint64
}

func readUsage() usage {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return usage{cpu: processCPU(), gc: time.Duration(s[0].Value.Float64() * float64(time.Second)), alloc: s[1].Value.Uint64()}
}

func (u usage) sub(v usage) usage { return usage{u.cpu - v.cpu, u.gc - v.gc, u.alloc - v.alloc} }
func (u usage) add(v usage) usage { return usage{u.cpu + v.cpu, u.gc + v.gc, u.alloc + v.alloc} }

// sideCPU is the CPU time per write of each side, in microseconds.
type sideCPU map[string]float64

// cpuRatio is side a's CPU time per write over side b's.
func (c sideCPU) cpuRatio(a, b string) float64 {
	if c[b] == 0 {
		return 0
	}
	return c[a] / c[b]
}
