package informer

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	"platform.io/client/watch"
)

// benchPod builds a modest, realistic pod: fresh strings, labels, an owner,
// one container, status.
func benchPod(i int, rv int) *corev1.Pod {
	ns := "ns-" + strconv.Itoa(i%100)
	name := fmt.Sprintf("web-7d9f8c-%06d", i)
	return &corev1.Pod{
		TypeMeta: meta.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: meta.ObjectMeta{
			Namespace: ns, Name: name, UID: meta.UID(fmt.Sprintf("uid-%06d-%d", i, rv)),
			ResourceVersion: strconv.Itoa(rv),
			Labels:          map[string]string{"app": "web", "pod-template-hash": "7d9f8c"},
			OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d9f8c", UID: "rs-uid"}},
		},
		Spec: corev1.PodSpec{
			NodeName:   "node-" + strconv.Itoa(i%500),
			Containers: []corev1.Container{{Name: "web", Image: "registry.example/web:1.2.3"}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0." + strconv.Itoa(i/250%250) + "." + strconv.Itoa(i%250)},
	}
}

// genLW lists n generated pods in pages (objects are allocated as a client
// would decode them) and then streams the prepared updates once released.
type genLW struct {
	n       int
	updates []*corev1.Pod
	release chan struct{}
}

func (g *genLW) List(_ context.Context, opts meta.ListOptions) ([]*corev1.Pod, meta.ListMeta, error) {
	off, _ := strconv.Atoi(opts.Continue)
	end := min(g.n, off+int(opts.Limit))
	items := make([]*corev1.Pod, 0, end-off)
	for i := off; i < end; i++ {
		items = append(items, benchPod(i, 1))
	}
	lm := meta.ListMeta{ResourceVersion: "1"}
	if end < g.n {
		lm.Continue = strconv.Itoa(end)
	}
	return items, lm, nil
}

func (g *genLW) Watch(ctx context.Context, _ meta.ListOptions) (watch.Interface[*corev1.Pod], error) {
	w := &genWatch{ch: make(chan watch.Event[*corev1.Pod], 1024), done: make(chan struct{})}
	go func() {
		defer close(w.ch)
		select {
		case <-g.release:
		case <-w.done:
			return
		}
		for _, p := range g.updates {
			select {
			case w.ch <- watch.Event[*corev1.Pod]{Type: watch.Modified, Object: p}:
			case <-w.done:
				return
			}
		}
		<-w.done
	}()
	return w, nil
}

type genWatch struct {
	ch   chan watch.Event[*corev1.Pod]
	done chan struct{}
	once atomic.Bool
}

func (w *genWatch) ResultChan() <-chan watch.Event[*corev1.Pod] { return w.ch }

func (w *genWatch) Stop() {
	if w.once.CompareAndSwap(false, true) {
		close(w.done)
	}
}

func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func waitCount(c *atomic.Int64, n int64) {
	for c.Load() < n {
		time.Sleep(50 * time.Microsecond)
	}
}

// BenchmarkInformer50k pushes 50,000 pods through an informer with one
// handler: the chunked initial list, then one update per pod over the watch.
// It reports the heap held per cached pod (objects included) and the cost
// of each watch event from the stream to the handler.
func BenchmarkInformer50k(b *testing.B) {
	const n = 50_000
	updates := make([]*corev1.Pod, n)
	for i := range updates {
		updates[i] = benchPod(i, 2+i)
	}
	var bytesPerPod, nsPerEvent, listNsPerPod float64
	b.ResetTimer()
	for range b.N {
		lw := &genLW{n: n, updates: updates, release: make(chan struct{})}
		before := heapAfterGC()
		inf := New[*corev1.Pod](meta.GroupResource{Resource: "pods"}, lw, Options{})
		var seen atomic.Int64
		count := func(*corev1.Pod) { seen.Add(1) }
		_, err := inf.AddEventHandler(ResourceEventHandler[*corev1.Pod]{
			OnAdd:    func(p *corev1.Pod, _ bool) { count(p) },
			OnUpdate: func(_, p *corev1.Pod) { count(p) },
		})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		start := time.Now()
		go func() {
			defer close(done)
			inf.Run(ctx)
		}()
		waitCount(&seen, n)
		listNsPerPod += float64(time.Since(start).Nanoseconds()) / n
		bytesPerPod += float64(heapAfterGC()-before) / n

		start = time.Now()
		close(lw.release)
		waitCount(&seen, 2*n)
		nsPerEvent += float64(time.Since(start).Nanoseconds()) / n
		if inf.GetStore().Len() != n {
			b.Fatalf("store holds %d pods, want %d", inf.GetStore().Len(), n)
		}
		cancel()
		<-done
	}
	b.StopTimer()
	b.ReportMetric(bytesPerPod/float64(b.N), "bytes/pod")
	b.ReportMetric(nsPerEvent/float64(b.N), "ns/event")
	b.ReportMetric(listNsPerPod/float64(b.N), "list-ns/pod")
}
