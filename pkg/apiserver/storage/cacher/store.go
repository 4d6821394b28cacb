package cacher

import (
	"context"
	"time"

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
	rev, err := c.cfg.Backend.CurrentRevision(ctx)
	if err != nil {
		return 0, err
	}
	if ok, err := c.freshOrWait(ctx, rev, freshnessTimeout); err != nil {
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

// List implements storage.Interface. A snapshot read (Revision set, as a
// continue token asks) goes to the backend; every other list is served from
// the cache once it is fresh enough: a consistent list waits for etcd's
// current revision, a list with MinRevision for that one, and a list with
// neither is served at once. A limit is honoured; the next chunk of such a
// list reads the backend at the cache's revision, so it is one snapshot.
func (c *Cacher) List(ctx context.Context, prefix string, opts storage.ListOptions) (storage.ListResult, error) {
	if opts.Revision > 0 {
		return c.cfg.Backend.List(ctx, prefix, opts)
	}
	want := max(opts.MinRevision, 1)
	if opts.Consistent {
		rev, err := c.cfg.Backend.CurrentRevision(ctx)
		if err != nil {
			return storage.ListResult{}, err
		}
		want = max(want, rev)
		if ok, err := c.freshOrWait(ctx, want, freshnessTimeout); err != nil {
			return storage.ListResult{}, err
		} else if !ok {
			return c.cfg.Backend.List(ctx, prefix, opts)
		}
	}
	if err := c.waitFresh(ctx, want, freshnessTimeout); err != nil {
		return storage.ListResult{}, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	res := storage.ListResult{Revision: c.rev, Remaining: -1}
	c.ascendLocked(prefix, opts.StartKey, func(e *entry) bool {
		if !opts.Predicate.Empty() && !opts.Predicate.MatchesAttrs(e.attrs) {
			return true
		}
		if opts.Limit > 0 && int64(len(res.Items)) == opts.Limit {
			res.More = true
			return false
		}
		res.Items = append(res.Items, e.kv)
		return true
	})
	if res.More {
		res.NextKey = res.Items[len(res.Items)-1].Key + "\x00"
		if opts.Predicate.Empty() {
			c.ascendLocked(prefix, res.NextKey, func(*entry) bool { res.Remaining++; return true })
			res.Remaining++ // from -1
		}
	} else if opts.Predicate.Empty() {
		res.Remaining = 0
	}
	return res, nil
}
