package etcd3

import (
	"context"
	"testing"
	"time"

	"go.uber.org/zap"

	"platform.io/client/api/labels"

	"platform.io/platform/pkg/apiserver/storage"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
	"platform.io/platform/pkg/apiserver/storage/storagetest"
)

func TestConformance(t *testing.T) {
	client, prefix := etcdtest.Client(t)
	storagetest.Run(t, New(zap.NewNop(), client, nil), prefix)
}

func TestWatchConformance(t *testing.T) {
	client, prefix := etcdtest.Client(t)
	s := New(zap.NewNop(), client, nil)
	storagetest.RunWatch(t, s, prefix, func(rev int64) error {
		_, err := client.Compact(context.Background(), rev)
		return err
	})
}

// TestWatchNoPrevious checks the values a watch carries with and without
// previous values, and that a watch without them refuses a predicate.
func TestWatchNoPrevious(t *testing.T) {
	client, prefix := etcdtest.Client(t)
	s := New(zap.NewNop(), client, nil)
	ctx := context.Background()
	first, err := s.Create(ctx, prefix+"a", []byte("1"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GuaranteedUpdate(ctx, prefix+"a", 0, func(storage.KV) ([]byte, error) { return []byte("2"), nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Delete(ctx, prefix+"a", nil); err != nil {
		t.Fatal(err)
	}
	type ev struct {
		typ         storage.EventType
		value, prev string
	}
	tests := []struct {
		noPrevious bool
		want       []ev
	}{
		{false, []ev{{storage.Modified, "2", "1"}, {storage.Deleted, "2", ""}}},
		{true, []ev{{storage.Modified, "2", ""}, {storage.Deleted, "", ""}}},
	}
	for _, tt := range tests {
		w, err := s.Watch(ctx, prefix, storage.WatchOptions{Revision: first.Revision, Prefix: true, NoPrevious: tt.noPrevious})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tt.want {
			select {
			case e := <-w.ResultChan():
				if got := (ev{e.Type, string(e.Value), string(e.PrevValue)}); got != want {
					t.Errorf("NoPrevious %v: got %+v, want %+v", tt.noPrevious, got, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("NoPrevious %v: no event", tt.noPrevious)
			}
		}
		w.Stop()
	}
	pred := storage.Predicate{Label: labels.SelectorFromSet(labels.Set{"app": "x"})}
	if _, err := s.Watch(ctx, prefix, storage.WatchOptions{Prefix: true, NoPrevious: true, Predicate: pred}); err == nil {
		t.Error("a watch without previous values accepted a predicate")
	}
}
