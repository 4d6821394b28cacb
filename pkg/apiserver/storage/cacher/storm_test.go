package cacher

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/storage"
)

// TestWatchStorm starts many watches at once, as after a restart, half
// from the whole state and half from the current revision, and checks
// what an open watch costs before its client reads anything (the memory
// a storm adds at once), then that every one sees its initial objects and
// a change made after all started.
func TestWatchStorm(t *testing.T) {
	const (
		objects  = 200
		watchers = 500
		// perWatcher bounds the heap an open, unread watch holds. It was
		// 112 KiB of reserved event buffer, plus a list of the state for a
		// watch from the whole state.
		perWatcher = 16 << 10
	)
	c, backend, prefix := start(t, 100)
	ctx := context.Background()
	var last storage.KV
	for i := range objects {
		last, _ = backend.Create(ctx, fmt.Sprintf("%s%05d", prefix, i), []byte("v"), 0)
	}
	waitRev(t, c, last.Revision)

	before := liveHeap()
	ws := make([]storage.Watcher, watchers)
	errs := make([]error, watchers)
	var wg sync.WaitGroup
	for i := range watchers {
		wg.Go(func() {
			opts := storage.WatchOptions{Prefix: true, InitialState: i%2 == 0, InitialEventsEnd: i%2 == 0}
			if !opts.InitialState {
				opts.Revision = last.Revision
			}
			ws[i], errs[i] = c.Watch(ctx, prefix, opts)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("watch %d: %v", i, err)
		}
		defer ws[i].Stop()
	}
	grown := int64(liveHeap()) - int64(before)
	t.Logf("%d open watches hold %d KiB (%d bytes each)", watchers, grown>>10, grown/watchers)
	if grown > watchers*perWatcher {
		t.Errorf("%d open watches hold %d KiB, over %d KiB each", watchers, grown>>10, perWatcher>>10)
	}

	backend.Create(ctx, prefix+"after", []byte("v"), 0)
	got := make([]string, watchers)
	for i, w := range ws {
		wg.Go(func() { got[i] = readUntil(w, prefix+"after", i%2 == 0, objects) })
	}
	wg.Wait()
	for i, g := range got {
		if g != "" {
			t.Errorf("watch %d (from the whole state: %v): %s", i, i%2 == 0, g)
		}
	}
}

// readUntil reads w until the Added event of key, checking that a watch
// from the whole state first had every one of the objects and then the
// end of its initial events; it returns what went wrong, or "".
func readUntil(w storage.Watcher, key string, initial bool, objects int) string {
	added, ended := 0, !initial
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-w.ResultChan():
			switch {
			case !ok:
				return "the watch ended"
			case e.Type == storage.Progress && e.InitialEventsEnd:
				if added != objects {
					return fmt.Sprintf("initial events ended after %d objects, want %d", added, objects)
				}
				ended = true
			case e.Type == storage.Added && e.Key == key:
				if !ended {
					return "the change came before the end of the initial events"
				}
				return ""
			case e.Type == storage.Added:
				added++
			}
		case <-timeout:
			return fmt.Sprintf("no event for %s within 20s (%d objects read)", key, added)
		}
	}
}

// liveHeap is the heap reachable after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
