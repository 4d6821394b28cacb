package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/test/integration/framework"
)

// scenarioLimit bounds every scenario (one round of one operation against
// one side) in time, whatever its number of operations.
const scenarioLimit = 60 * time.Second

// levels are the concurrencies measured and the operations per scenario.
var levels = []struct{ clients, ops int }{
	{1, 1000},
	{64, 5000},
}

var operations = []string{"create", "get", "replace"}

// kind says which resource the benchmark writes: pods, or while pods are
// not served a stand-in with the same metadata and body size.
type kind struct {
	resource, kind string
	namespaced     bool
}

var candidates = []kind{
	{"pods", "Pod", true},
	{"configmaps", "ConfigMap", true},
	{"namespaces", "Namespace", false},
}

// served picks the first candidate the server lists in /api/v1.
func served(b *testing.B, s *framework.Server) kind {
	var list struct {
		Resources []struct{ Name string } `json:"resources"`
	}
	s.Do(b, http.MethodGet, "/api/v1", nil).Expect(b, http.StatusOK).Into(b, &list)
	names := map[string]bool{}
	for _, r := range list.Resources {
		names[r.Name] = true
	}
	for _, c := range candidates {
		if names[c.resource] {
			return c
		}
	}
	b.Fatalf("none of pods, configmaps, namespaces is served")
	return kind{}
}

// storedValue returns what the API server stored in etcd for the named object.
func storedValue(b *testing.B, c *clientv3.Client, prefix, name string) []byte {
	resp, err := c.Get(context.Background(), prefix+"/", clientv3.WithPrefix())
	if err != nil {
		b.Fatal(err)
	}
	for _, kv := range resp.Kvs {
		if strings.HasSuffix(string(kv.Key), "/"+name) {
			return kv.Value
		}
	}
	b.Fatalf("no key for %s under %s", name, prefix)
	return nil
}

// cell names one line of the table and side: concurrency, operation and
// "api" or "etcd".
type cell struct{ clients, op, target string }

// rounds is how many slices each scenario is cut into: the slices of the
// sides (etcd, the API server over JSON and over protobuf) take turns, each
// round starting with another, so that noise from other work on the machine
// falls on all alike.
const rounds = 5

// BenchmarkAPIServerVsEtcd measures create (POST), get (GET) and replace
// (PUT with resourceVersion) of ~2 KiB pods through an in-process API
// server, at 1 and 64 concurrent clients, and next to each the same
// operations with the same value size straight to etcd, as the API
// server's storage issues them (create and replace as compare-and-swap
// transactions). The API server is driven twice: with JSON bodies over a
// plain keep-alive HTTP client ("api"), and through the staging typed client
// with protobuf bodies, as the platform's daemons write ("proto"; pods
// only), and an HTTP front end that only relays to etcd ("floor",
// floor_test.go). Each sub-benchmark reports every side and the API server's
// throughput as a fraction of etcd's (api/etcd, proto/etcd); a markdown
// table of all figures is printed at the end.
func BenchmarkAPIServerVsEtcd(b *testing.B) {
	srv := framework.Start(b)
	k := served(b, srv)
	if k.resource != "pods" {
		fmt.Printf("WARNING: pods are not served; measuring %s instead\n", k.resource)
	}
	collection := srv.URL + "/api/v1/" + k.resource
	if k.namespaced {
		collection = srv.URL + "/api/v1/namespaces/default/" + k.resource
	}
	bodies, err := newBodies(k.kind)
	if err != nil {
		b.Fatal(err)
	}
	api := &apiTarget{client: newHTTPClient(), collection: collection, bodies: bodies}
	b.Cleanup(api.client.CloseIdleConnections)

	etcdClient, etcdPrefix := etcdtest.Client(b)
	// One object created before timing checks that the server takes the
	// body, and gives the value etcd is benchmarked with.
	probe := object{name: objectName(0, 0)}
	if err := api.create(context.Background(), &probe); err != nil {
		b.Fatalf("probe create: %v", err)
	}
	value := storedValue(b, etcdClient, srv.Prefix, probe.name)
	raw := &etcdTarget{client: etcdClient, prefix: etcdPrefix + "pods/default/", value: value}

	mode := os.Getenv(etcdtest.EnvEndpoints)
	if mode == "" {
		mode = "embedded, in the benchmark process"
	}
	fmt.Printf("resource %s; request body %d bytes; stored value %d bytes; etcd %s; GOMAXPROCS %d, %d CPUs; %s\n",
		k.resource, len(bodies.render(probe.name, "", 0)), len(value), mode, runtime.GOMAXPROCS(0), runtime.NumCPU(),
		time.Now().UTC().Format(time.RFC3339))

	sides := []*side{{name: "etcd", t: raw}, {name: "api", t: api}}
	if k.resource == "pods" {
		proto, err := newProtoTarget(srv.URL, bodies)
		if err != nil {
			b.Fatal(err)
		}
		sides = append(sides, &side{name: "proto", t: proto, names: protoObjectName})
	}
	sides = append(sides, &side{name: "floor", t: startFloor(b, raw, bodies), names: floorObjectName})
	sides = onlySides(sides, os.Getenv(envSides))
	results := map[cell]*result{}
	var seq atomic.Int64
	for _, lv := range levels {
		for _, sd := range sides {
			sd.objs = nil // each concurrency works on objects of its own
		}
		for _, op := range operations {
			b.Run(fmt.Sprintf("clients=%d/%s", lv.clients, op), func(b *testing.B) {
				got := map[string]*result{}
				for _, sd := range sides {
					got[sd.name] = &result{}
				}
				for range b.N {
					counts := map[string]int{}
					for _, sd := range sides {
						counts[sd.name] = sd.count(b, op, lv.clients, lv.ops)
					}
					for r := range rounds {
						// Each round starts with another side.
						order := append(slices.Clone(sides[r%len(sides):]), sides[:r%len(sides)]...)
						for _, sd := range order {
							n := counts[sd.name]
							lo, hi := r*n/rounds, (r+1)*n/rounds
							warmUp(sd.t, sd.objs, lv.clients)
							got[sd.name].merge(sd.scenario(b, op, lv.clients, lo, hi, &seq))
						}
					}
				}
				b.ReportMetric(0, "ns/op")
				for _, sd := range sides {
					res := got[sd.name]
					if res.errors > 0 {
						b.Errorf("%s: %d of %d operations failed; first: %v", sd.name, res.errors, res.errors+res.ops, res.firstErr)
					}
					b.ReportMetric(res.opsPerSec(), sd.name+"-ops/s")
					b.ReportMetric(res.percentile(0.50), sd.name+"-p50-ms")
					b.ReportMetric(res.percentile(0.99), sd.name+"-p99-ms")
					key := cell{fmt.Sprint(lv.clients), op, sd.name}
					if results[key] == nil {
						results[key] = &result{}
					}
					results[key].merge(*res) // -count repeats add up
				}
				if e := got["etcd"].opsPerSec(); e > 0 {
					for _, sd := range sides[1:] {
						b.ReportMetric(got[sd.name].opsPerSec()/e, sd.name+"/etcd")
					}
				}
			})
		}
	}
	printTable(os.Stdout, k.resource, results)
}

// envSides, when set, names the sides to run besides etcd ("api",
// "proto", "floor", or several separated by commas), so that a CPU
// profile shows one encoding's server path alone.
const envSides = "PLATFORM_BENCH_SIDES"

// onlySides keeps etcd and the sides named in the comma-separated list;
// an empty list keeps all.
func onlySides(sides []*side, list string) []*side {
	if list == "" {
		return sides
	}
	keep := strings.Split(list, ",")
	return slices.DeleteFunc(sides, func(sd *side) bool { return sd.name != "etcd" && !slices.Contains(keep, sd.name) })
}

// side is one of the things compared, with the objects it created.
type side struct {
	name string
	t    target
	// names names the side's objects; nil means objectName. Sides that
	// write the same keys need names of their own.
	names func(clients, i int) string
	objs  []object
}

// count is the number of operations of one round of op: for replace, at
// most one per object, so concurrent clients never race on one object.
func (sd *side) count(b *testing.B, op string, clients, n int) int {
	switch op {
	case "get":
		if len(sd.objs) == 0 {
			b.Fatalf("%s: no objects to get: run the create scenario first", sd.name)
		}
	case "replace":
		n = min(n, len(sd.objs))
		if n < clients*rounds {
			b.Fatalf("%s: %d objects for %d clients: run the create scenario first", sd.name, n, clients)
		}
	}
	return n
}

// scenario runs operations lo..hi-1 of one round of op and keeps the
// objects it created.
func (sd *side) scenario(b *testing.B, op string, clients, lo, hi int, seq *atomic.Int64) result {
	limit := scenarioLimit / rounds
	switch op {
	case "create":
		base := len(sd.objs)
		fresh := make([]object, hi-lo)
		for i := range fresh {
			fresh[i].name = objectName(clients, base+i+1)
			if sd.names != nil {
				fresh[i].name = sd.names(clients, base+i+1)
			}
		}
		res := run(clients, len(fresh), limit, func(ctx context.Context, i int) error { return sd.t.create(ctx, &fresh[i]) })
		for _, o := range fresh {
			if o.rv != "" || o.rev != 0 {
				sd.objs = append(sd.objs, o)
			}
		}
		return res
	case "get":
		all := sd.objs
		return run(clients, hi-lo, limit, func(ctx context.Context, i int) error { return sd.t.get(ctx, &all[(lo+i)%len(all)]) })
	case "replace":
		all := sd.objs
		return run(clients, hi-lo, limit, func(ctx context.Context, i int) error {
			return sd.t.replace(ctx, &all[lo+i], int(seq.Add(1)))
		})
	}
	b.Fatalf("unknown operation %q", op)
	return result{}
}

// warmUp opens the connections the scenario's clients will use and lets
// the server settle, outside the measurement: a get per client, twice.
func warmUp(t target, objs []object, clients int) {
	if len(objs) == 0 {
		objs = []object{{name: objectName(0, 0)}}
	}
	for range 2 {
		var wg sync.WaitGroup
		for i := range clients {
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
				defer cancel()
				o := objs[i%len(objs)]
				t.get(ctx, &o) // the probe object does not exist in etcd; errors do not matter here
			})
		}
		wg.Wait()
	}
}
