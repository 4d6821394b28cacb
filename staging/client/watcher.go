package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/rest"
	"platform.io/client/watch"
)

// streamWatcher turns the events of a rest.Watcher into typed events.
type streamWatcher[O any] struct {
	rw     *rest.Watcher
	decode func(rest.Event) (O, error)
	result chan watch.Event[O]
	done   chan struct{}
	once   sync.Once
}

// newStreamWatcher starts reading rw, decoding each object with decode.
func newStreamWatcher[O any](rw *rest.Watcher, decode func(rest.Event) (O, error)) *streamWatcher[O] {
	w := &streamWatcher[O]{
		rw:     rw,
		decode: decode,
		result: make(chan watch.Event[O]),
		done:   make(chan struct{}),
	}
	go w.run()
	return w
}

// ResultChan returns the events; it is closed when the stream ends.
func (w *streamWatcher[O]) ResultChan() <-chan watch.Event[O] { return w.result }

// Stop ends the stream. It is safe to call more than once, from any
// goroutine.
func (w *streamWatcher[O]) Stop() {
	w.once.Do(func() {
		close(w.done)
		w.rw.Stop()
	})
}

// run delivers events until the stream ends or Stop is called.
func (w *streamWatcher[O]) run() {
	defer close(w.result)
	defer w.rw.Stop()
	for {
		ev, deliver, more := w.next()
		if deliver {
			select {
			case w.result <- ev:
			case <-w.done:
				return
			}
		}
		if !more {
			return
		}
	}
}

// next reads one event and says whether to deliver it and whether the
// stream goes on.
func (w *streamWatcher[O]) next() (ev watch.Event[O], deliver, more bool) {
	re, err := w.rw.Next()
	if err == nil {
		obj, err := w.decode(re)
		if err != nil {
			return failure[O](fmt.Errorf("decoding the %s event: %w", re.Type, err)), true, false
		}
		return watch.Event[O]{Type: watch.EventType(re.Type), Object: obj}, true, true
	}
	if se, ok := errors.AsType[*apierrors.StatusError](err); ok && re.Type == string(watch.Error) {
		st := se.ErrStatus
		return watch.Event[O]{Type: watch.Error, Status: &st}, true, true
	}
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return ev, false, false
	}
	return failure[O](err), true, false
}

// failure is the last event of a stream that cannot be read on.
func failure[O any](err error) watch.Event[O] {
	st := apierrors.NewInternalError(fmt.Errorf("unable to read the watch stream: %w", err)).Status()
	return watch.Event[O]{Type: watch.Error, Status: &st}
}
