package cacher

import (
	"context"
	"time"

	"github.com/google/btree"

	"platform.io/platform/pkg/apiserver/storage"
)

// freshnessTimeout bounds how long a read waits for the cache to catch up.
const freshnessTimeout = 3 * time.Second

// Create implements storage.Interface by writing through to the backend.
func (c *Cacher) Create(ctx context.Context, key string, value []byte, ttl int64) (storage.KV, error) {
	return c.cfg.Backend.Create(ctx, key, value, ttl)
}

// Get implements storage.Interface with a consistent read from the backend.
func (c *Cacher) Get(ctx context.Context, key string) (storage.KV, error) {
	return c.cfg.Backend.Get(ctx, key)
}

// GetCached returns the cached state of key, which may lag behind etcd.
func (c *Cacher) GetCached(key string) (storage.KV, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.items.Get(&entry{kv: storage.KV{Key: key}})
	if !ok {
		return storage.KV{}, false
	}
	return e.kv, true
}

// WaitRevision waits until the cache has reached rev, or fails with
// ErrTooNew after timeout. It never asks etcd for more than the cache's own
// events when rev is the revision of a change to this resource.
func (c *Cacher) WaitRevision(ctx context.Context, rev int64, timeout time.Duration) error {
	return c.waitFresh(ctx, max(rev, 1), timeout)
}

// GuaranteedUpdate implements storage.Interface, starting from the cached
// object as a guess of the current state.
func (c *Cacher) GuaranteedUpdate(ctx context.Context, key string, ttl int64, tryUpdate storage.UpdateFunc) (storage.KV, error) {
	var guess *storage.KV
	if kv, ok := c.GetCached(key); ok {
		guess = &kv
	}
	return c.cfg.Backend.GuaranteedUpdateFrom(ctx, key, ttl, guess, tryUpdate)
}

// Delete implements storage.Interface by deleting in the backend.
func (c *Cacher) Delete(ctx context.Context, key string, check func(storage.KV) error) (storage.KV, error) {
	return c.cfg.Backend.Delete(ctx, key, check)
}

// CurrentRevision implements storage.Interface from the backend.
func (c *Cacher) CurrentRevision(ctx context.Context) (int64, error) {
	return c.cfg.Backend.CurrentRevision(ctx)
}

// Count implements storage.Interface from the cache, once it has caught up
// with etcd's current revision.
func (c *Cacher) Count(ctx context.Context, prefix string) (int64, error) {
	if ok, err := c.caughtUp(ctx, 1); err != nil {
		return 0, err
	} else if !ok {
		return c.cfg.Backend.Count(ctx, prefix)
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	var n int64
	c.ascendLocked(prefix, "", func(*entry) bool { n++; return true })
	return n, nil
}

// caughtUp waits until the cache has reached etcd's current revision (and
// at least min); ok false means it cannot show that in time and the caller
// reads etcd instead.
func (c *Cacher) caughtUp(ctx context.Context, min int64) (bool, error) {
	rev, err := c.cfg.Backend.CurrentRevision(ctx)
	if err != nil {
		return false, err
	}
	return c.freshOrWait(ctx, max(min, rev), freshnessTimeout)
}

// List implements storage.Interface. Every list is served from memory once
// the cache is fresh enough: a consistent list waits for etcd's current
// revision, a list with MinRevision for that one, and a list with neither
// is served at once. A chunked list keeps a copy-on-write snapshot of the
// cache, and its next chunks (Revision set by the continue token) come from
// that snapshot; a chunk whose snapshot is gone reads etcd at that revision,
// which is the same state.
func (c *Cacher) List(ctx context.Context, prefix string, opts storage.ListOptions) (storage.ListResult, error) {
	if opts.Revision > 0 {
		items, ok := c.snapshotAt(opts.Revision)
		if !ok {
			return c.cfg.Backend.List(ctx, prefix, opts)
		}
		// The token lives as long as etcd keeps its revision: a one-key read
		// there fails once it is compacted.
		if _, err := c.cfg.Backend.List(ctx, prefix, storage.ListOptions{Revision: opts.Revision, Limit: 1}); err != nil {
			return storage.ListResult{}, err
		}
		return page(items, opts.Revision, prefix, opts), nil
	}
	want := max(opts.MinRevision, 1)
	if opts.Consistent {
		if ok, err := c.caughtUp(ctx, want); err != nil {
			return storage.ListResult{}, err
		} else if !ok {
			return c.cfg.Backend.List(ctx, prefix, opts)
		}
	}
	if err := c.waitFresh(ctx, want, freshnessTimeout); err != nil {
		return storage.ListResult{}, err
	}
	if opts.Limit <= 0 {
		c.mu.RLock()
		defer c.mu.RUnlock()
		return page(c.items, c.rev, prefix, opts), nil
	}
	// Cloning marks the tree copy-on-write, so it takes the write lock.
	c.mu.Lock()
	defer c.mu.Unlock()
	res := page(c.items, c.rev, prefix, opts)
	if res.More {
		c.snapshotLocked(time.Now())
	}
	return res, nil
}

// page reads one chunk of items at revision rev.
func page(items *btree.BTreeG[*entry], rev int64, prefix string, opts storage.ListOptions) storage.ListResult {
	res := storage.ListResult{Revision: rev, Remaining: -1}
	filtered := !opts.Predicate.Empty()
	ascend(items, prefix, opts.StartKey, func(e *entry) bool {
		if filtered && !opts.Predicate.MatchesAttrs(e.attrs) {
			return true
		}
		if opts.Limit > 0 && int64(len(res.Items)) == opts.Limit {
			res.More = true
			return false
		}
		res.Items = append(res.Items, e.kv)
		return true
	})
	switch {
	case res.More:
		res.NextKey = res.Items[len(res.Items)-1].Key + "\x00"
		if !filtered {
			res.Remaining = 0
			ascend(items, prefix, res.NextKey, func(*entry) bool { res.Remaining++; return true })
		}
	case !filtered:
		res.Remaining = 0
	}
	return res
}
