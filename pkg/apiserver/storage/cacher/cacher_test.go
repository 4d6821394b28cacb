package cacher

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"platform.io/client/api/labels"

	"platform.io/platform/pkg/apiserver/storage"
	"platform.io/platform/pkg/apiserver/storage/etcd3"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/pkg/apiserver/storage/storagetest"
)

// attrs derives a "v" label from the value, so tests can select by value.
func attrs(_ string, v []byte) (storage.Attrs, error) {
	return storage.Attrs{Labels: labels.Set{"v": string(v), "even": fmt.Sprint(len(v) == 1 && (v[0]-'0')%2 == 0 || string(v) == "late")}}, nil
}

func start(t *testing.T, capacity int) (*Cacher, *etcd3.Store, string) {
	t.Helper()
	c, backend, prefix, _ := startStoppable(t, capacity)
	return c, backend, prefix
}

// startStoppable is start, with a function that stops the cache.
func startStoppable(t *testing.T, capacity int) (*Cacher, *etcd3.Store, string, func()) {
	t.Helper()
	client, prefix := etcdtest.Client(t)
	backend := etcd3.New(zap.NewNop(), client, nil)
	trust, _, err := backend.ProgressNotifyReliable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := New(zap.NewNop(), Config{Backend: backend, Prefix: prefix, Attrs: attrs, Capacity: capacity,
		BookmarkInterval: 200 * time.Millisecond, Resource: "test", TrustProgress: trust})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()
	stop := func() { cancel(); <-done }
	t.Cleanup(stop)
	return c, backend, prefix, stop
}

func TestConformance(t *testing.T) {
	c, _, prefix := start(t, 100)
	storagetest.Run(t, c, prefix)
}

func recv(t *testing.T, w storage.Watcher) storage.Event {
	t.Helper()
	select {
	case e, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed")
		}
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10s")
	}
	return storage.Event{}
}

func TestWatchFromRevisionAndInitialState(t *testing.T) {
	c, backend, prefix := start(t, 100)
	ctx := context.Background()
	a, _ := backend.Create(ctx, prefix+"a", []byte("1"), 0)
	backend.Create(ctx, prefix+"b", []byte("2"), 0)
	// From a revision: the changes after it, replayed from the window.
	w, err := c.Watch(ctx, prefix, storage.WatchOptions{Revision: a.Revision, Prefix: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if e := recv(t, w); e.Type != storage.Added || e.Key != prefix+"b" {
		t.Fatalf("replayed %+v", e)
	}
	// Initial state: Added for each object, then live changes.
	w2, err := c.Watch(ctx, prefix, storage.WatchOptions{Prefix: true, InitialState: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w2.Stop()
	got := []string{recv(t, w2).Key, recv(t, w2).Key}
	if got[0] != prefix+"a" || got[1] != prefix+"b" {
		t.Fatalf("initial state %v", got)
	}
	backend.Delete(ctx, prefix+"a", nil)
	for _, w := range []storage.Watcher{w, w2} {
		if e := recv(t, w); e.Type != storage.Deleted || e.Key != prefix+"a" || string(e.Value) != "1" {
			t.Fatalf("delete event %+v", e)
		}
	}
	// One key only.
	w3, err := c.Watch(ctx, prefix+"b", storage.WatchOptions{InitialState: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w3.Stop()
	backend.Create(ctx, prefix+"bb", []byte("x"), 0)
	backend.GuaranteedUpdate(ctx, prefix+"b", 0, func(storage.KV) ([]byte, error) { return []byte("4"), nil })
	if e := recv(t, w3); e.Key != prefix+"b" || e.Type != storage.Added {
		t.Fatalf("single-key initial %+v", e)
	}
	if e := recv(t, w3); e.Key != prefix+"b" || e.Type != storage.Modified || string(e.Value) != "4" {
		t.Fatalf("single-key change %+v", e)
	}
}

// TestWatchBeforeWindow: a watch from before the window is served from
// etcd's history; only a compacted revision is ErrExpired.
func TestWatchBeforeWindow(t *testing.T) {
	c, backend, prefix := start(t, 3)
	ctx := context.Background()
	first, _ := sixRevisions(t, c, backend, prefix)
	w, err := c.Watch(ctx, prefix, storage.WatchOptions{Revision: first.Revision, Prefix: true})
	if err != nil {
		t.Fatalf("watch from before the window: %v", err)
	}
	for i := 1; i <= 5; i++ {
		if e := recv(t, w); string(e.Value) != fmt.Sprint(i) {
			t.Fatalf("event %d from history: %+v", i, e)
		}
	}
	w.Stop()
	w, err = c.Watch(ctx, prefix, storage.WatchOptions{Revision: first.Revision + 3, Prefix: true})
	if err != nil {
		t.Fatalf("watch inside the window: %v", err)
	}
	if e := recv(t, w); string(e.Value) != "4" {
		t.Fatalf("first replayed event %+v", e)
	}
	w.Stop()
}

// TestEtcdServedWatchesEndWithTheCache: a watch the cache hands to etcd
// (here one from before its window) ends when the cache stops, as the
// cache's own watchers do, so that the watches of a custom resource end
// when its definition goes, however they are served.
func TestEtcdServedWatchesEndWithTheCache(t *testing.T) {
	c, backend, prefix, stop := startStoppable(t, 3)
	ctx := context.Background()
	first, last := sixRevisions(t, c, backend, prefix)
	fromEtcd, err := c.Watch(ctx, prefix, storage.WatchOptions{Revision: first.Revision, Prefix: true})
	if err != nil {
		t.Fatal(err)
	}
	defer fromEtcd.Stop()
	if _, ok := fromEtcd.(*backendWatcher); !ok {
		t.Fatalf("a watch from before the window is a %T, not one etcd serves", fromEtcd)
	}
	fromCache, err := c.Watch(ctx, prefix, storage.WatchOptions{Revision: last.Revision, Prefix: true})
	if err != nil {
		t.Fatal(err)
	}
	defer fromCache.Stop()
	for i := 1; i <= 5; i++ {
		recv(t, fromEtcd)
	}
	stop()
	for name, w := range map[string]storage.Watcher{"etcd's": fromEtcd, "the cache's": fromCache} {
		timeout := time.After(10 * time.Second)
		for open := true; open; {
			select {
			case _, open = <-w.ResultChan():
			case <-timeout:
				t.Fatalf("%s watch is still open after the cache stopped", name)
			}
		}
	}
}

// sixRevisions writes key k with the values 0 to 5 and waits until the
// cache has them all; it returns the first write and the last.
func sixRevisions(t *testing.T, c *Cacher, backend *etcd3.Store, prefix string) (first, last storage.KV) {
	t.Helper()
	ctx := context.Background()
	first, _ = backend.Create(ctx, prefix+"k", []byte("0"), 0)
	for i := 1; i <= 5; i++ {
		last, _ = backend.GuaranteedUpdate(ctx, prefix+"k", 0, func(storage.KV) ([]byte, error) { return []byte(fmt.Sprint(i)), nil })
	}
	waitRev(t, c, last.Revision)
	return first, last
}

func waitRev(t *testing.T, c *Cacher, rev int64) {
	t.Helper()
	if err := c.waitFresh(context.Background(), rev, 10*time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestSelectorTransitions(t *testing.T) {
	c, backend, prefix := start(t, 100)
	ctx := context.Background()
	backend.Create(ctx, prefix+"x", []byte("1"), 0)
	pred := storage.Predicate{Label: labels.SelectorFromSet(labels.Set{"v": "2"}), GetAttrs: attrs}
	w, err := c.Watch(ctx, prefix, storage.WatchOptions{Prefix: true, InitialState: true, Predicate: pred})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	set := func(v string) {
		backend.GuaranteedUpdate(ctx, prefix+"x", 0, func(storage.KV) ([]byte, error) { return []byte(v), nil })
	}
	set("2") // starts matching: ADDED
	if e := recv(t, w); e.Type != storage.Added || string(e.Value) != "2" {
		t.Fatalf("start matching: %+v", e)
	}
	set("3") // stops matching: DELETED
	if e := recv(t, w); e.Type != storage.Deleted || string(e.Value) != "3" {
		t.Fatalf("stop matching: %+v", e)
	}
	set("4") // still not matching: nothing; then matching again
	set("2")
	if e := recv(t, w); e.Type != storage.Added || string(e.Value) != "2" {
		t.Fatalf("match again: %+v", e)
	}
}

func TestManyWatchersSeeEveryEvent(t *testing.T) {
	c, backend, prefix := start(t, 100)
	ctx := context.Background()
	const watchers, events = 200, 50
	var ws []storage.Watcher
	for i := 0; i < watchers; i++ {
		w, err := c.Watch(ctx, prefix, storage.WatchOptions{Prefix: true})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		ws = append(ws, w)
	}
	var wg sync.WaitGroup
	errs := make(chan error, watchers)
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last int64
			for i := 0; i < events; i++ {
				select {
				case e := <-w.ResultChan():
					if e.Revision <= last || e.Key != fmt.Sprintf("%s%03d", prefix, i) {
						errs <- fmt.Errorf("event %d: %+v after revision %d", i, e, last)
						return
					}
					last = e.Revision
				case <-time.After(20 * time.Second):
					errs <- fmt.Errorf("timed out after %d events", i)
					return
				}
			}
		}()
	}
	for i := 0; i < events; i++ {
		if _, err := backend.Create(ctx, fmt.Sprintf("%s%03d", prefix, i), []byte("v"), 0); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestBookmarks(t *testing.T) {
	c, backend, prefix := start(t, 100)
	ctx := context.Background()
	kv, _ := backend.Create(ctx, prefix+"a", []byte("1"), 0)
	w, err := c.Watch(ctx, prefix, storage.WatchOptions{Prefix: true, Revision: kv.Revision, ProgressNotify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if e := recv(t, w); e.Type != storage.Progress || e.Revision < kv.Revision {
		t.Fatalf("periodic bookmark: %+v", e)
	}
	b, _ := backend.Create(ctx, prefix+"b", []byte("2"), 0)
	waitRev(t, c, b.Revision) // a requested bookmark reflects what the cache has seen
	w.(storage.ProgressRequester).RequestProgress()
	e1, e2 := recv(t, w), recv(t, w)
	for e1.Type == storage.Progress && e2.Type != storage.Added { // skip periodic ones
		e1, e2 = e2, recv(t, w)
	}
	if e1.Type != storage.Added || e2.Type != storage.Progress || e2.Revision < e1.Revision {
		t.Fatalf("requested bookmark must follow the events before it: %+v then %+v", e1, e2)
	}
}

func TestConsistentListWaitsForEtcd(t *testing.T) {
	c, backend, prefix := start(t, 100)
	ctx := context.Background()
	kv, _ := backend.Create(ctx, prefix+"a", []byte("1"), 0)
	res, err := c.List(ctx, prefix, storage.ListOptions{Consistent: true})
	if err != nil || res.Revision < kv.Revision || len(res.Items) != 1 {
		t.Fatalf("consistent list right after a write: %+v %v", res, err)
	}
	// A revision far ahead is never reached.
	if _, err := c.List(ctx, prefix, storage.ListOptions{MinRevision: kv.Revision + 1000}); !errors.Is(err, storage.ErrTooNew) {
		t.Fatalf("list at a future revision: %v", err)
	}
	n, err := c.Count(ctx, prefix)
	if err != nil || n != 1 {
		t.Fatalf("count %d %v", n, err)
	}
}

func TestSlowWatcherIsStopped(t *testing.T) {
	c, backend, prefix := start(t, 10)
	ctx := context.Background()
	slow, err := c.Watch(ctx, prefix, storage.WatchOptions{Prefix: true})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Stop()
	var last storage.KV
	for i := 0; i < watcherBuffer+20; i++ {
		last, _ = backend.Create(ctx, fmt.Sprintf("%s%05d", prefix, i), []byte("v"), 0)
	}
	waitRev(t, c, last.Revision)
	n := 0
	for range slow.ResultChan() {
		n++
	}
	if n == 0 || n > watcherBuffer+1 {
		t.Fatalf("slow watcher got %d events before it was stopped", n)
	}
	if !strings.HasPrefix(prefix, "/") {
		t.Fatal(prefix)
	}
}

// TestWatchCompacted: a watch from a compacted revision is ErrExpired before
// any event. It compacts the test etcd, so it runs last in this package.
func TestWatchCompacted(t *testing.T) {
	client, prefix := etcdtest.Client(t)
	backend := etcd3.New(zap.NewNop(), client, nil)
	c := New(zap.NewNop(), Config{Backend: backend, Prefix: prefix, Attrs: attrs, Capacity: 2, Resource: "test"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)
	first, _ := backend.Create(ctx, prefix+"k", []byte("0"), 0)
	var last storage.KV
	for i := 1; i <= 4; i++ {
		last, _ = backend.GuaranteedUpdate(ctx, prefix+"k", 0, func(storage.KV) ([]byte, error) { return []byte(fmt.Sprint(i)), nil })
	}
	waitRev(t, c, last.Revision)
	if _, err := client.Compact(ctx, last.Revision); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Watch(ctx, prefix, storage.WatchOptions{Revision: first.Revision, Prefix: true}); !errors.Is(err, storage.ErrExpired) {
		t.Fatalf("watch from a compacted revision: %v", err)
	}
}

// TestInitialEventsEnd: the watch-list end marker from the cache.
func TestInitialEventsEnd(t *testing.T) {
	c, _, prefix := start(t, 100)
	storagetest.RunInitialEventsEnd(t, c, prefix)
}
