package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"platform.io/client/rest"

	"platform.io/platform/pkg/apiserver/options"
)

// auditClients and auditWrites size BenchmarkAuditCost: writes per side
// and operation, in rounds.
const (
	auditClients = 64
	auditWrites  = 3000
)

// BenchmarkAuditCost measures what audit logging costs writes (issue 15):
// creates and replaces of ~1 KiB ConfigMaps at 64 clients through the
// staging protobuf client, against two in-process API servers that differ
// only in audit: none ("bare"), and every request at level Metadata
// written to a file in the default blocking mode ("audit", two lines per
// request). The sides take turns in rounds. It reports both rates and
// audit/bare, the CPU time of the whole process per write of each, the
// p50 and p99, and checks that the log holds the audit side's events.
func BenchmarkAuditCost(b *testing.B) {
	dir := b.TempDir()
	policy, logPath := filepath.Join(dir, "policy.yaml"), filepath.Join(dir, "audit.log")
	doc := "apiVersion: audit.platform.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"
	if err := os.WriteFile(policy, []byte(doc), 0o600); err != nil {
		b.Fatal(err)
	}
	bare := startServer(b)
	audited := startServer(b, func(o *options.Options) { o.Audit.PolicyFile, o.Audit.Log.Path = policy, logPath })
	payload := strings.Repeat("x", 1000)
	var sides []*fencedSide
	for _, s := range []struct {
		name, url string
	}{{"bare", bare.URL}, {"audit", audited.URL}} {
		c, err := rest.NewClient(&rest.Config{Host: s.url, QPS: -1})
		if err != nil {
			b.Fatal(err)
		}
		sides = append(sides, &fencedSide{name: s.name, c: c, payload: payload})
	}
	fmt.Printf("audit cost: %d clients, %d writes per side and operation in %d rounds, Metadata level to a file (blocking); %s\n\n",
		auditClients, auditWrites, rounds, stamp())
	fmt.Println("| operation | bare ops/s | audit ops/s | audit/bare | bare CPU µs/write | audit CPU µs/write | audit/bare CPU | bare p50 ms | audit p50 ms | bare p99 ms | audit p99 ms |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, op := range []string{"create", "replace"} {
		b.Run(op, func(b *testing.B) {
			got := map[string]*result{}
			cpu := map[string]time.Duration{}
			for _, sd := range sides {
				got[sd.name] = &result{}
			}
			for range b.N {
				for r := range rounds {
					order := append(slices.Clone(sides[r%len(sides):]), sides[:r%len(sides)]...)
					for _, sd := range order {
						lo, hi := r*auditWrites/rounds, (r+1)*auditWrites/rounds
						before := processCPU()
						got[sd.name].merge(sd.scenario(op, lo, hi))
						cpu[sd.name] += processCPU() - before
					}
				}
			}
			b.ReportMetric(0, "ns/op")
			perWrite := map[string]float64{}
			for _, sd := range sides {
				res := got[sd.name]
				if res.errors > 0 {
					b.Errorf("%s: %d of %d writes failed; first: %v", sd.name, res.errors, res.errors+res.ops, res.firstErr)
				}
				perWrite[sd.name] = float64(cpu[sd.name].Microseconds()) / float64(max(res.ops, 1))
				b.ReportMetric(res.opsPerSec(), sd.name+"-ops/s")
				b.ReportMetric(perWrite[sd.name], sd.name+"-cpu-us/write")
			}
			plain, audit := got["bare"], got["audit"]
			if plain.opsPerSec() > 0 {
				b.ReportMetric(audit.opsPerSec()/plain.opsPerSec(), "audit/bare")
			}
			fmt.Printf("| %s | %.0f | %.0f | %.0f%% | %.0f | %.0f | %.0f%% | %.1f | %.1f | %.1f | %.1f |\n", op,
				plain.opsPerSec(), audit.opsPerSec(), 100*audit.opsPerSec()/plain.opsPerSec(),
				perWrite["bare"], perWrite["audit"], 100*perWrite["audit"]/perWrite["bare"],
				plain.percentile(0.50), audit.percentile(0.50), plain.percentile(0.99), audit.percentile(0.99))
		})
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		b.Fatal(err)
	}
	if lines := bytes.Count(data, []byte("\n")); lines < 2*2*auditWrites {
		b.Errorf("the audit log has %d lines, want at least %d (two per write)", lines, 4*auditWrites)
	} else {
		fmt.Printf("\naudit log: %d lines, %d bytes\n", lines, len(data))
	}
}
