package bench

import (
	"context"
	"fmt"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
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
	return compare(b, title, unit, n, sides, 0)
}

// compareWritesEtcd is compareWrites against an etcd in a process of its
// own, etcdPID: each side's CPU time is the test process's and etcd's
// together, as a deployment's API server and etcd, shown apart as well.
func compareWritesEtcd(b *testing.B, title string, n int, sides []writeSide, etcdPID int) sideCPU {
	return compare(b, title, "write", n, sides, etcdPID)
}

// compare is compareOps, counting the CPU time of the process etcdPID
// too when not 0.
func compare(b *testing.B, title, unit string, n int, sides []writeSide, etcdPID int) sideCPU {
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
				before := readUsage(etcdPID)
				// Labelled, as startSideServer labels a side's server, so
				// that a CPU profile splits by side.
				pprof.Do(context.Background(), pprof.Labels("side", sd.name), func(context.Context) {
					got[sd.name].merge(sd.write(lo, hi))
				})
				used[sd.name] = used[sd.name].add(readUsage(etcdPID).sub(before))
			}
		}
	}
	b.ReportMetric(0, "ns/op")
	base := sides[0].name
	per := func(name string, v float64) float64 { return v / float64(max(got[name].ops, 1)) }
	cpuPer := func(name string) float64 {
		return per(name, float64((used[name].cpu + used[name].etcd).Microseconds()))
	}
	fmt.Fprintf(os.Stdout, "%s: %d %ss per side in %d rounds; %s\n\n", title, n, unit, rounds, stamp())
	etcdColumn, etcdAlign := "", ""
	if etcdPID != 0 {
		fmt.Printf("CPU time is the test process's and the etcd process's together.\n\n")
		etcdColumn, etcdAlign = " of it etcd µs |", "--:|"
	}
	fmt.Printf("| side | ops/s | vs %s | CPU µs/%s | vs %s | p50 ms | p99 ms | of it GC µs |%s KB allocated |\n|---|--:|--:|--:|--:|--:|--:|--:|%s--:|\n",
		base, unit, base, etcdColumn, etcdAlign)
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
		etcdCell := ""
		if etcdPID != 0 {
			etcdCPU := per(sd.name, float64(used[sd.name].etcd.Microseconds()))
			b.ReportMetric(etcdCPU, sd.name+"-etcd-cpu-us/"+unit)
			etcdCell = fmt.Sprintf(" %.0f |", etcdCPU)
		}
		fmt.Printf("| %s | %.0f | %s | %.0f | %s | %.1f | %.1f | %.0f |%s %.1f |\n", sd.name, res.opsPerSec(),
			ratio(res.opsPerSec(), got[base].opsPerSec()), cpuPer(sd.name), ratio(cpuPer(sd.name), cpuPer(base)),
			res.percentile(0.50), res.percentile(0.99), gc, etcdCell, kb)
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
// heap, and the CPU time of an etcd process; as a difference, what one
// side's writes used.
type usage struct {
	cpu, gc, etcd time.Duration
	alloc         uint64
}

// readUsage reads the usage so far, with that of the etcd process etcdPID
// when not 0.
func readUsage(etcdPID int) usage {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	u := usage{cpu: processCPU(), gc: time.Duration(s[0].Value.Float64() * float64(time.Second)), alloc: s[1].Value.Uint64()}
	if etcdPID != 0 {
		u.etcd = otherProcessCPU(etcdPID)
	}
	return u
}

func (u usage) sub(v usage) usage {
	return usage{u.cpu - v.cpu, u.gc - v.gc, u.etcd - v.etcd, u.alloc - v.alloc}
}
func (u usage) add(v usage) usage {
	return usage{u.cpu + v.cpu, u.gc + v.gc, u.etcd + v.etcd, u.alloc + v.alloc}
}

// otherProcessCPU is the CPU time, user and system, process pid has used,
// from /proc/<pid>/stat (in clock ticks, 100 a second on Linux); 0 if it
// cannot be read.
func otherProcessCPU(pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command, which is in parentheses: utime and
	// stime are the 12th and 13th.
	end := strings.LastIndexByte(string(raw), ')')
	if end < 0 {
		return 0
	}
	f := strings.Fields(string(raw[end+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(utime+stime) * (time.Second / 100)
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
