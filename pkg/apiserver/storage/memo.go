package storage

import "sync"

// Memo holds renderings of one stored object version (its JSON, its
// protobuf, per served version), made once and shared by every reader of
// that version: all watchers of an event, all lists of a cached object. The
// watch cache attaches one to each object version it holds; KVs read from
// etcd have none.
type Memo struct {
	mu sync.Mutex
	// mu guards m and values.
	m      map[string][]byte
	values map[string]any
}

// NewMemo returns an empty memo.
func NewMemo() *Memo { return &Memo{} }

// Get returns the rendering stored under key, or calls render, stores its
// result and returns it. Concurrent first readers may both render; one
// result is kept.
func (m *Memo) Get(key string, render func() ([]byte, error)) ([]byte, error) {
	if m == nil {
		return render()
	}
	m.mu.Lock()
	b, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := render()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string][]byte{}
	}
	if prev, ok := m.m[key]; ok {
		return prev, nil
	}
	m.m[key] = b
	return b, nil
}

// Value is Get for a decoded form of the version (an object a reader
// shares and must not change), stored apart from the renderings.
func (m *Memo) Value(key string, make func() (any, error)) (any, error) {
	if m == nil {
		return make()
	}
	m.mu.Lock()
	v, ok := m.values[key]
	m.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := make()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.values == nil {
		m.values = map[string]any{}
	}
	if prev, ok := m.values[key]; ok {
		return prev, nil
	}
	m.values[key] = v
	return v, nil
}
