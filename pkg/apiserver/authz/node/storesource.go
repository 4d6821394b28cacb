package node

import (
	"context"
	"sync"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/registry"
)

// StoreSource is the API server's PodSource: a list and watch of its own
// pods store, in process, listing again whenever a watch ends. Handlers
// must be added before Run.
type StoreSource struct {
	lg   *zap.Logger
	pods *registry.Store

	mu       sync.Mutex // mu guards handlers
	handlers []PodHandler

	synced     chan struct{}
	syncedOnce sync.Once
}

var _ PodSource = (*StoreSource)(nil)

// NewStoreSource returns the source over pods, the pods registry store.
func NewStoreSource(lg *zap.Logger, pods *registry.Store) *StoreSource {
	return &StoreSource{lg: lg, pods: pods, synced: make(chan struct{})}
}

// AddPodHandler implements PodSource.
func (s *StoreSource) AddPodHandler(h PodHandler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers = append(s.handlers, h)
}

// HasSynced reports whether the first list has been handed over, for a
// readiness check: until then the Node mode allows nodes nothing.
func (s *StoreSource) HasSynced() bool {
	select {
	case <-s.synced:
		return true
	default:
		return false
	}
}

// Run feeds the handlers until ctx ends.
func (s *StoreSource) Run(ctx context.Context) {
	registry.Follow(ctx, s.lg, s.pods, registry.Follower{
		Replace: func(objs []meta.Object) {
			pods := make([]*corev1.Pod, 0, len(objs))
			for _, o := range objs {
				if p, ok := o.(*corev1.Pod); ok {
					pods = append(pods, p)
				}
			}
			s.each(func(h PodHandler) { h.PodsReplaced(pods) })
			s.syncedOnce.Do(func() { close(s.synced) })
		},
		Apply: func(obj meta.Object, deleted bool) {
			p, ok := obj.(*corev1.Pod)
			switch {
			case !ok:
			case deleted:
				s.each(func(h PodHandler) { h.PodDeleted(p.Namespace, p.Name) })
			default:
				s.each(func(h PodHandler) { h.PodUpserted(p) })
			}
		},
	})
}

func (s *StoreSource) each(f func(PodHandler)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.handlers {
		f(h)
	}
}
