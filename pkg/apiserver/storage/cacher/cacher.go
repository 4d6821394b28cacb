package cacher

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/btree"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/storage"
)

// Backend is the store the cache decorates (etcd3.Store).
type Backend interface {
	storage.Interface
	storage.Watchable
	GuaranteedUpdateFrom(ctx context.Context, key string, ttl int64, guess *storage.KV, tryUpdate storage.UpdateFunc) (storage.KV, error)
	RequestProgress(ctx context.Context) error
}

// Config configures one resource's cache.
type Config struct {
	Backend Backend
	// Prefix is the key prefix of the resource, ending in "/".
	Prefix string
	// Attrs computes selector attributes of a stored value.
	Attrs storage.AttrFunc
	// Capacity is how many recent events the window keeps.
	Capacity int
	// BookmarkInterval is how often watchers that asked for them get a
	// Progress event; 0 means one minute.
	BookmarkInterval time.Duration
	// Metrics receives the cache's metrics; nil skips them.
	Metrics *Metrics
	// Resource names the resource in logs and metrics.
	Resource string
	// TrustProgress says etcd orders progress notifications after pending
	// events (etcd3.Store.ProgressNotifyReliable). Without it the cache
	// ignores them, so it knows it is current only through its own events,
	// and consistent reads it cannot prove fresh go to etcd.
	TrustProgress bool
}

// entry is one cached object.
type entry struct {
	kv    storage.KV
	attrs storage.Attrs
}

func lessEntry(a, b *entry) bool { return a.kv.Key < b.kv.Key }

// event is one change kept in the window.
type event struct {
	storage.Event
	attrs     storage.Attrs
	prevAttrs storage.Attrs
	hasPrev   bool
}

// Cacher is the watch cache of one resource. It implements storage.Interface
// and storage.Watchable.
type Cacher struct {
	cfg Config
	lg  *zap.Logger

	mu   sync.RWMutex
	cond *sync.Cond // broadcast when rev moves or the cache (re)starts
	// rev is the revision the cache reflects; 0 until the first list.
	rev   int64
	items *btree.BTreeG[*entry]
	// window holds the most recent events, oldest first.
	window []*event
	// oldest is the lowest revision a watch may start from: every change
	// after it is in the window.
	oldest   int64
	watchers map[*cacheWatcher]struct{}
	// snapshots are copy-on-write clones of items at the revisions of
	// recent chunked lists, so the next chunks come from memory too.
	snapshots []snapshot
	// progress asks etcd for progress while reads wait for the cache.
	asker *progressRequester
	// life ends when Run returns, ending the watches etcd serves for the
	// cache (backendWatch) as the cache's own watchers end.
	life    context.Context
	endLife context.CancelFunc
}

// snapshot is items as of one revision.
type snapshot struct {
	rev   int64
	items *btree.BTreeG[*entry]
	taken time.Time
}

// Snapshot limits: how many are kept and for how long.
const (
	maxSnapshots = 16
	snapshotTTL  = 90 * time.Second
)

var (
	_ storage.Interface = (*Cacher)(nil)
	_ storage.Watchable = (*Cacher)(nil)
)

// New returns a cache; Run fills and maintains it.
func New(lg *zap.Logger, cfg Config) *Cacher {
	if cfg.BookmarkInterval == 0 {
		cfg.BookmarkInterval = time.Minute
	}
	if cfg.Capacity <= 0 {
		cfg.Capacity = 100
	}
	c := &Cacher{cfg: cfg, lg: lg, items: btree.NewG(32, lessEntry), watchers: map[*cacheWatcher]struct{}{}}
	c.cond = sync.NewCond(&c.mu)
	c.asker = &progressRequester{request: cfg.Backend.RequestProgress, interval: progressInterval}
	c.life, c.endLife = context.WithCancel(context.Background())
	return c
}

// Run lists and watches until ctx ends, relisting after any watch failure.
func (c *Cacher) Run(ctx context.Context) {
	go c.bookmarks(ctx)
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		err := c.listAndWatch(ctx)
		if ctx.Err() != nil {
			break
		}
		c.lg.Info("watch cache restarting", zap.String("resource", c.cfg.Resource), zap.Error(err))
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
	c.mu.Lock()
	c.terminateAllLocked()
	c.cond.Broadcast()
	c.mu.Unlock()
	c.endLife()
}

// listAndWatch fills the cache from a list, then applies the watch from the
// list's revision until it fails.
func (c *Cacher) listAndWatch(ctx context.Context) error {
	items := btree.NewG(32, lessEntry)
	lo := storage.ListOptions{Limit: 10000}
	var rev int64
	for {
		res, err := c.cfg.Backend.List(ctx, c.cfg.Prefix, lo)
		if err != nil {
			return fmt.Errorf("list: %w", err)
		}
		for _, kv := range res.Items {
			attrs, err := c.cfg.Attrs(kv.Key, kv.Value)
			if err != nil {
				return fmt.Errorf("attributes of %s: %w", kv.Key, err)
			}
			kv.Memo = storage.NewMemo()
			items.ReplaceOrInsert(&entry{kv: kv, attrs: attrs})
		}
		rev = res.Revision
		if !res.More {
			break
		}
		lo.StartKey, lo.Revision = res.NextKey, res.Revision
	}
	w, err := c.cfg.Backend.Watch(ctx, c.cfg.Prefix, storage.WatchOptions{Revision: rev, Prefix: true, ProgressNotify: true, NoPrevious: true})
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer w.Stop()
	c.replace(items, rev)
	for e := range w.ResultChan() {
		switch e.Type {
		case storage.Error:
			return e.Err
		case storage.Progress:
			if c.cfg.TrustProgress {
				c.progress(e.Revision)
			}
		default:
			if err := c.apply(e); err != nil {
				return err
			}
		}
	}
	return errors.New("watch closed")
}

// replace installs a fresh list. Watchers of the old state may have missed
// changes, so they are stopped and resume from their last revision.
func (c *Cacher) replace(items *btree.BTreeG[*entry], rev int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.terminateAllLocked()
	c.items, c.rev, c.oldest, c.window, c.snapshots = items, rev, rev, nil, nil
	c.cfg.Metrics.size(c.cfg.Resource, items.Len())
	c.cond.Broadcast()
}

func (c *Cacher) progress(rev int64) {
	c.mu.Lock()
	if rev > c.rev {
		c.rev = rev
		c.cond.Broadcast()
	}
	c.mu.Unlock()
}

// apply records one change and sends it to the watchers. An added or
// modified object and its event share one memo, as they are one version.
// The previous value of a change, and the last value of a deleted object,
// come from the cache: the watch does not carry them.
func (c *Cacher) apply(e storage.Event) error {
	e.Memo = storage.NewMemo()
	ev := &event{Event: e}
	if e.Type != storage.Deleted {
		attrs, err := c.cfg.Attrs(e.Key, e.Value)
		if err != nil {
			return fmt.Errorf("attributes of %s: %w", e.Key, err)
		}
		ev.attrs = attrs
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old, ok := c.items.Get(&entry{kv: storage.KV{Key: e.Key}})
	if ok {
		ev.prevAttrs, ev.hasPrev = old.attrs, true
		ev.PrevValue = old.kv.Value
	}
	switch e.Type {
	case storage.Deleted:
		if !ok {
			return fmt.Errorf("delete of %s at revision %d, which the cache does not hold", e.Key, e.Revision)
		}
		ev.attrs, ev.Value, ev.PrevValue = ev.prevAttrs, old.kv.Value, nil
		c.items.Delete(&entry{kv: storage.KV{Key: e.Key}})
	default:
		c.items.ReplaceOrInsert(&entry{kv: storage.KV{Key: e.Key, Value: e.Value, Revision: e.Revision, Memo: e.Memo}, attrs: ev.attrs})
	}
	c.window = append(c.window, ev)
	if len(c.window) > c.cfg.Capacity {
		c.oldest = c.window[0].Revision
		c.window[0] = nil
		c.window = c.window[1:]
	}
	c.rev = e.Revision
	c.dispatchLocked(ev)
	c.cfg.Metrics.size(c.cfg.Resource, c.items.Len())
	c.cond.Broadcast()
	return nil
}

// waitFresh blocks until the cache has reached rev, asking etcd for
// progress while it waits, or fails with ErrTooNew after timeout.
func (c *Cacher) waitFresh(ctx context.Context, rev int64, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	c.mu.RLock()
	fresh := c.rev >= rev && c.rev > 0
	c.mu.RUnlock()
	if fresh {
		return nil
	}
	stop := context.AfterFunc(ctx, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer stop()
	timer := time.AfterFunc(timeout, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	if c.cfg.TrustProgress {
		defer c.asker.want()()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.rev < rev || c.rev == 0 {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w: waited %v for revision %d, the cache of %s is at %d", storage.ErrTooNew, timeout, rev, c.cfg.Resource, c.rev)
		}
		c.cond.Wait()
	}
	return nil
}

// freshOrWait waits until the cache has reached rev; when it cannot, the
// caller reads etcd instead (ok false). Without trusted progress
// notifications it waits only briefly: a resource with no recent writes
// never reaches etcd's current revision through its own events.
func (c *Cacher) freshOrWait(ctx context.Context, rev int64, timeout time.Duration) (bool, error) {
	if !c.cfg.TrustProgress {
		timeout = 50 * time.Millisecond
	}
	err := c.waitFresh(ctx, rev, timeout)
	if errors.Is(err, storage.ErrTooNew) {
		return false, nil
	}
	return err == nil, err
}

// Revision returns the revision the cache reflects.
func (c *Cacher) Revision() int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.rev
}

// ascendLocked calls fn for every cached entry with a key under prefix,
// from start (inclusive) on, until fn returns false.
func (c *Cacher) ascendLocked(prefix, start string, fn func(*entry) bool) {
	ascend(c.items, prefix, start, fn)
}

// ascend walks items under prefix from start on, until fn returns false.
func ascend(items *btree.BTreeG[*entry], prefix, start string, fn func(*entry) bool) {
	from := prefix
	if start > from {
		from = start
	}
	items.AscendGreaterOrEqual(&entry{kv: storage.KV{Key: from}}, func(e *entry) bool {
		if !strings.HasPrefix(e.kv.Key, prefix) {
			return false
		}
		return fn(e)
	})
}

// Metrics are the watch cache's Prometheus metrics, shared by all resources.
type Metrics struct {
	events   *prometheus.CounterVec
	watchers *prometheus.GaugeVec
	objects  *prometheus.GaugeVec
	dropped  *prometheus.CounterVec
}

// NewMetrics registers the metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		events: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "watch_cache_events_dispatched_total", Help: "Events sent to watchers by the watch cache, by resource.",
		}, []string{"resource"}),
		watchers: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "watch_cache_watchers", Help: "Watchers served by the watch cache, by resource.",
		}, []string{"resource"}),
		objects: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "watch_cache_objects", Help: "Objects held by the watch cache, by resource.",
		}, []string{"resource"}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "watch_cache_terminated_watchers_total", Help: "Watchers stopped because they fell behind, by resource.",
		}, []string{"resource"}),
	}
	reg.MustRegister(m.events, m.watchers, m.objects, m.dropped)
	return m
}

func (m *Metrics) size(resource string, n int) {
	if m != nil {
		m.objects.WithLabelValues(resource).Set(float64(n))
	}
}

// snapshotLocked keeps a clone of items at the current revision, once.
func (c *Cacher) snapshotLocked(now time.Time) {
	kept := c.snapshots[:0]
	for _, sn := range c.snapshots {
		if now.Sub(sn.taken) < snapshotTTL {
			kept = append(kept, sn)
		}
	}
	c.snapshots = kept
	if n := len(c.snapshots); n > 0 && c.snapshots[n-1].rev == c.rev {
		return
	}
	if len(c.snapshots) == maxSnapshots {
		c.snapshots = c.snapshots[1:]
	}
	c.snapshots = append(c.snapshots, snapshot{rev: c.rev, items: c.items.Clone(), taken: now})
}

// snapshotAt returns the items as of rev, if a snapshot is kept.
func (c *Cacher) snapshotAt(rev int64) (*btree.BTreeG[*entry], bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, sn := range c.snapshots {
		if sn.rev == rev && time.Since(sn.taken) < snapshotTTL {
			return sn.items, true
		}
	}
	return nil, false
}
