package storage

import "sync"

// Memo holds renderings of one stored object version (its JSON, its
// protobuf, per served version), made once and shared by every reader of
// that version: all watchers of an event, all lists of a cached object. The
// watch cache attaches one to each object version it holds; KVs read from
// etcd have none.
type Memo struct {
	mu sync.Mutex
	// mu guards m.
	m map[string][]byte
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
