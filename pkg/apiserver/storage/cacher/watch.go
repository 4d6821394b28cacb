package cacher

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/btree"

	"platform.io/platform/pkg/apiserver/storage"
)

// cacheWatcher is one watch served from the cache.
type cacheWatcher struct {
	c      *Cacher
	key    string
	prefix bool
	pred   storage.Predicate
	// minRev: only events after it are sent (earlier ones are in the initial state).
	minRev int64
	// in is fed by the cache under its lock and closed when the watcher ends.
	in  *queue
	out chan storage.Event
	// initial events are sent before anything from in: those of the
	// window (a resume), or the objects of snapshot (a copy-on-write clone
	// of the cache, walked as the client reads, so that watchers starting
	// from the whole state share it rather than each holding a list of
	// it), then initialEnd if set.
	initial    []storage.Event
	snapshot   *btree.BTreeG[*entry]
	initialEnd *storage.Event
	// c.mu guards terminated, bookmarks and lastBookmark.
	terminated   bool
	bookmarks    bool
	lastBookmark time.Time
	stopOnce     sync.Once
	stop         chan struct{}
	done         chan struct{}
}

var _ storage.ProgressRequester = (*cacheWatcher)(nil)

func (w *cacheWatcher) ResultChan() <-chan storage.Event { return w.out }

// Stop ends the watch and waits for its goroutine.
func (w *cacheWatcher) Stop() {
	w.stopOnce.Do(func() {
		w.c.mu.Lock()
		w.c.removeLocked(w)
		w.c.mu.Unlock()
		close(w.stop)
	})
	<-w.done
}

// RequestProgress queues a Progress event at the cache's revision.
func (w *cacheWatcher) RequestProgress() {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	w.c.bookmarkLocked(w, time.Now())
}

// forward sends the initial events, then the live ones, until stopped or
// until the cache closes in.
func (w *cacheWatcher) forward() {
	defer close(w.done)
	defer close(w.out)
	if !w.sendInitial() {
		return
	}
	var batch []storage.Event
	for {
		select {
		case <-w.in.ready:
		case <-w.stop:
			return
		}
		var closed bool
		batch, closed = w.in.take(batch)
		for _, e := range batch {
			if !w.send(e) {
				return
			}
		}
		if closed {
			return
		}
	}
}

// send passes e on, or reports false once the watcher is stopped.
func (w *cacheWatcher) send(e storage.Event) bool {
	select {
	case w.out <- e:
		return true
	case <-w.stop:
		return false
	}
}

// sendInitial sends the initial events; false means the watcher stopped.
func (w *cacheWatcher) sendInitial() bool {
	for _, e := range w.initial {
		if !w.send(e) {
			return false
		}
	}
	w.initial = nil
	if w.snapshot != nil {
		ok := true
		walkState(w.snapshot, w, func(e storage.Event) bool {
			ok = w.send(e)
			return ok
		})
		w.snapshot = nil
		if !ok {
			return false
		}
	}
	if w.initialEnd != nil {
		return w.send(*w.initialEnd)
	}
	return true
}

// removeLocked unregisters w and closes its input once.
func (c *Cacher) removeLocked(w *cacheWatcher) {
	if w.terminated {
		return
	}
	w.terminated = true
	delete(c.watchers, w)
	w.in.close()
	if m := c.cfg.Metrics; m != nil {
		m.watchers.WithLabelValues(c.cfg.Resource).Set(float64(len(c.watchers)))
	}
}

func (c *Cacher) terminateAllLocked() {
	for w := range c.watchers {
		c.removeLocked(w)
	}
}

// wants reports whether w sees changes to key.
func (w *cacheWatcher) wants(key string) bool {
	if w.prefix {
		return strings.HasPrefix(key, w.key)
	}
	return key == w.key
}

// view returns what w sees of ev, if anything, counting only changes after
// revision after.
func (w *cacheWatcher) view(ev *event, after int64) (storage.Event, bool) {
	if ev.Revision <= after || !w.wants(ev.Key) {
		return storage.Event{}, false
	}
	if w.pred.Empty() {
		return ev.Event, true
	}
	oldMatch := ev.hasPrev && w.pred.MatchesAttrs(ev.prevAttrs)
	newMatch := ev.Type != storage.Deleted && w.pred.MatchesAttrs(ev.attrs)
	t, ok := storage.Transition(ev.Type, oldMatch, newMatch)
	out := ev.Event
	out.Type = t
	return out, ok
}

// dispatchLocked queues ev for every watcher that sees it; a watcher whose
// buffer is full is stopped rather than allowed to hold up the others.
func (c *Cacher) dispatchLocked(ev *event) {
	sent := 0
	for w := range c.watchers {
		e, ok := w.view(ev, w.minRev)
		if !ok {
			continue
		}
		if w.in.push(e) {
			sent++
		} else {
			c.lg.Info("stopping a watcher that fell behind")
			c.removeLocked(w)
			if m := c.cfg.Metrics; m != nil {
				m.dropped.WithLabelValues(c.cfg.Resource).Inc()
			}
		}
	}
	if m := c.cfg.Metrics; m != nil && sent > 0 {
		m.events.WithLabelValues(c.cfg.Resource).Add(float64(sent))
	}
}

// Watch implements storage.Watchable from the cache.
func (c *Cacher) Watch(ctx context.Context, key string, opts storage.WatchOptions) (storage.Watcher, error) {
	if opts.InitialState && opts.Revision > 0 {
		// A consistent start: the state at etcd's current revision. With
		// trusted progress notifications the cache catches up within the
		// wait, or the watch fails with ErrTooNew (a 504 the client
		// retries), as upstream's cache does; it is not served by etcd,
		// which reads and holds the whole state once per watcher: in a
		// storm of watches whose waits ran out, that was the spike.
		// Without them the cache cannot prove it is fresh, and etcd serves
		// the watch.
		if c.cfg.TrustProgress {
			if err := c.waitFresh(ctx, opts.Revision, 10*time.Second); err != nil {
				return nil, err
			}
		} else if ok, err := c.freshOrWait(ctx, opts.Revision, 0); err != nil {
			return nil, err
		} else if !ok {
			return c.backendWatch(ctx, key, opts)
		}
	}
	if err := c.waitFresh(ctx, 1, 10*time.Second); err != nil {
		return nil, err
	}
	if !opts.InitialState && opts.Revision > c.Revision() {
		// Changes after a revision the cache has not reached yet: they will
		// come through it; only a revision etcd has not reached is an error.
		cur, err := c.cfg.Backend.CurrentRevision(ctx)
		if err != nil {
			return nil, err
		}
		if opts.Revision > cur {
			return nil, fmt.Errorf("%w: revision %d, etcd is at %d", storage.ErrTooNew, opts.Revision, cur)
		}
	}
	if opts.Revision > 0 && !opts.InitialState && opts.Revision < c.oldestRevision() {
		return c.watchHistory(ctx, key, opts)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	w := &cacheWatcher{
		c: c, key: key, prefix: opts.Prefix, pred: opts.Predicate, minRev: c.rev,
		in: newQueue(), out: make(chan storage.Event),
		stop: make(chan struct{}), done: make(chan struct{}),
		bookmarks: opts.ProgressNotify, lastBookmark: time.Now(),
	}
	switch {
	case opts.InitialState:
		// Cloning marks the tree copy-on-write: the next change copies the
		// few nodes on its path, and the clone stays the state at c.rev.
		w.snapshot = c.items.Clone()
		if opts.InitialEventsEnd {
			w.initialEnd = &storage.Event{Type: storage.Progress, Revision: c.rev, InitialEventsEnd: true}
		}
	case opts.Revision > c.rev:
		w.minRev = opts.Revision
	case opts.Revision > 0:
		for _, ev := range c.window {
			if e, ok := w.view(ev, opts.Revision); ok {
				w.initial = append(w.initial, e)
			}
		}
	}
	c.watchers[w] = struct{}{}
	if m := c.cfg.Metrics; m != nil {
		m.watchers.WithLabelValues(c.cfg.Resource).Set(float64(len(c.watchers)))
	}
	go w.forward()
	context.AfterFunc(ctx, func() { go w.Stop() })
	return w, nil
}

func (c *Cacher) oldestRevision() int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.oldest
}

// watchHistory serves a watch from a revision older than the window (after
// a restart, say) from etcd, which keeps history until compaction. A
// compacted revision is ErrExpired before the stream starts.
func (c *Cacher) watchHistory(ctx context.Context, key string, opts storage.WatchOptions) (storage.Watcher, error) {
	if _, err := c.cfg.Backend.List(ctx, key, storage.ListOptions{Revision: opts.Revision, Limit: 1}); err != nil {
		return nil, err
	}
	return c.backendWatch(ctx, key, opts)
}

// backendWatch has etcd serve a watch the cache cannot, and ends it when
// the cache stops, as the cache's own watchers end: when the server
// stops, or when the resource stops being served (a custom resource
// whose definition is deleted).
func (c *Cacher) backendWatch(ctx context.Context, key string, opts storage.WatchOptions) (storage.Watcher, error) {
	ctx, cancel := context.WithCancel(ctx)
	unlink := context.AfterFunc(c.life, cancel)
	w, err := c.cfg.Backend.Watch(ctx, key, opts)
	if err != nil {
		unlink()
		cancel()
		return nil, err
	}
	return &backendWatcher{Watcher: w, end: func() { unlink(); cancel() }}, nil
}

// backendWatcher is a watch etcd serves for the cache; stopping it also
// lets go of the cache's life.
type backendWatcher struct {
	storage.Watcher
	end func()
}

func (w *backendWatcher) Stop() {
	w.Watcher.Stop()
	w.end()
}

// RequestProgress asks etcd's watcher for a Progress event, as the
// handler asks any watcher that can send one.
func (w *backendWatcher) RequestProgress() {
	if pr, ok := w.Watcher.(storage.ProgressRequester); ok {
		pr.RequestProgress()
	}
}

var _ storage.ProgressRequester = (*backendWatcher)(nil)

// walkState calls fn with an Added event for each object of items that w
// sees, in key order, until fn returns false.
func walkState(items *btree.BTreeG[*entry], w *cacheWatcher, fn func(storage.Event) bool) {
	ascend(items, w.key, "", func(e *entry) bool {
		if !w.prefix && e.kv.Key != w.key {
			return e.kv.Key < w.key
		}
		if w.pred.Empty() || w.pred.MatchesAttrs(e.attrs) {
			if !fn(storage.Event{Type: storage.Added, Key: e.kv.Key, Value: e.kv.Value, Revision: e.kv.Revision, Memo: e.kv.Memo}) {
				return false
			}
		}
		return w.prefix
	})
}

// bookmarks sends Progress events to watchers that asked for them.
func (c *Cacher) bookmarks(ctx context.Context) {
	tick := time.NewTicker(min(c.cfg.BookmarkInterval, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			c.mu.Lock()
			for w := range c.watchers {
				if w.bookmarks && now.Sub(w.lastBookmark) >= c.cfg.BookmarkInterval {
					c.bookmarkLocked(w, now)
				}
			}
			c.mu.Unlock()
		}
	}
}

// bookmarkLocked queues a Progress event for w if there is room; a full
// buffer means events are flowing anyway.
func (c *Cacher) bookmarkLocked(w *cacheWatcher, now time.Time) {
	if w.terminated {
		return
	}
	// Every change up to the cache's revision has been queued, and none up
	// to where the watch started was wanted: both are true bookmarks.
	if w.in.push(storage.Event{Type: storage.Progress, Revision: max(c.rev, w.minRev)}) {
		w.lastBookmark = now
	}
}
