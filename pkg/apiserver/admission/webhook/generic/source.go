package generic

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// Source reads the webhooks of one configuration kind from its store. Each
// call lists the configurations from the watch cache (resourceVersion 0),
// so a change is seen within the cache's lag of etcd; the hooks of a
// configuration are rebuilt only when its resourceVersion changes, and a
// configuration is decoded once per version (List.SharedObjects).
type Source struct {
	store *registry.Store
	hooks func(meta.Object) ([]Hook, error)
	// mu guards cache.
	mu    sync.Mutex
	cache map[string]cachedConfig
}

type cachedConfig struct {
	resourceVersion string
	hooks           []Hook
}

// NewSource reads configurations from store; hooks extracts a configuration's webhooks.
func NewSource(store *registry.Store, hooks func(meta.Object) ([]Hook, error)) *Source {
	return &Source{store: store, hooks: hooks, cache: map[string]cachedConfig{}}
}

// Hooks returns every webhook, configurations in name order, each
// configuration's webhooks in their order.
func (s *Source) Hooks(ctx context.Context) ([]Hook, error) {
	l, err := s.store.ListCached(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("list webhook configurations: %w", err)
	}
	if l.Len() == 0 {
		return nil, nil
	}
	objs, err := l.SharedObjects()
	if err != nil {
		return nil, fmt.Errorf("decode webhook configurations: %w", err)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].GetObjectMeta().Name < objs[j].GetObjectMeta().Name })
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := make(map[string]bool, len(objs))
	var out []Hook
	for _, o := range objs {
		m := o.GetObjectMeta()
		seen[m.Name] = true
		c, ok := s.cache[m.Name]
		if !ok || c.resourceVersion != m.ResourceVersion {
			hs, err := s.hooks(o)
			if err != nil {
				return nil, err
			}
			c = cachedConfig{resourceVersion: m.ResourceVersion, hooks: hs}
			s.cache[m.Name] = c
		}
		out = append(out, c.hooks...)
	}
	for name := range s.cache {
		if !seen[name] {
			delete(s.cache, name)
		}
	}
	return out, nil
}
