package registry

import (
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/storage"
)

// Fence returns a storage.Fence on the object ns/name of this store: check
// is given the object as stored when the write is made (nil when absent)
// and refuses the write with its error.
func (s *Store) Fence(ns, name string, check func(obj meta.Object) error) storage.Fence {
	return storage.Fence{Key: s.key(ns, name), Check: func(kv storage.KV) error {
		if kv.Value == nil {
			return check(nil)
		}
		obj, err := s.decode(kv)
		if err != nil {
			return err
		}
		return check(obj)
	}}
}
