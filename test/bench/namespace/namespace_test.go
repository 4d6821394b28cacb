package namespace

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/client"

	"platform.io/platform/pkg/controller"
	"platform.io/platform/pkg/controller/garbagecollector"
	nsloop "platform.io/platform/pkg/controller/namespace"
	"platform.io/platform/test/integration/framework"
)

const (
	objects = 5000
	clients = 16
	// limit bounds each measured step.
	limit = 5 * time.Minute
)

// BenchmarkNamespaceDeletion5000 measures the time from deleting a
// namespace holding 5,000 objects (a third each configmaps, secrets and
// unscheduled pods) to the namespace being gone, with the namespace loop
// (10 workers) and the garbage collector running in-process. The baseline
// is the API server's write rate in the same run: creating those objects
// from one client with 16 goroutines.
func BenchmarkNamespaceDeletion5000(b *testing.B) {
	s := framework.Start(b)
	d := s.Deps(b, "controller-manager")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	startLoops(ctx, b, controller.Context{Deps: d}, nsloop.Descriptor(), garbagecollector.Descriptor())
	set := d.Clients
	for i := range b.N {
		ns := fmt.Sprintf("bench-%d", i)
		if _, err := set.Namespaces.Create(ctx, &corev1.Namespace{ObjectMeta: meta.ObjectMeta{Name: ns}}, meta.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		began := time.Now()
		fill(ctx, b, set, ns)
		create := time.Since(began)
		b.StartTimer()
		began = time.Now()
		if err := set.Namespaces.Delete(ctx, ns, nil); err != nil {
			b.Fatal(err)
		}
		waitGone(ctx, b, set, ns)
		del := time.Since(began)
		writeRate := float64(objects) / create.Seconds()
		deleteRate := float64(objects) / del.Seconds()
		b.ReportMetric(writeRate, "api-creates/s")
		b.ReportMetric(del.Seconds(), "delete-s")
		b.ReportMetric(deleteRate, "objects-deleted/s")
		fmt.Fprintf(os.Stdout, "namespace deletion, %d objects: create %v (%.0f objects/s, %d clients), delete %v (%.0f objects/s), delete/create time %.2f\n",
			objects, create.Round(time.Millisecond), writeRate, clients, del.Round(time.Millisecond), deleteRate, del.Seconds()/create.Seconds())
	}
}

// startLoops builds the loops with their default options, starts the
// informers and runs the loops until ctx ends; the benchmark's cleanup
// waits for them.
func startLoops(ctx context.Context, b *testing.B, c controller.Context, descs ...controller.Descriptor) {
	b.Helper()
	var wg sync.WaitGroup
	b.Cleanup(wg.Wait)
	for _, desc := range descs {
		r, err := desc.New(c, desc.NewOptions())
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !c.Informers.WaitForCacheSync(ctx) {
				return
			}
			_ = r.Run(ctx)
		}()
	}
	c.Informers.Start(ctx)
	if !c.Informers.WaitForCacheSync(ctx) {
		b.Fatal("informers did not sync")
	}
}

// fill creates the objects of ns with 16 clients.
func fill(ctx context.Context, b *testing.B, set *client.Set, ns string) {
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < objects && failed.Load() == nil; i = int(next.Add(1)) - 1 {
				if err := create(ctx, set, ns, i); err != nil {
					failed.Store(err)
				}
			}
		}()
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(err)
	}
}

func create(ctx context.Context, set *client.Set, ns string, i int) error {
	name := fmt.Sprintf("obj-%05d", i)
	m := meta.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": "bench"}}
	var err error
	switch i % 3 {
	case 0:
		_, err = set.ConfigMaps.Namespace(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: m, Data: map[string]string{"k": "v"}}, meta.WriteOptions{})
	case 1:
		_, err = set.Secrets.Namespace(ns).Create(ctx, &corev1.Secret{ObjectMeta: m, Data: map[string][]byte{"k": []byte("v")}}, meta.WriteOptions{})
	default:
		p := &corev1.Pod{ObjectMeta: m, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
		_, err = set.Pods.Namespace(ns).Create(ctx, p, meta.WriteOptions{})
	}
	if err != nil {
		return fmt.Errorf("create %s/%s: %w", ns, name, err)
	}
	return nil
}

// waitGone polls the namespace every 50ms until it is gone.
func waitGone(ctx context.Context, b *testing.B, set *client.Set, ns string) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		_, err := set.Namespaces.Get(ctx, ns, meta.GetOptions{})
		if apierrors.IsNotFound(err) {
			return
		}
		if err != nil {
			b.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.Fatalf("namespace %s still there after %v", ns, limit)
}
