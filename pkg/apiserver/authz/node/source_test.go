package node

import (
	"sync"

	corev1 "platform.io/client/api/core/v1"
)

// testSource is a PodSource the test drives: it remembers the pods it was
// given, hands them to a handler that registers late, as a list does, and
// forwards each change; relist replaces them all.
type testSource struct {
	mu       sync.Mutex // mu guards handlers and pods
	handlers []PodHandler
	pods     map[[2]string]*corev1.Pod
}

var _ PodSource = (*testSource)(nil)

func newTestSource() *testSource { return &testSource{pods: map[[2]string]*corev1.Pod{}} }

func (s *testSource) AddPodHandler(h PodHandler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers = append(s.handlers, h)
	h.PodsReplaced(s.listLocked())
}

func (s *testSource) listLocked() []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range s.pods {
		out = append(out, p)
	}
	return out
}

// relist replaces the source's pods, as a list after a broken watch does:
// handlers learn of changes they missed only through the list.
func (s *testSource) relist(pods ...*corev1.Pod) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pods = map[[2]string]*corev1.Pod{}
	for _, p := range pods {
		s.pods[[2]string{p.Namespace, p.Name}] = p
	}
	for _, h := range s.handlers {
		h.PodsReplaced(s.listLocked())
	}
}

func (s *testSource) upsert(p *corev1.Pod) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pods[[2]string{p.Namespace, p.Name}] = p
	for _, h := range s.handlers {
		h.PodUpserted(p)
	}
}

func (s *testSource) delete(ns, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pods, [2]string{ns, name})
	for _, h := range s.handlers {
		h.PodDeleted(ns, name)
	}
}
