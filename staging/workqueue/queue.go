package workqueue

import (
	"sync"
	"time"
)

// DefaultMetricsUpdatePeriod is how often the in-flight gauges are refreshed
// when Options.MetricsUpdatePeriod is zero.
const DefaultMetricsUpdatePeriod = 500 * time.Millisecond

// Options configures a Queue. The zero value is usable.
type Options[T comparable] struct {
	// Name labels the queue's metrics.
	Name string
	// Clock drives delays, rate limiting and metrics. Defaults to RealClock.
	Clock Clock
	// RateLimiter backs AddRateLimited, Forget and NumRequeues. Defaults to
	// DefaultControllerRateLimiter using Clock.
	RateLimiter RateLimiter[T]
	// MetricsProvider receives the queue's metrics. Nil disables metrics.
	MetricsProvider MetricsProvider
	// MetricsUpdatePeriod is the refresh period of the in-flight gauges.
	MetricsUpdatePeriod time.Duration
}

// Queue is a deduplicating FIFO work queue with delayed and rate-limited
// adds. Create it with NewQueue and release its goroutines with ShutDown or
// ShutDownWithDrain.
type Queue[T comparable] struct {
	clock   Clock
	limiter RateLimiter[T]

	mu           sync.Mutex
	cond         *sync.Cond
	queue        []T
	dirty        map[T]struct{} // items that need processing
	processing   map[T]struct{} // items handed out by Get, not yet Done
	shuttingDown bool
	draining     bool
	metrics      *queueMetrics[T]

	stopOnce sync.Once
	stopCh   chan struct{}
	delay    delayState[T]
}

// NewQueue returns a running queue configured by opts.
func NewQueue[T comparable](opts Options[T]) *Queue[T] {
	if opts.Clock == nil {
		opts.Clock = RealClock{}
	}
	if opts.RateLimiter == nil {
		opts.RateLimiter = defaultControllerRateLimiter[T](opts.Clock)
	}
	if opts.MetricsUpdatePeriod <= 0 {
		opts.MetricsUpdatePeriod = DefaultMetricsUpdatePeriod
	}
	q := &Queue[T]{
		clock:      opts.Clock,
		limiter:    opts.RateLimiter,
		dirty:      make(map[T]struct{}),
		processing: make(map[T]struct{}),
		metrics:    newQueueMetrics[T](opts.Name, opts.MetricsProvider, opts.Clock),
		stopCh:     make(chan struct{}),
		delay:      newDelayState[T](),
	}
	q.cond = sync.NewCond(&q.mu)
	if q.metrics != nil {
		go q.metricsLoop(opts.MetricsUpdatePeriod)
	}
	return q
}

// Add marks item as needing processing. It is a no-op if the item is already
// waiting or the queue is shutting down. If the item is being processed it
// is queued again when Done is called.
func (q *Queue[T]) Add(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if _, ok := q.dirty[item]; ok {
		return
	}
	q.metrics.add(item)
	q.dirty[item] = struct{}{}
	if _, ok := q.processing[item]; ok {
		return
	}
	q.queue = append(q.queue, item)
	q.cond.Signal()
}

// Get blocks until an item is available or the queue is shut down. It
// returns shutdown=true only once the queue is shut down and empty; the
// caller must call Done(item) after processing any item it receives.
func (q *Queue[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if len(q.queue) == 0 {
		var zero T
		return zero, true
	}
	item = q.queue[0]
	var zero T
	q.queue[0] = zero // release the reference held by the backing array
	q.queue = q.queue[1:]
	q.metrics.get(item)
	q.processing[item] = struct{}{}
	delete(q.dirty, item)
	return item, false
}

// Done marks item as processed. If it was added again meanwhile it is
// re-queued now.
func (q *Queue[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.metrics.done(item)
	delete(q.processing, item)
	if _, ok := q.dirty[item]; ok {
		q.queue = append(q.queue, item)
		q.cond.Signal()
		return
	}
	if len(q.processing) == 0 && q.draining {
		q.cond.Broadcast()
	}
}

// Len returns the number of items ready to be handed out. It is
// informational only.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queue)
}

// ShutDown makes the queue ignore new adds, drops pending delayed adds and
// wakes all waiters. Items already queued are still returned by Get. It
// also releases a concurrent ShutDownWithDrain.
func (q *Queue[T]) ShutDown() {
	q.mu.Lock()
	q.shuttingDown = true
	q.draining = false
	q.cond.Broadcast()
	q.mu.Unlock()
	q.stop()
}

// ShutDownWithDrain is ShutDown that additionally blocks until every item
// handed out by Get has been marked Done (or ShutDown is called). Workers
// must keep calling Get/Done until Get reports shutdown.
func (q *Queue[T]) ShutDownWithDrain() {
	q.mu.Lock()
	q.shuttingDown = true
	q.draining = true
	q.cond.Broadcast()
	q.mu.Unlock()
	q.stop()

	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.processing) > 0 && q.draining {
		q.cond.Wait()
	}
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
func (q *Queue[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}

// stop ends the queue's background goroutines.
func (q *Queue[T]) stop() {
	q.stopOnce.Do(func() { close(q.stopCh) })
}

// metricsLoop refreshes the in-flight gauges every period until shutdown.
func (q *Queue[T]) metricsLoop(period time.Duration) {
	for {
		t := q.clock.NewTimer(period)
		select {
		case <-q.stopCh:
			t.Stop()
			return
		case <-t.C():
			q.updateUnfinishedWork()
		}
	}
}

func (q *Queue[T]) updateUnfinishedWork() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.metrics.updateUnfinished()
}
