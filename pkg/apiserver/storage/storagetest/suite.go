// Package storagetest is the conformance suite every storage.Interface
// implementation runs: the etcd3 store today, the watch cache once it
// decorates it.
package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"platform.io/client/api/labels"

	"platform.io/platform/pkg/apiserver/storage"
)

// Run runs the suite against s, using keys under prefix.
func Run(t *testing.T, s storage.Interface, prefix string) {
	ctx := context.Background()
	t.Run("CreateGet", func(t *testing.T) {
		key := prefix + "create/a"
		kv, err := s.Create(ctx, key, []byte("v1"), 0)
		if err != nil || kv.Revision == 0 {
			t.Fatalf("create: %v, %+v", err, kv)
		}
		if _, err := s.Create(ctx, key, []byte("v2"), 0); !errors.Is(err, storage.ErrAlreadyExists) {
			t.Fatalf("second create: got %v, want ErrAlreadyExists", err)
		}
		got, err := s.Get(ctx, key)
		if err != nil || string(got.Value) != "v1" || got.Revision != kv.Revision {
			t.Fatalf("get: %+v, %v; want v1 at %d", got, err, kv.Revision)
		}
		if _, err := s.Get(ctx, prefix+"create/missing"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("get missing: %v", err)
		}
	})
	t.Run("GuaranteedUpdate", func(t *testing.T) {
		key := prefix + "update/a"
		if _, err := s.Create(ctx, key, []byte("0"), 0); err != nil {
			t.Fatal(err)
		}
		// Concurrent increments must all land: the CAS retries on conflict.
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.GuaranteedUpdate(ctx, key, 0, func(cur storage.KV) ([]byte, error) {
					var n int
					fmt.Sscan(string(cur.Value), &n)
					return []byte(fmt.Sprint(n + 1)), nil
				})
				if err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		got, _ := s.Get(ctx, key)
		if string(got.Value) != "20" {
			t.Fatalf("after 20 concurrent increments: %q", got.Value)
		}
		// An absent key reaches tryUpdate with a nil value; it may create it.
		kv, err := s.GuaranteedUpdate(ctx, prefix+"update/new", 0, func(cur storage.KV) ([]byte, error) {
			if cur.Value != nil || cur.Revision != 0 {
				t.Errorf("absent key seen as %+v", cur)
			}
			return []byte("made"), nil
		})
		if err != nil || string(kv.Value) != "made" {
			t.Fatalf("create through update: %+v %v", kv, err)
		}
		// An error from tryUpdate aborts and writes nothing.
		boom := errors.New("boom")
		if _, err := s.GuaranteedUpdate(ctx, key, 0, func(storage.KV) ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
			t.Fatalf("tryUpdate error: %v", err)
		}
		// A nil value means no change: the revision stays.
		same, err := s.GuaranteedUpdate(ctx, key, 0, func(storage.KV) ([]byte, error) { return nil, nil })
		if err != nil || same.Revision != got.Revision {
			t.Fatalf("no-op update moved revision %d -> %d (%v)", got.Revision, same.Revision, err)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		key := prefix + "delete/a"
		if _, err := s.Create(ctx, key, []byte("x"), 0); err != nil {
			t.Fatal(err)
		}
		veto := errors.New("veto")
		if _, err := s.Delete(ctx, key, func(storage.KV) error { return veto }); !errors.Is(err, veto) {
			t.Fatalf("vetoed delete: %v", err)
		}
		last, err := s.Delete(ctx, key, nil)
		if err != nil || string(last.Value) != "x" {
			t.Fatalf("delete: %+v %v", last, err)
		}
		if _, err := s.Delete(ctx, key, nil); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
	})
	t.Run("ListChunks", func(t *testing.T) { listChunks(t, s, prefix+"list/") })
	t.Run("Fence", func(t *testing.T) { runFence(t, s, prefix+"fence/") })
}

func listChunks(t *testing.T, s storage.Interface, prefix string) {
	ctx := context.Background()
	for i := 0; i < 7; i++ {
		if _, err := s.Create(ctx, fmt.Sprintf("%s%02d", prefix, i), []byte(fmt.Sprint(i)), 0); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.List(ctx, prefix, storage.ListOptions{Limit: 3, Consistent: true})
	if err != nil || len(first.Items) != 3 || !first.More || first.Remaining != 4 {
		t.Fatalf("first page: %+v %v", first, err)
	}
	// A write after the first page must not show in later pages of the snapshot.
	if _, err := s.Create(ctx, prefix+"05a", []byte("late"), 0); err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, kv := range first.Items {
		all = append(all, string(kv.Value))
	}
	page := first
	for page.More {
		page, err = s.List(ctx, prefix, storage.ListOptions{Limit: 3, StartKey: page.NextKey, Revision: first.Revision})
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range page.Items {
			all = append(all, string(kv.Value))
		}
	}
	if fmt.Sprint(all) != "[0 1 2 3 4 5 6]" {
		t.Fatalf("chunks of one snapshot: %v", all)
	}
	// A filter keeps reading until the limit is met.
	even, err := s.List(ctx, prefix, storage.ListOptions{Limit: 2, Consistent: true, Predicate: evenPredicate()})
	if err != nil || len(even.Items) != 2 || string(even.Items[1].Value) != "2" || !even.More {
		t.Fatalf("filtered list: %+v %v", even, err)
	}
	n, err := s.Count(ctx, prefix)
	if err != nil || n != 8 {
		t.Fatalf("count: %d %v", n, err)
	}
}

// evenPredicate selects values "late" and the even digits through a label
// selector over attributes derived from the value.
func evenPredicate() storage.Predicate {
	return storage.Predicate{
		Label: labels.SelectorFromSet(labels.Set{"even": "true"}),
		GetAttrs: func(_ string, v []byte) (storage.Attrs, error) {
			even := string(v) == "late" || (len(v) == 1 && (v[0]-'0')%2 == 0)
			return storage.Attrs{Labels: labels.Set{"even": fmt.Sprint(even)}}, nil
		},
	}
}
