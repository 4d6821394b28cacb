package node

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/apiserver/storage"
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

// relistDelay is the wait before listing again after a failure.
const relistDelay = time.Second

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
	for ctx.Err() == nil {
		rv, err := s.list(ctx)
		if err == nil {
			s.syncedOnce.Do(func() { close(s.synced) })
			err = s.watch(ctx, rv)
		}
		if err != nil && ctx.Err() == nil {
			s.lg.Info("node authorizer pod feed restarts", zap.Error(err))
			select {
			case <-ctx.Done():
			case <-time.After(relistDelay):
			}
		}
	}
}

func (s *StoreSource) each(f func(PodHandler)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.handlers {
		f(h)
	}
}

// list hands every pod over and returns the list's resourceVersion.
func (s *StoreSource) list(ctx context.Context) (string, error) {
	l, err := s.pods.List(ctx, "", registry.ListOptions{})
	if err != nil {
		return "", fmt.Errorf("list pods: %w", err)
	}
	objs, err := l.Objects()
	if err != nil {
		return "", fmt.Errorf("decode pods: %w", err)
	}
	pods := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			pods = append(pods, p)
		}
	}
	s.each(func(h PodHandler) { h.PodsReplaced(pods) })
	return l.ResourceVersion, nil
}

var errWatchClosed = errors.New("node: pod watch closed")

// watch hands over the changes after rv until the stream ends.
func (s *StoreSource) watch(ctx context.Context, rv string) error {
	w, err := s.pods.Watch(ctx, "", registry.WatchOptions{ResourceVersion: rv})
	if err != nil {
		return fmt.Errorf("watch pods: %w", err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-w.ResultChan():
			if !ok {
				return errWatchClosed
			}
			if e.Type == storage.Error {
				return fmt.Errorf("watch pods: %w", e.Err)
			}
			if e.Type != storage.Added && e.Type != storage.Modified && e.Type != storage.Deleted {
				continue
			}
			obj, err := s.pods.EventObject(e)
			if err != nil {
				return err
			}
			p, ok := obj.(*corev1.Pod)
			if !ok {
				continue
			}
			if e.Type == storage.Deleted {
				s.each(func(h PodHandler) { h.PodDeleted(p.Namespace, p.Name) })
			} else {
				s.each(func(h PodHandler) { h.PodUpserted(p) })
			}
		}
	}
}
