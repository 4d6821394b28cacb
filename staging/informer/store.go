package informer

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

// NamespaceIndex is the name of the built-in index by metadata.namespace.
// Cluster-scoped objects are filed under "".
const NamespaceIndex = "namespace"

// IndexFunc returns the values under which obj is filed in one index. It
// must depend only on obj.
type IndexFunc[T Object] func(obj T) []string

// Indexers maps index names to their functions.
type Indexers[T Object] map[string]IndexFunc[T]

// index maps an index value to the set of keys filed under it.
type index map[string]map[string]struct{}

func (ix index) add(value, key string) {
	keys := ix[value]
	if keys == nil {
		keys = make(map[string]struct{})
		ix[value] = keys
	}
	keys[key] = struct{}{}
}

func (ix index) remove(value, key string) {
	keys := ix[value]
	delete(keys, key)
	if len(keys) == 0 {
		delete(ix, value)
	}
}

// Store is a thread-safe cache of objects keyed by Key, with named indexes.
// The zero value is not usable; create it with NewStore. Store implements
// Sink, so a Reflector can fill it directly.
type Store[T Object] struct {
	mu       sync.RWMutex
	items    map[string]T
	indexers Indexers[T]
	indices  map[string]index
	rv       string
}

// NewStore returns an empty store with the namespace index.
func NewStore[T Object]() *Store[T] {
	return &Store[T]{
		items:    make(map[string]T),
		indexers: Indexers[T]{NamespaceIndex: namespaceOf[T]},
		indices:  map[string]index{NamespaceIndex: {}},
	}
}

func namespaceOf[T Object](obj T) []string {
	return []string{obj.GetObjectMeta().Namespace}
}

// AddIndexers adds indexes and files every cached object in them. A name
// already in use is an error and nothing is added.
func (s *Store[T]) AddIndexers(indexers Indexers[T]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name := range indexers {
		if _, ok := s.indexers[name]; ok {
			return fmt.Errorf("informer: index %q already exists", name)
		}
	}
	for name, fn := range indexers {
		s.indexers[name] = fn
		ix := index{}
		for key, obj := range s.items {
			for _, v := range fn(obj) {
				ix.add(v, key)
			}
		}
		s.indices[name] = ix
	}
	return nil
}

// Add stores obj under its key, replacing any previous object.
func (s *Store[T]) Add(obj T) {
	if isNil(obj) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.put(Key(obj), obj)
}

// Update is Add: the store does not distinguish them.
func (s *Store[T]) Update(obj T) { s.Add(obj) }

// Delete removes the object with obj's key, if any.
func (s *Store[T]) Delete(obj T) {
	if isNil(obj) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.remove(Key(obj))
}

// Replace makes items the whole content of the store and records the
// resourceVersion they were listed at.
func (s *Store[T]) Replace(items []T, resourceVersion string) {
	s.swap(items, resourceVersion)
}

// Get returns the object stored under key.
func (s *Store[T]) Get(key string) (T, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	obj, ok := s.items[key]
	return obj, ok
}

// List returns every object, in no particular order.
func (s *Store[T]) List() []T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]T, 0, len(s.items))
	for _, obj := range s.items {
		out = append(out, obj)
	}
	return out
}

// ListKeys returns every key, in no particular order.
func (s *Store[T]) ListKeys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.items))
	for key := range s.items {
		out = append(out, key)
	}
	return out
}

// Len returns the number of objects.
func (s *Store[T]) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.items)
}

// ResourceVersion returns the resourceVersion of the last Replace.
func (s *Store[T]) ResourceVersion() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rv
}

// ByIndex returns the objects filed under value in the named index, in no
// particular order. An unknown index is an error.
func (s *Store[T]) ByIndex(name, value string) ([]T, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix, ok := s.indices[name]
	if !ok {
		return nil, fmt.Errorf("informer: no index named %q", name)
	}
	keys := ix[value]
	out := make([]T, 0, len(keys))
	for key := range keys {
		out = append(out, s.items[key])
	}
	return out, nil
}

// put stores obj under key and refiles it; it returns the object it replaced.
// The caller holds mu.
func (s *Store[T]) put(key string, obj T) (old T, existed bool) {
	old, existed = s.items[key]
	s.items[key] = obj
	for name, fn := range s.indexers {
		var before []string
		if existed {
			before = fn(old)
		}
		after := fn(obj)
		if existed && slices.Equal(before, after) {
			continue
		}
		ix := s.indices[name]
		for _, v := range before {
			ix.remove(v, key)
		}
		for _, v := range after {
			ix.add(v, key)
		}
	}
	return old, existed
}

// remove deletes key and unfiles its object. The caller holds mu.
func (s *Store[T]) remove(key string) (old T, existed bool) {
	old, existed = s.items[key]
	if !existed {
		return old, false
	}
	delete(s.items, key)
	for name, fn := range s.indexers {
		ix := s.indices[name]
		for _, v := range fn(old) {
			ix.remove(v, key)
		}
	}
	return old, true
}

// swap installs items as the new content, rebuilding every index, and
// returns the previous content.
func (s *Store[T]) swap(items []T, rv string) map[string]T {
	next := make(map[string]T, len(items))
	indices := make(map[string]index, len(s.indexers))
	s.mu.RLock()
	indexers := maps.Clone(s.indexers)
	s.mu.RUnlock()
	for name := range indexers {
		indices[name] = index{}
	}
	for _, obj := range items {
		if isNil(obj) {
			continue
		}
		key := Key(obj)
		if prev, dup := next[key]; dup {
			unfile(indices, indexers, key, prev)
		}
		next[key] = obj
		for name, fn := range indexers {
			for _, v := range fn(obj) {
				indices[name].add(v, key)
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, fn := range s.indexers {
		if _, built := indices[name]; !built { // added while we were building
			indices[name] = index{}
			for key, obj := range next {
				for _, v := range fn(obj) {
					indices[name].add(v, key)
				}
			}
		}
	}
	prev := s.items
	s.items, s.indices, s.rv = next, indices, rv
	return prev
}

func unfile[T Object](indices map[string]index, indexers Indexers[T], key string, obj T) {
	for name, fn := range indexers {
		for _, v := range fn(obj) {
			indices[name].remove(v, key)
		}
	}
}

// upsert is Add that also returns the object it replaced.
func (s *Store[T]) upsert(obj T) (old T, existed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.put(Key(obj), obj)
}

// drop removes key and returns the object it held.
func (s *Store[T]) drop(key string) (old T, existed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.remove(key)
}
