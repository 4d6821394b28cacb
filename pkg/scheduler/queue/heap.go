package queue

import (
	"container/heap"

	"platform.io/platform/pkg/scheduler/framework"
)

// podHeap is a heap of queued pods keyed by namespace/name.
type podHeap struct {
	items []*framework.QueuedPodInfo
	index map[string]int
	less  func(a, b *framework.QueuedPodInfo) bool
}

func newPodHeap(less func(a, b *framework.QueuedPodInfo) bool) *podHeap {
	return &podHeap{index: map[string]int{}, less: less}
}

func (h *podHeap) Len() int           { return len(h.items) }
func (h *podHeap) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h *podHeap) Swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.index[key(h.items[i].Pod)] = i
	h.index[key(h.items[j].Pod)] = j
}

func (h *podHeap) Push(x any) {
	p := x.(*framework.QueuedPodInfo)
	h.index[key(p.Pod)] = len(h.items)
	h.items = append(h.items, p)
}

func (h *podHeap) Pop() any {
	n := len(h.items) - 1
	p := h.items[n]
	h.items[n] = nil
	h.items = h.items[:n]
	delete(h.index, key(p.Pod))
	return p
}

// add inserts p or replaces the entry with p's key.
func (h *podHeap) add(p *framework.QueuedPodInfo) {
	if i, ok := h.index[key(p.Pod)]; ok {
		h.items[i] = p
		heap.Fix(h, i)
		return
	}
	heap.Push(h, p)
}

// get returns the entry with k.
func (h *podHeap) get(k string) (*framework.QueuedPodInfo, bool) {
	i, ok := h.index[k]
	if !ok {
		return nil, false
	}
	return h.items[i], true
}

// remove deletes the entry with k, if present.
func (h *podHeap) remove(k string) (*framework.QueuedPodInfo, bool) {
	i, ok := h.index[k]
	if !ok {
		return nil, false
	}
	return heap.Remove(h, i).(*framework.QueuedPodInfo), true
}

// peek returns the top entry or nil.
func (h *podHeap) peek() *framework.QueuedPodInfo {
	if len(h.items) == 0 {
		return nil
	}
	return h.items[0]
}

// pop removes and returns the top entry or nil.
func (h *podHeap) pop() *framework.QueuedPodInfo {
	if len(h.items) == 0 {
		return nil
	}
	return heap.Pop(h).(*framework.QueuedPodInfo)
}
