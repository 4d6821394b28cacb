package runtime

import (
	"fmt"
	"sync"
	"time"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/scheduler/framework"
)

// maxPermitTimeout caps a permit plugin's wait, as upstream's.
const maxPermitTimeout = 15 * time.Minute

// WaitingPod is a pod that permit plugins hold; each of them must Allow it
// before its timeout, and any of them may Reject it.
type WaitingPod struct {
	mu      sync.Mutex
	pending map[string]*time.Timer // mu guards pending and done
	done    bool
	result  chan *framework.Status
}

func newWaitingPod(timeouts map[string]time.Duration) *WaitingPod {
	w := &WaitingPod{pending: map[string]*time.Timer{}, result: make(chan *framework.Status, 1)}
	w.mu.Lock()
	defer w.mu.Unlock()
	for name, d := range timeouts {
		w.pending[name] = time.AfterFunc(d, func() {
			w.Reject(name, fmt.Sprintf("rejected due to timeout after waiting %v at plugin %s", d, name))
		})
	}
	return w
}

// Allow records plugin's approval; the last approval lets the pod bind.
func (w *WaitingPod) Allow(plugin string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if t, ok := w.pending[plugin]; ok {
		t.Stop()
		delete(w.pending, plugin)
	}
	if len(w.pending) == 0 && !w.done {
		w.done = true
		w.result <- nil
	}
}

// Reject fails the pod's binding with msg.
func (w *WaitingPod) Reject(plugin, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.done = true
	for _, t := range w.pending {
		t.Stop()
	}
	w.result <- framework.NewStatus(framework.Unschedulable, msg).WithPlugin(plugin)
}

// PendingPlugins names the plugins that have not allowed the pod yet.
func (w *WaitingPod) PendingPlugins() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.pending))
	for name := range w.pending {
		out = append(out, name)
	}
	return out
}

type waitingPods struct {
	mu   sync.RWMutex
	pods map[meta.UID]*WaitingPod // mu guards pods
}

func newWaitingPods() *waitingPods { return &waitingPods{pods: map[meta.UID]*WaitingPod{}} }

func (w *waitingPods) add(uid meta.UID, wp *WaitingPod) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pods[uid] = wp
}

func (w *waitingPods) remove(uid meta.UID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.pods, uid)
}

func (w *waitingPods) get(uid meta.UID) *WaitingPod {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.pods[uid]
}

// GetWaitingPod returns the pod permit plugins hold, nil if none; permit
// plugins reach it through the handle to Allow or Reject it.
func (f *Framework) GetWaitingPod(uid meta.UID) *WaitingPod { return f.waiting.get(uid) }

// RejectWaitingPod rejects a held pod (it was deleted, say); it reports
// whether there was one.
func (f *Framework) RejectWaitingPod(uid meta.UID, msg string) bool {
	wp := f.waiting.get(uid)
	if wp == nil {
		return false
	}
	wp.Reject("", msg)
	return true
}
