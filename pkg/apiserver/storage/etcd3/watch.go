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
	// progress asks etcd for a progress notification on this stream, or is
	// nil when this etcd's notifications may overtake events; then a request
	// goes to localProgress and the relay answers it with the last revision
	// it delivered.
	progress      func()
	localProgress chan struct{}
	cancel        context.CancelFunc
	result        chan storage.Event
	once          sync.Once
	done          chan struct{}
}

func (w *watcher) ResultChan() <-chan storage.Event { return w.result }

var _ storage.ProgressRequester = (*watcher)(nil)

// RequestProgress implements storage.ProgressRequester.
func (w *watcher) RequestProgress() {
	if w.progress != nil {
		w.progress()
		return
	}
	select {
	case w.localProgress <- struct{}{}:
	default:
	}
}

func (w *watcher) Stop() {
	w.once.Do(func() { w.cancel() })
	<-w.done
}

// Watch implements storage.Watchable with one etcd watch, asking for
// previous values so deletes carry the last state, unless opts.NoPrevious.
func (s *Store) Watch(ctx context.Context, key string, opts storage.WatchOptions) (storage.Watcher, error) {
	if opts.NoPrevious && !opts.Predicate.Empty() {
		return nil, errors.New("etcd3: a watch without previous values cannot filter")
	}
	var initial []storage.Event
	if opts.InitialState {
		var err error
		if initial, opts.Revision, err = s.initialState(ctx, key, opts); err != nil {
			return nil, err
		}
		if opts.InitialEventsEnd {
			initial = append(initial, storage.Event{Type: storage.Progress, Revision: opts.Revision, InitialEventsEnd: true})
		}
	}
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	var eopts []clientv3.OpOption
	if !opts.NoPrevious {
		eopts = append(eopts, clientv3.WithPrevKV())
	}
	if opts.Prefix {
		eopts = append(eopts, clientv3.WithPrefix())
	}
	if opts.Revision > 0 {
		eopts = append(eopts, clientv3.WithRev(opts.Revision+1))
	}
	if opts.ProgressNotify {
		eopts = append(eopts, clientv3.WithProgressNotify())
	}
	w := &watcher{cancel: cancel, result: make(chan storage.Event, 100), done: make(chan struct{}), localProgress: make(chan struct{}, 1)}
	if s.trustProgress.Load() {
		w.progress = func() { s.client.RequestProgress(wctx) }
	}
	ch := s.client.Watch(wctx, key, eopts...)
	go func() {
		for _, e := range initial {
			if !w.send(wctx, e) {
				break
			}
		}
		w.relay(wctx, key, ch, opts.Predicate, opts.Revision)
	}()
	return w, nil
}

// initialState lists what the watch starts from: Added events for the
// matching objects (the one key, unless opts.Prefix), and the revision of
// that list, read in one snapshot.
func (s *Store) initialState(ctx context.Context, key string, opts storage.WatchOptions) ([]storage.Event, int64, error) {
	var out []storage.Event
	lo := storage.ListOptions{Predicate: opts.Predicate, Limit: pageSize}
	for {
		res, err := s.List(ctx, key, lo)
		if err != nil {
			return nil, 0, err
		}
		for _, kv := range res.Items {
			if opts.Prefix || kv.Key == key {
				out = append(out, storage.Event{Type: storage.Added, Key: kv.Key, Value: kv.Value, Revision: kv.Revision})
			}
		}
		if !res.More || !opts.Prefix {
			return out, res.Revision, nil
		}
		lo.StartKey, lo.Revision = res.NextKey, res.Revision
	}
}

// filter applies the predicate to an event; ok is false when the watcher
// does not see it.
func filter(e storage.Event, p storage.Predicate) (storage.Event, bool, error) {
	if p.Empty() {
		return e, true, nil
	}
	newMatch, oldMatch := false, false
	var err error
	switch e.Type {
	case storage.Added:
		newMatch, err = p.Matches(e.Key, e.Value)
	case storage.Deleted:
		oldMatch, err = p.Matches(e.Key, e.Value)
	case storage.Modified:
		if newMatch, err = p.Matches(e.Key, e.Value); err == nil && e.PrevValue != nil {
			oldMatch, err = p.Matches(e.Key, e.PrevValue)
		}
	}
	if err != nil {
		return e, false, err
	}
	t, ok := storage.Transition(e.Type, oldMatch, newMatch)
	e.Type = t
	return e, ok, nil
}

// relay forwards etcd's responses until the watch ends. last is the
// revision up to which everything has been delivered.
func (w *watcher) relay(ctx context.Context, key string, ch clientv3.WatchChan, p storage.Predicate, last int64) {
	defer close(w.done)
	defer close(w.result)
	for {
		select {
		case <-w.localProgress:
			if !w.send(ctx, storage.Event{Type: storage.Progress, Revision: last}) {
				return
			}
		case resp, ok := <-ch:
			if !ok {
				if ctx.Err() == nil {
					w.send(ctx, storage.Event{Type: storage.Error, Err: storage.ErrUnavailable})
				}
				return
			}
			var cont bool
			if last, cont = w.forward(ctx, key, resp, p, last); !cont {
				return
			}
		}
	}
}

// forward sends the events of one response; it returns the new last
// revision and false when the stream must end.
func (w *watcher) forward(ctx context.Context, key string, resp clientv3.WatchResponse, p storage.Predicate, last int64) (int64, bool) {
	if err := resp.Err(); err != nil {
		if errors.Is(err, rpctypes.ErrCompacted) || resp.CompactRevision > 0 {
			err = storage.NewExpired(key, resp.CompactRevision)
		}
		w.send(ctx, storage.Event{Type: storage.Error, Err: err})
		return last, false
	}
	if resp.IsProgressNotify() {
		if w.progress == nil {
			return last, true // not trusted on this etcd
		}
		return max(last, resp.Header.Revision), w.send(ctx, storage.Event{Type: storage.Progress, Revision: resp.Header.Revision})
	}
	for _, e := range resp.Events {
		ev, ok, err := filter(convertEvent(e), p)
		if err != nil {
			w.send(ctx, storage.Event{Type: storage.Error, Err: err})
			return last, false
		}
		last = max(last, ev.Revision)
		if ok && !w.send(ctx, ev) {
			return last, false
		}
	}
	return last, true
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
