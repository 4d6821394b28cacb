package record

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	corev1 "platform.io/client/api/core/v1"
)

// Broadcaster hands the events of its Recorders to every sink and watcher
// started on it, each through a bounded queue of its own. It is safe for
// concurrent use.
type Broadcaster struct {
	opts  Options
	names namer

	mu       sync.RWMutex
	closed   bool
	watchers map[*watcher]struct{}
	running  sync.WaitGroup

	dropped, filtered, failed, invalid atomic.Int64
}

// watcher is one consumer: a queue and the goroutine that drains it.
type watcher struct {
	queue chan *corev1.Event
	abort context.CancelFunc
}

// Stats counts the events that did not make it.
type Stats struct {
	// Dropped counts deliveries discarded because a sink's queue was full,
	// no sink was started, or the Broadcaster was shut down.
	Dropped int64
	// Filtered counts events the spam filter discarded.
	Filtered int64
	// Failed counts events given up after failed writes.
	Failed int64
	// Invalid counts events the Recorder rejected (bad type or object).
	Invalid int64
}

// NewBroadcaster returns a Broadcaster tuned by opts.
func NewBroadcaster(opts Options) *Broadcaster {
	return &Broadcaster{opts: opts.withDefaults(), watchers: map[*watcher]struct{}{}}
}

// Stats returns the counts so far.
func (b *Broadcaster) Stats() Stats {
	return Stats{
		Dropped:  b.dropped.Load(),
		Filtered: b.filtered.Load(),
		Failed:   b.failed.Load(),
		Invalid:  b.invalid.Load(),
	}
}

// StartRecordingToSink writes every event recorded from now on to sink,
// after the spam filter, aggregation and correlation, until ctx is done or
// Shutdown has flushed the queue. It returns at once; after Shutdown it
// does nothing.
func (b *Broadcaster) StartRecordingToSink(ctx context.Context, sink Sink) {
	w := &sinkWriter{opts: b.opts, sink: sink, corr: newCorrelator(b.opts, &b.names), b: b}
	b.start(ctx, w.record)
}

// StartEventWatcher calls handle with every event recorded from now on,
// as recorded (before any filtering), one at a time on a goroutine of its
// own, until ctx is done or Shutdown has flushed the queue. handle owns the
// event it is given.
func (b *Broadcaster) StartEventWatcher(ctx context.Context, handle func(*corev1.Event)) {
	b.start(ctx, func(_ context.Context, ev *corev1.Event) { handle(ev) })
}

// start adds a watcher running handle.
func (b *Broadcaster) start(ctx context.Context, handle func(context.Context, *corev1.Event)) {
	ctx, cancel := context.WithCancel(ctx)
	w := &watcher{queue: make(chan *corev1.Event, b.opts.QueueLength), abort: cancel}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		cancel()
		return
	}
	b.watchers[w] = struct{}{}
	b.running.Add(1)
	go b.run(ctx, w, handle)
}

// run drains w's queue until it is closed or ctx is done.
func (b *Broadcaster) run(ctx context.Context, w *watcher, handle func(context.Context, *corev1.Event)) {
	defer b.running.Done()
	defer w.abort()
	defer b.remove(w)
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.queue:
			if !ok || ctx.Err() != nil {
				return
			}
			handle(ctx, ev)
		}
	}
}

// remove forgets w.
func (b *Broadcaster) remove(w *watcher) {
	b.mu.Lock()
	delete(b.watchers, w)
	b.mu.Unlock()
}

// deliver offers ev to every watcher without waiting; each gets a copy.
func (b *Broadcaster) deliver(ev *corev1.Event) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed || len(b.watchers) == 0 {
		b.dropped.Add(1)
		return
	}
	for w := range b.watchers {
		select {
		case w.queue <- copyEvent(ev):
		default:
			b.dropped.Add(1)
		}
	}
}

// Shutdown stops taking events and waits until every sink and watcher has
// handled what was queued. If ctx is done first, it cancels the work still
// running (a sink call ends when the sink honours its context) and returns
// ctx's error at once. Calling it again waits again.
func (b *Broadcaster) Shutdown(ctx context.Context) error {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		for w := range b.watchers {
			close(w.queue)
		}
	}
	b.mu.Unlock()
	done := make(chan struct{})
	go func() {
		b.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	b.mu.RLock()
	for w := range b.watchers {
		w.abort()
	}
	b.mu.RUnlock()
	return ctx.Err()
}

// copyEvent copies ev and its annotations.
func copyEvent(ev *corev1.Event) *corev1.Event {
	cp := *ev
	cp.Annotations = maps.Clone(ev.Annotations)
	return &cp
}

// namer makes event names unique within a Broadcaster.
type namer struct {
	last atomic.Int64
}

// name returns "<object>.<hex>", the hex being t in nanoseconds, or one
// more than the last suffix handed out if that is not later.
func (n *namer) name(object string, t time.Time) string {
	for {
		prev := n.last.Load()
		next := max(t.UnixNano(), prev+1)
		if n.last.CompareAndSwap(prev, next) {
			return fmt.Sprintf("%s.%x", object, next)
		}
	}
}
