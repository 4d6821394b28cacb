package registry

import (
	"context"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/storage"
)

// Fence returns a storage.Fence on the object ns/name of this store: check
// is given the object as stored when the write is made (nil when absent)
// and refuses the write with its error.
// When the store is cached, the cached object is checked first, which
// spares a read of etcd per write while the cache is current.
func (s *Store) Fence(ns, name string, check func(obj meta.Object) error) storage.Fence {
	key := s.key(ns, name)
	f := storage.Fence{Key: key, Check: func(kv storage.KV) error {
		if kv.Value == nil {
			return check(nil)
		}
		obj, err := s.decode(context.Background(), kv)
		if err != nil {
			return err
		}
		return check(obj)
	}}
	if c, ok := s.storage.(cachedGetter); ok {
		f.Guess = func() (storage.KV, bool) { return c.GetCached(key) }
	}
	return f
}

// cachedGetter is a storage that can tell a key's cached state.
type cachedGetter interface {
	GetCached(key string) (storage.KV, bool)
}
