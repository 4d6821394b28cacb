package record

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
)

// sinkWriter correlates and writes the events of one sink.
type sinkWriter struct {
	opts Options
	sink Sink
	corr *correlator
	b    *Broadcaster
}

// record handles one event from the queue.
func (w *sinkWriter) record(ctx context.Context, ev *corev1.Event) {
	wr, ok := w.corr.correlate(ev)
	if !ok {
		w.b.filtered.Add(1)
		return
	}
	got, err := w.writeWithRetries(ctx, wr)
	if err != nil {
		w.b.failed.Add(1)
		w.opts.OnError(wr.event, err)
		return
	}
	w.corr.written(wr.key, got)
}

// writeWithRetries tries wr up to MaxTries times while the failures may
// pass, waiting RetryInterval between tries (the first wait randomized).
func (w *sinkWriter) writeWithRetries(ctx context.Context, wr write) (*corev1.Event, error) {
	for try := 1; ; try++ {
		got, err := w.writeOnce(ctx, wr)
		if err == nil || !retryable(err) || try >= w.opts.MaxTries || ctx.Err() != nil {
			return got, err
		}
		wait := w.opts.RetryInterval
		if try == 1 {
			wait = time.Duration(rand.Float64() * float64(wait))
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-w.opts.Clock.After(wait):
		}
	}
}

// writeOnce patches an event written before, creating it again if it is
// gone, or creates a new one, replacing it if the name is taken.
func (w *sinkWriter) writeOnce(ctx context.Context, wr write) (*corev1.Event, error) {
	ev := copyEvent(wr.event)
	if wr.patch != nil {
		got, err := w.sink.Patch(ctx, ev, wr.patch)
		if !apierrors.IsNotFound(err) {
			return got, err
		}
	}
	ev.ResourceVersion = ""
	got, err := w.sink.Create(ctx, ev)
	if apierrors.IsAlreadyExists(err) {
		got, err = w.sink.Update(ctx, ev)
	}
	return got, err
}

// retryable reports whether trying again may help: for transport errors,
// 429 and 5xx, but not for anything else the server rejected, nor for a
// cancelled context.
func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var se *apierrors.StatusError
	if !errors.As(err, &se) {
		return true
	}
	code := se.ErrStatus.Code
	return code == http.StatusTooManyRequests || code >= http.StatusInternalServerError
}
