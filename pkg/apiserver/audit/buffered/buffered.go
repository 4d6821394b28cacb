package buffered

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.uber.org/zap"
	"golang.org/x/time/rate"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/audit"
)

// PluginName names the wrapper in metrics.
const PluginName = "buffered"

// ErrBufferFull is the error counted for an event dropped because the
// buffer was full.
var ErrBufferFull = errors.New("audit buffer queue blocked")

// Config is the batching, as upstream's batch flags set it.
type Config struct {
	BufferSize   int
	MaxBatchSize int
	MaxBatchWait time.Duration
	// ThrottleEnable limits batches to ThrottleQPS per second, with bursts
	// of ThrottleBurst.
	ThrottleEnable bool
	ThrottleQPS    float32
	ThrottleBurst  int
	// AsyncDelegate sends each batch on its own goroutine (the webhook);
	// otherwise the loop sends them in turn (the log file).
	AsyncDelegate bool
}

// Backend buffers events in front of a delegate.
type Backend struct {
	lg       *zap.Logger
	delegate audit.Backend
	cfg      Config
	metrics  *audit.Metrics
	buffer   chan *auditv1.Event
	limiter  *rate.Limiter
	sending  sync.WaitGroup
}

var _ audit.Backend = (*Backend)(nil)

// New wraps delegate.
func New(lg *zap.Logger, delegate audit.Backend, cfg Config, m *audit.Metrics) *Backend {
	b := &Backend{lg: lg, delegate: delegate, cfg: cfg, metrics: m, buffer: make(chan *auditv1.Event, max(cfg.BufferSize, 1))}
	if cfg.ThrottleEnable {
		b.limiter = rate.NewLimiter(rate.Limit(cfg.ThrottleQPS), cfg.ThrottleBurst)
	}
	return b
}

// ProcessEvents queues the events without waiting; those that do not fit
// are dropped and counted. It always reports success: batch mode never
// fails a request.
func (b *Backend) ProcessEvents(events ...*auditv1.Event) bool {
	for i, ev := range events {
		select {
		case b.buffer <- ev:
		default:
			b.metrics.PluginError(b.lg, PluginName, ErrBufferFull, events[i:]...)
			return true
		}
	}
	return true
}

// Run sends batches until ctx ends, then sends what is left in the buffer,
// waits for the batches in flight and stops the delegate.
func (b *Backend) Run(ctx context.Context) {
	dctx, stopDelegate := context.WithCancel(context.WithoutCancel(ctx))
	delegateDone := make(chan struct{})
	go func() {
		defer close(delegateDone)
		b.delegate.Run(dctx)
	}()
	for ctx.Err() == nil {
		if batch := b.collect(ctx); len(batch) > 0 {
			b.send(ctx, batch)
		}
	}
	for {
		batch := b.drain()
		if len(batch) == 0 {
			break
		}
		b.send(ctx, batch)
	}
	b.sending.Wait()
	stopDelegate()
	<-delegateDone
}

// collect waits for a first event, then gathers more until the batch is
// full, MaxBatchWait has passed or ctx ends.
func (b *Backend) collect(ctx context.Context) []*auditv1.Event {
	var batch []*auditv1.Event
	select {
	case ev := <-b.buffer:
		batch = append(batch, ev)
	case <-ctx.Done():
		return nil
	}
	if len(batch) >= b.cfg.MaxBatchSize {
		return batch
	}
	var timeout <-chan time.Time
	if b.cfg.MaxBatchWait > 0 {
		t := time.NewTimer(b.cfg.MaxBatchWait)
		defer t.Stop()
		timeout = t.C
	}
	for len(batch) < b.cfg.MaxBatchSize {
		if timeout == nil {
			// No wait: take what is already queued.
			select {
			case ev := <-b.buffer:
				batch = append(batch, ev)
				continue
			default:
				return batch
			}
		}
		select {
		case ev := <-b.buffer:
			batch = append(batch, ev)
		case <-timeout:
			return batch
		case <-ctx.Done():
			return batch
		}
	}
	return batch
}

// drain takes up to MaxBatchSize queued events without waiting.
func (b *Backend) drain() []*auditv1.Event {
	var batch []*auditv1.Event
	for len(batch) < max(b.cfg.MaxBatchSize, 1) {
		select {
		case ev := <-b.buffer:
			batch = append(batch, ev)
		default:
			return batch
		}
	}
	return batch
}

// send hands a batch to the delegate, first waiting for the throttle
// until ctx ends; the final flush, after ctx ended, is not throttled.
func (b *Backend) send(ctx context.Context, batch []*auditv1.Event) {
	if b.limiter != nil {
		// The wait holds the loop back, so a slow backend fills the buffer
		// and events are dropped rather than requests slowed.
		_ = b.limiter.Wait(ctx)
	}
	if !b.cfg.AsyncDelegate {
		b.delegate.ProcessEvents(batch...)
		return
	}
	b.sending.Go(func() { b.delegate.ProcessEvents(batch...) })
}

func (b *Backend) String() string { return PluginName + "<" + b.delegate.String() + ">" }
