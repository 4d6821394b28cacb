package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
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
// one target) in time, whatever its number of operations.
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

type cell struct{ clients, op, target string }

// BenchmarkAPIServerVsEtcd measures create (POST), get (GET) and replace
// (PUT with resourceVersion) of ~2 KiB pods through an in-process API
// server, at 1 and 64 concurrent clients, and the same operations with the
// same value size straight to etcd as the API server's storage issues them
// (create and replace as compare-and-swap transactions). Each etcd scenario
// runs right before its API server twin; the API server's sub-benchmark
// reports its throughput as a fraction of etcd's (api/etcd), and a markdown
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

	targets := []struct {
		name string
		t    target
	}{{"etcd", raw}, {"api", api}}
	objects := map[cell]*[]object{}
	results := map[cell]*result{}
	var seq atomic.Int64
	for _, lv := range levels {
		for _, op := range operations {
			for _, tg := range targets {
				key := cell{fmt.Sprint(lv.clients), op, tg.name}
				objs := objects[cell{key.clients, "", tg.name}]
				if objs == nil {
					objs = new([]object)
					objects[cell{key.clients, "", tg.name}] = objs
				}
				b.Run(fmt.Sprintf("clients=%d/%s/%s", lv.clients, op, tg.name), func(b *testing.B) {
					res := &result{}
					for range b.N {
						warmUp(tg.t, *objs, lv.clients)
						res.merge(scenario(b, tg.t, objs, op, lv.clients, lv.ops, &seq))
					}
					if res.errors > 0 {
						b.Errorf("%d of %d operations failed; first: %v", res.errors, res.errors+res.ops, res.firstErr)
					}
					results[key] = res
					b.ReportMetric(0, "ns/op")
					b.ReportMetric(res.opsPerSec(), "ops/s")
					b.ReportMetric(res.percentile(0.50), "p50-ms")
					b.ReportMetric(res.percentile(0.90), "p90-ms")
					b.ReportMetric(res.percentile(0.99), "p99-ms")
					if base := results[cell{key.clients, op, "etcd"}]; tg.name == "api" && base != nil && base.opsPerSec() > 0 {
						b.ReportMetric(res.opsPerSec()/base.opsPerSec(), "api/etcd")
					}
				})
			}
		}
	}
	printTable(os.Stdout, k.resource, results)
}

// scenario runs one round of op against t and records created objects in objs.
func scenario(b *testing.B, t target, objs *[]object, op string, clients, n int, seq *atomic.Int64) result {
	switch op {
	case "create":
		base := len(*objs)
		fresh := make([]object, n)
		for i := range fresh {
			fresh[i].name = objectName(clients, base+i+1)
		}
		res := run(clients, n, scenarioLimit, func(ctx context.Context, i int) error { return t.create(ctx, &fresh[i]) })
		for _, o := range fresh {
			if o.rv != "" || o.rev != 0 {
				*objs = append(*objs, o)
			}
		}
		return res
	case "get":
		all := *objs
		if len(all) == 0 {
			b.Fatalf("no objects to get: run the create scenario first")
		}
		return run(clients, n, scenarioLimit, func(ctx context.Context, i int) error { return t.get(ctx, &all[i%len(all)]) })
	case "replace":
		// Each object is replaced at most once per round, so concurrent
		// clients never race on one object.
		all := *objs
		m := min(n, len(all))
		if m < clients {
			b.Fatalf("%d objects for %d clients: run the create scenario first", m, clients)
		}
		return run(clients, m, scenarioLimit, func(ctx context.Context, i int) error {
			return t.replace(ctx, &all[i], int(seq.Add(1)))
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
