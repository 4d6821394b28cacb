package workqueue

import (
	"container/heap"
	"sync"
	"time"
)

// delayed is an item waiting in the delay heap.
type delayed[T comparable] struct {
	item    T
	readyAt time.Time
	seq     uint64 // breaks ties so equal ready times keep AddAfter order
	index   int
}

// delayHeap orders delayed items by readyAt; it implements heap.Interface.
type delayHeap[T comparable] []*delayed[T]

func (h delayHeap[T]) Len() int { return len(h) }
func (h delayHeap[T]) Less(i, j int) bool {
	if !h[i].readyAt.Equal(h[j].readyAt) {
		return h[i].readyAt.Before(h[j].readyAt)
	}
	return h[i].seq < h[j].seq
}
func (h delayHeap[T]) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (h *delayHeap[T]) Push(x any) {
	d := x.(*delayed[T])
	d.index = len(*h)
	*h = append(*h, d)
}

func (h *delayHeap[T]) Pop() any {
	old := *h
	n := len(old)
	d := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	return d
}

// delayState holds the items added with a delay. Its mutex is never held
// while the queue mutex is taken.
type delayState[T comparable] struct {
	mu      sync.Mutex
	heap    delayHeap[T]
	waiting map[T]*delayed[T]
	seq     uint64
	started bool
	wake    chan struct{}
}

func newDelayState[T comparable]() delayState[T] {
	return delayState[T]{
		waiting: make(map[T]*delayed[T]),
		wake:    make(chan struct{}, 1),
	}
}

// AddAfter adds item once d has elapsed on the queue's clock. A
// non-positive d adds immediately. If item is already waiting, the earlier
// of the two ready times wins. Pending items are dropped on shutdown.
func (q *Queue[T]) AddAfter(item T, d time.Duration) {
	if q.ShuttingDown() {
		return
	}
	q.metrics.retry()
	if d <= 0 {
		q.Add(item)
		return
	}
	readyAt := q.clock.Now().Add(d)
	s := &q.delay
	s.mu.Lock()
	if e, ok := s.waiting[item]; ok {
		if readyAt.Before(e.readyAt) {
			e.readyAt = readyAt
			heap.Fix(&s.heap, e.index)
		}
	} else {
		s.seq++
		e := &delayed[T]{item: item, readyAt: readyAt, seq: s.seq}
		heap.Push(&s.heap, e)
		s.waiting[item] = e
	}
	if !s.started {
		s.started = true
		go q.delayLoop()
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// delayLoop moves ready items into the queue until the queue stops.
func (q *Queue[T]) delayLoop() {
	var timer Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		next, pending := q.releaseReady()
		if timer != nil {
			timer.Stop()
			timer = nil
		}
		var fired <-chan time.Time
		if pending {
			timer = q.clock.NewTimer(next.Sub(q.clock.Now()))
			fired = timer.C()
		}
		select {
		case <-q.stopCh:
			return
		case <-fired:
		case <-q.delay.wake:
		}
	}
}

// releaseReady adds every item whose time has come, earliest first, and
// returns the ready time of the next pending item, if any.
func (q *Queue[T]) releaseReady() (next time.Time, pending bool) {
	s := &q.delay
	s.mu.Lock()
	now := q.clock.Now()
	var ready []T
	for len(s.heap) > 0 && !s.heap[0].readyAt.After(now) {
		e := heap.Pop(&s.heap).(*delayed[T])
		delete(s.waiting, e.item)
		ready = append(ready, e.item)
	}
	if len(s.heap) > 0 {
		next, pending = s.heap[0].readyAt, true
	}
	s.mu.Unlock()
	for _, item := range ready {
		q.Add(item)
	}
	return next, pending
}
