package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/leaderelection"
	"platform.io/client/rest"

	"platform.io/platform/test/integration/framework"
)

// fencingClients and fencingWrites size each scenario of
// BenchmarkFencedWrites: writes per side and operation, in rounds.
const (
	fencingClients = 64
	fencingWrites  = 3000
)

// BenchmarkFencedWrites measures the cost of the leader lock check
// (X-Platform-Leader-Lock): creates and replaces of ConfigMaps at 64
// clients through the staging protobuf client, as the daemons write, once
// with the header naming a held Lease ("fenced") and once without
// ("plain"), in alternating rounds of the same run. The fenced write checks
// the cached Lease and adds a compare on it to its transaction. It reports
// both rates and fenced/plain, the CPU time of the whole process (clients,
// server, etcd) per write of each (steadier than the rates on a shared
// machine), and the p50 and p99 of each.
func BenchmarkFencedWrites(b *testing.B) {
	s := framework.Start(b)
	lease := map[string]any{
		"apiVersion": "coordination.platform.io/v1", "kind": "Lease",
		"metadata": map[string]any{"name": "bench-lock", "namespace": "default"},
		"spec": map[string]any{"holderIdentity": "bench", "leaseDurationSeconds": 3600, "leaseTransitions": 1,
			"renewTime": time.Now().UTC().Format("2006-01-02T15:04:05.000000Z")},
	}
	s.Do(b, http.MethodPost, "/apis/coordination.platform.io/v1/namespaces/default/leases", lease).Expect(b, http.StatusCreated)
	base, err := rest.NewClient(&rest.Config{Host: s.URL, QPS: -1})
	if err != nil {
		b.Fatal(err)
	}
	fence := &rest.Fence{}
	fence.Set(leaderelection.LockRef{Group: "coordination.platform.io", Resource: "leases", Namespace: "default",
		Name: "bench-lock", Holder: "bench", Transitions: 1}.String())
	payload := strings.Repeat("x", 1000)
	sides := []*fencedSide{{name: "plain", c: base, payload: payload}, {name: "fenced", c: base.WithFence(fence), payload: payload}}
	fmt.Printf("fenced writes: %d clients, %d writes per side and operation in %d rounds; %s\n\n",
		fencingClients, fencingWrites, rounds, time.Now().UTC().Format(time.RFC3339))
	fmt.Println("| clients | operation | plain ops/s | fenced ops/s | fenced/plain | plain CPU µs/write | fenced CPU µs/write | fenced/plain CPU | plain p50 ms | fenced p50 ms | plain p99 ms | fenced p99 ms |")
	fmt.Println("|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, op := range []string{"create", "replace"} {
		b.Run(op, func(b *testing.B) {
			got := map[string]*result{}
			// cpu is the CPU time of the whole process (clients, API server
			// and embedded etcd) during each side's writes.
			cpu := map[string]time.Duration{}
			for _, sd := range sides {
				got[sd.name] = &result{}
			}
			for range b.N {
				for r := range rounds {
					order := append(slices.Clone(sides[r%len(sides):]), sides[:r%len(sides)]...)
					for _, sd := range order {
						lo, hi := r*fencingWrites/rounds, (r+1)*fencingWrites/rounds
						before := processCPU()
						got[sd.name].merge(sd.scenario(op, lo, hi))
						cpu[sd.name] += processCPU() - before
					}
				}
			}
			b.ReportMetric(0, "ns/op")
			for _, sd := range sides {
				res := got[sd.name]
				if res.errors > 0 {
					b.Errorf("%s: %d of %d writes failed; first: %v", sd.name, res.errors, res.errors+res.ops, res.firstErr)
				}
				b.ReportMetric(res.opsPerSec(), sd.name+"-ops/s")
				b.ReportMetric(res.percentile(0.50), sd.name+"-p50-ms")
				b.ReportMetric(res.percentile(0.99), sd.name+"-p99-ms")
			}
			plain, fenced := got["plain"], got["fenced"]
			if plain.opsPerSec() > 0 {
				b.ReportMetric(fenced.opsPerSec()/plain.opsPerSec(), "fenced/plain")
			}
			cpuPlain := float64(cpu["plain"].Microseconds()) / float64(max(plain.ops, 1))
			cpuFenced := float64(cpu["fenced"].Microseconds()) / float64(max(fenced.ops, 1))
			b.ReportMetric(cpuPlain, "plain-cpu-us/write")
			b.ReportMetric(cpuFenced, "fenced-cpu-us/write")
			fmt.Fprintf(os.Stdout, "| %d | %s | %.0f | %.0f | %.0f%% | %.0f | %.0f | %.0f%% | %.1f | %.1f | %.1f | %.1f |\n", fencingClients, op,
				plain.opsPerSec(), fenced.opsPerSec(), 100*fenced.opsPerSec()/plain.opsPerSec(),
				cpuPlain, cpuFenced, 100*cpuFenced/cpuPlain,
				plain.percentile(0.50), fenced.percentile(0.50), plain.percentile(0.99), fenced.percentile(0.99))
		})
	}
}

// processCPU is the CPU time, user and system, this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// fencedSide is one client of BenchmarkFencedWrites with the objects it
// wrote.
type fencedSide struct {
	name string
	c    *rest.Client
	// payload makes each ConfigMap about 1 KiB.
	payload string
	// rvs are the resourceVersions of the side's objects, by index.
	rvs []string
}

func (sd *fencedSide) objectName(i int) string { return fmt.Sprintf("fence-%s-%06d", sd.name, i) }

// scenario makes writes lo..hi-1 of op.
func (sd *fencedSide) scenario(op string, lo, hi int) result {
	if len(sd.rvs) < hi {
		sd.rvs = append(sd.rvs, make([]string, hi-len(sd.rvs))...)
	}
	return run(fencingClients, hi-lo, scenarioLimit, func(ctx context.Context, j int) error {
		i := lo + j
		cm := &corev1.ConfigMap{
			TypeMeta:   meta.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: meta.ObjectMeta{Name: sd.objectName(i), Namespace: "default"},
			Data:       map[string]string{"seq": fmt.Sprint(i), "payload": sd.payload},
		}
		req := sd.c.Post().Version("v1").Namespace("default").Resource("configmaps")
		if op == "replace" {
			if sd.rvs[i] == "" {
				return fmt.Errorf("%s was not created", cm.Name)
			}
			cm.ResourceVersion = sd.rvs[i]
			cm.Data["seq"] = fmt.Sprint(-i)
			req = sd.c.Put().Version("v1").Namespace("default").Resource("configmaps").Name(cm.Name)
		}
		var out corev1.ConfigMap
		if err := req.Body(cm).Do(ctx).Into(&out); err != nil {
			return err
		}
		sd.rvs[i] = out.ResourceVersion
		return nil
	})
}
