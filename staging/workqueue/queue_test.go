package workqueue

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// testTimeout only bounds a hung test; no test waits for it to pass.
const testTimeout = 10 * time.Second

type getResult[T comparable] struct {
	item     T
	shutdown bool
}

// getAsync runs Get in a goroutine so a test can bound how long it blocks.
func getAsync[T comparable](q *Queue[T]) <-chan getResult[T] {
	ch := make(chan getResult[T], 1)
	go func() {
		item, shutdown := q.Get()
		ch <- getResult[T]{item, shutdown}
	}()
	return ch
}

func mustGet[T comparable](t *testing.T, q *Queue[T]) (T, bool) {
	t.Helper()
	select {
	case r := <-getAsync(q):
		return r.item, r.shutdown
	case <-time.After(testTimeout):
		t.Fatal("Get did not return")
	}
	panic("unreachable")
}

// op is one step of a scripted queue scenario.
type op struct {
	kind string // add, get, done, len
	item string
	n    int
}

func TestQueueScripts(t *testing.T) {
	tests := []struct {
		name  string
		steps []op
	}{
		{"fifo", []op{{"add", "a", 0}, {"add", "b", 0}, {"get", "a", 0}, {"get", "b", 0}, {"len", "", 0}}},
		{"dedup waiting", []op{{"add", "a", 0}, {"add", "a", 0}, {"add", "b", 0}, {"add", "a", 0}, {"len", "", 2}, {"get", "a", 0}, {"get", "b", 0}, {"len", "", 0}}},
		{"re-add while processing", []op{
			{"add", "a", 0}, {"get", "a", 0}, {"add", "a", 0}, {"add", "a", 0}, {"len", "", 0},
			{"done", "a", 0}, {"len", "", 1}, {"get", "a", 0}, {"done", "a", 0}, {"len", "", 0},
		}},
		{"done without re-add", []op{{"add", "a", 0}, {"get", "a", 0}, {"done", "a", 0}, {"len", "", 0}}},
		{"re-added item keeps order", []op{
			{"add", "a", 0}, {"get", "a", 0}, {"add", "a", 0}, {"add", "b", 0}, {"done", "a", 0},
			{"get", "b", 0}, {"get", "a", 0},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := NewQueue(Options[string]{})
			defer q.ShutDown()
			for i, s := range tc.steps {
				runOp(t, q, i, s)
			}
		})
	}
}

func runOp(t *testing.T, q *Queue[string], i int, s op) {
	t.Helper()
	switch s.kind {
	case "add":
		q.Add(s.item)
	case "done":
		q.Done(s.item)
	case "get":
		got, shutdown := mustGet(t, q)
		if shutdown || got != s.item {
			t.Fatalf("step %d: Get() = %q, %v; want %q, false", i, got, shutdown, s.item)
		}
	case "len":
		if got := q.Len(); got != s.n {
			t.Fatalf("step %d: Len() = %d, want %d", i, got, s.n)
		}
	default:
		t.Fatalf("step %d: unknown op %q", i, s.kind)
	}
}

func TestShutDownWakesWaiters(t *testing.T) {
	q := NewQueue(Options[int]{})
	results := []<-chan getResult[int]{getAsync(q), getAsync(q), getAsync(q)}
	q.ShutDown()
	for i, ch := range results {
		select {
		case r := <-ch:
			if !r.shutdown {
				t.Errorf("waiter %d: got item %v, want shutdown", i, r.item)
			}
		case <-time.After(testTimeout):
			t.Fatalf("waiter %d not woken by ShutDown", i)
		}
	}
}

func TestShutDownDrainsQueuedItemsThenReportsShutdown(t *testing.T) {
	q := NewQueue(Options[string]{})
	q.Add("a")
	q.Add("b")
	q.ShutDown()
	q.Add("c") // ignored after shutdown
	if !q.ShuttingDown() {
		t.Fatal("ShuttingDown() = false after ShutDown")
	}
	for _, want := range []string{"a", "b"} {
		if got, shutdown := mustGet(t, q); shutdown || got != want {
			t.Fatalf("Get() = %q, %v; want %q, false", got, shutdown, want)
		}
	}
	if got, shutdown := mustGet(t, q); !shutdown || got != "" {
		t.Fatalf("Get() = %q, %v; want zero, true", got, shutdown)
	}
}

// startDrain runs ShutDownWithDrain and returns once the queue is shutting
// down, with a channel closed when the drain returns.
func startDrain[T comparable](q *Queue[T]) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		q.ShutDownWithDrain()
		close(done)
	}()
	for !q.ShuttingDown() {
		runtime.Gosched()
	}
	return done
}

func TestShutDownWithDrain(t *testing.T) {
	tests := []struct {
		name    string
		release func(q *Queue[string])
	}{
		{"released by Done", func(q *Queue[string]) { q.Done("a") }},
		{"released by ShutDown", func(q *Queue[string]) { q.ShutDown() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := NewQueue(Options[string]{})
			q.Add("a")
			if got, _ := mustGet(t, q); got != "a" {
				t.Fatalf("Get() = %q, want a", got)
			}
			done := startDrain(q)
			select {
			case <-done:
				t.Fatal("ShutDownWithDrain returned while an item was processing")
			default:
			}
			tc.release(q)
			select {
			case <-done:
			case <-time.After(testTimeout):
				t.Fatal("ShutDownWithDrain did not return")
			}
		})
	}
}

func TestShutDownWithDrainIdleReturnsImmediately(t *testing.T) {
	q := NewQueue(Options[int]{})
	q.ShutDownWithDrain()
	if _, shutdown := mustGet(t, q); !shutdown {
		t.Fatal("Get() after drain: want shutdown")
	}
}

// TestConcurrentAddProcess checks under -race that every item is processed
// and that no item is ever held by two workers at once.
func TestConcurrentAddProcess(t *testing.T) {
	const producers, workers, items, rounds = 8, 8, 200, 5
	limiter, err := NewExponentialRateLimiter[string](ExponentialOptions{Base: time.Microsecond, Max: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	q := NewQueue(Options[string]{MetricsProvider: newFakeMetrics(), Name: "race", RateLimiter: limiter})
	var mu sync.Mutex
	inFlight := map[string]bool{}
	seen := map[string]bool{}
	allSeen := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				mu.Lock()
				if inFlight[item] {
					t.Errorf("item %s handed to two workers", item)
				}
				inFlight[item] = true
				seen[item] = true
				if len(seen) == items {
					select {
					case <-allSeen:
					default:
						close(allSeen)
					}
				}
				mu.Unlock()
				if q.NumRequeues(item) < 2 {
					q.AddRateLimited(item)
				} else {
					q.Forget(item)
				}
				mu.Lock()
				delete(inFlight, item)
				mu.Unlock()
				q.Done(item)
			}
		}()
	}
	var pwg sync.WaitGroup
	for p := 0; p < producers; p++ {
		pwg.Add(1)
		go func(p int) {
			defer pwg.Done()
			for r := 0; r < rounds; r++ {
				for i := p; i < items; i += producers {
					q.Add(fmt.Sprint("item-", i))
					_ = q.Len()
				}
			}
		}(p)
	}
	pwg.Wait()
	select {
	case <-allSeen:
	case <-time.After(testTimeout):
		t.Fatal("not every item was processed")
	}
	q.ShutDownWithDrain()
	wg.Wait()
}
