package etcd3

import (
	"context"
	"errors"
	"sync"

	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"platform.io/platform/pkg/apiserver/storage"
)

var _ storage.Watchable = (*Store)(nil)

// watcher relays one etcd watch.
type watcher struct {
	cancel context.CancelFunc
	result chan storage.Event
	once   sync.Once
	done   chan struct{}
}

func (w *watcher) ResultChan() <-chan storage.Event { return w.result }

func (w *watcher) Stop() {
	w.once.Do(func() { w.cancel() })
	<-w.done
}

// Watch implements storage.Watchable with one etcd watch, asking for
// previous values so deletes carry the last state.
func (s *Store) Watch(ctx context.Context, key string, opts storage.WatchOptions) (storage.Watcher, error) {
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	eopts := []clientv3.OpOption{clientv3.WithPrevKV()}
	if opts.Prefix {
		eopts = append(eopts, clientv3.WithPrefix())
	}
	if opts.Revision > 0 {
		eopts = append(eopts, clientv3.WithRev(opts.Revision+1))
	}
	if opts.ProgressNotify {
		eopts = append(eopts, clientv3.WithProgressNotify())
	}
	w := &watcher{cancel: cancel, result: make(chan storage.Event, 100), done: make(chan struct{})}
	ch := s.client.Watch(wctx, key, eopts...)
	go w.relay(wctx, key, ch)
	return w, nil
}

func (w *watcher) relay(ctx context.Context, key string, ch clientv3.WatchChan) {
	defer close(w.done)
	defer close(w.result)
	for resp := range ch {
		if err := resp.Err(); err != nil {
			if errors.Is(err, rpctypes.ErrCompacted) || resp.CompactRevision > 0 {
				err = storage.NewExpired(key, resp.CompactRevision)
			}
			w.send(ctx, storage.Event{Type: storage.Error, Err: err})
			return
		}
		if resp.IsProgressNotify() {
			if !w.send(ctx, storage.Event{Type: storage.Progress, Revision: resp.Header.Revision}) {
				return
			}
			continue
		}
		for _, e := range resp.Events {
			if !w.send(ctx, convertEvent(e)) {
				return
			}
		}
	}
	if ctx.Err() == nil {
		w.send(ctx, storage.Event{Type: storage.Error, Err: storage.ErrUnavailable})
	}
}

func (w *watcher) send(ctx context.Context, e storage.Event) bool {
	select {
	case w.result <- e:
		return true
	case <-ctx.Done():
		return false
	}
}

func convertEvent(e *clientv3.Event) storage.Event {
	out := storage.Event{Key: string(e.Kv.Key), Revision: e.Kv.ModRevision, Value: e.Kv.Value}
	if e.PrevKv != nil {
		out.PrevValue = e.PrevKv.Value
	}
	switch {
	case e.Type == mvccpb.DELETE:
		out.Type, out.Value, out.PrevValue = storage.Deleted, out.PrevValue, nil
	case e.IsCreate():
		out.Type = storage.Added
	default:
		out.Type = storage.Modified
	}
	return out
}
