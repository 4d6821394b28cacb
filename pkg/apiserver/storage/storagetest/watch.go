package storagetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/storage"
)

// RunWatch checks the watch contract of s, using keys under prefix. compact
// compacts the backing store up to a revision.
func RunWatch(t *testing.T, s interface {
	storage.Interface
	storage.Watchable
}, prefix string, compact func(rev int64) error) {
	ctx := context.Background()
	t.Run("Order", func(t *testing.T) {
		p := prefix + "order/"
		first, err := s.Create(ctx, p+"a", []byte("1"), 0)
		if err != nil {
			t.Fatal(err)
		}
		// Changes after first, including ones made before the watch started.
		if _, err := s.GuaranteedUpdate(ctx, p+"a", 0, func(storage.KV) ([]byte, error) { return []byte("2"), nil }); err != nil {
			t.Fatal(err)
		}
		w, err := s.Watch(ctx, p, storage.WatchOptions{Revision: first.Revision, Prefix: true})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		if _, err := s.Create(ctx, p+"b", []byte("3"), 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Delete(ctx, p+"a", nil); err != nil {
			t.Fatal(err)
		}
		want := []struct {
			typ      storage.EventType
			key, val string
		}{{storage.Modified, "a", "2"}, {storage.Added, "b", "3"}, {storage.Deleted, "a", "2"}}
		last := first.Revision
		for _, wnt := range want {
			e := next(t, w)
			if e.Type != wnt.typ || e.Key != p+wnt.key || string(e.Value) != wnt.val || e.Revision <= last {
				t.Fatalf("got %+v, want %+v after revision %d", e, wnt, last)
			}
			last = e.Revision
		}
	})
	t.Run("InitialEventsEnd", func(t *testing.T) { RunInitialEventsEnd(t, s, prefix+"initial-end/") })
	t.Run("Compacted", func(t *testing.T) {
		p := prefix + "compacted/"
		kv, err := s.Create(ctx, p+"a", []byte("1"), 0)
		if err != nil {
			t.Fatal(err)
		}
		kv2, _ := s.GuaranteedUpdate(ctx, p+"a", 0, func(storage.KV) ([]byte, error) { return []byte("2"), nil })
		if err := compact(kv2.Revision); err != nil {
			t.Fatal(err)
		}
		w, err := s.Watch(ctx, p, storage.WatchOptions{Revision: kv.Revision - 1, Prefix: true})
		if err != nil {
			if errors.Is(err, storage.ErrExpired) {
				return
			}
			t.Fatal(err)
		}
		defer w.Stop()
		if e := next(t, w); e.Type != storage.Error || !errors.Is(e.Err, storage.ErrExpired) {
			t.Fatalf("watch from a compacted revision: %+v", e)
		}
	})
}

func next(t *testing.T, w storage.Watcher) storage.Event {
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

// RunInitialEventsEnd checks that a watch asking for its initial state
// and its end gets the existing objects, then the Progress event marking
// the end at the state's revision, then later changes; keys under prefix.
func RunInitialEventsEnd(t *testing.T, s interface {
	storage.Interface
	storage.Watchable
}, prefix string) {
	ctx := context.Background()
	p := prefix
	for _, k := range []string{"a", "b"} {
		if _, err := s.Create(ctx, p+k, []byte(k), 0); err != nil {
			t.Fatal(err)
		}
	}
	rev, err := s.CurrentRevision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.Watch(ctx, p, storage.WatchOptions{Revision: rev, Prefix: true, InitialState: true, InitialEventsEnd: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for _, k := range []string{"a", "b"} {
		if e := next(t, w); e.Type != storage.Added || e.Key != p+k || e.InitialEventsEnd {
			t.Fatalf("initial event %+v, want Added %s", e, k)
		}
	}
	end := next(t, w)
	if end.Type != storage.Progress || !end.InitialEventsEnd || end.Revision < rev {
		t.Fatalf("after the initial state: %+v, want the InitialEventsEnd progress at revision >= %d", end, rev)
	}
	kv, err := s.Create(ctx, p+"c", []byte("c"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if e := next(t, w); e.Type != storage.Added || e.Key != p+"c" || e.Revision != kv.Revision || e.Revision <= end.Revision {
		t.Fatalf("change after the end: %+v", e)
	}
}
