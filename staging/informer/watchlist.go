package informer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/watch"
)

// errWatchListUnsupported: the server refused the watch-list parameters,
// sent a plain bookmark before the end of the initial events, or twice
// ended or stalled the stream before that end, as a server that ignores
// the parameters would. The reflector lists from then on.
var errWatchListUnsupported = errors.New("informer: the server does not support watch-list")

// maxEarlyEnds is how many watch-list streams in a row may end before the
// end of their initial events before the server is taken not to support it.
const maxEarlyEnds = 2

// watchList fills the sink through one watch instead of a list: the server
// sends the current objects as ADDED events and a BOOKMARK annotated
// meta.InitialEventsEndAnnotation, at which the sink is replaced; the same
// stream then goes on as watch does. The server never holds a whole list
// in memory for it. replaced reports whether the sink was replaced.
func (r *Reflector[T]) watchList(ctx context.Context) (replaced bool, err error) {
	send := true
	opts := r.baseOptions()
	opts.Watch, opts.AllowWatchBookmarks = true, true
	opts.SendInitialEvents, opts.ResourceVersionMatch = &send, "NotOlderThan"
	opts.ResourceVersion = "0" // the first fill may come from the server's cache
	if r.listed {
		opts.ResourceVersion = "" // later ones must not go back in time
	}
	minSec := int64(r.opts.MinWatchTimeout / time.Second)
	opts.TimeoutSeconds = max(1, minSec+rand.Int64N(max(1, minSec)))
	w, err := r.lw.Watch(ctx, opts)
	if err != nil {
		if apierrors.IsBadRequest(err) || apierrors.IsInvalid(err) {
			return false, fmt.Errorf("%w: %v", errWatchListUnsupported, err)
		}
		return false, err
	}
	defer w.Stop()
	var items []T
	// One timer per WatchListStall, not per event: a period with no event
	// since the last check is a stall.
	stall := r.opts.Clock.NewTimer(r.opts.WatchListStall)
	defer func() { stall.Stop() }()
	heard := false
	for {
		var stalled <-chan time.Time
		if !replaced {
			stalled = stall.C()
		}
		select {
		case <-ctx.Done():
			return replaced, ctx.Err()
		case <-stalled:
			if !heard {
				return false, r.earlyEnd()
			}
			heard = false
			stall = r.opts.Clock.NewTimer(r.opts.WatchListStall)
		case ev, ok := <-w.ResultChan():
			if !ok {
				if !replaced {
					return false, r.earlyEnd()
				}
				return true, nil
			}
			if replaced {
				if err := r.apply(ev); err != nil {
					return true, err
				}
				r.backoff.reset()
				continue
			}
			heard = true
			done, err := r.initialEvent(ev, &items)
			if err != nil {
				return false, err
			}
			if done {
				replaced, items = true, nil
				r.earlyEnds = 0
				r.backoff.reset()
			}
		}
	}
}

// initialEvent takes one event of the initial state: ADDED objects are
// collected; the end bookmark replaces the sink with them.
func (r *Reflector[T]) initialEvent(ev watch.Event[T], items *[]T) (done bool, err error) {
	switch ev.Type {
	case watch.Added:
		if isNil(ev.Object) {
			return false, errors.New("informer: ADDED watch event without an object")
		}
		*items = append(*items, ev.Object)
		return false, nil
	case watch.Bookmark:
		if isNil(ev.Object) {
			return false, errors.New("informer: BOOKMARK watch event without an object")
		}
		m := ev.Object.GetObjectMeta()
		if m.Annotations[meta.InitialEventsEndAnnotation] != "true" {
			// A server that sends the end sends no other bookmark before it.
			return false, fmt.Errorf("%w: a bookmark before the end of the initial events", errWatchListUnsupported)
		}
		if m.ResourceVersion == "" {
			return false, errors.New("informer: the end of the initial events carries no resourceVersion")
		}
		r.sink.Replace(*items, m.ResourceVersion)
		r.listed = true
		r.setRV(m.ResourceVersion)
		r.synced.Store(true)
		return true, nil
	case watch.Error:
		return false, r.apply(ev)
	default:
		return false, fmt.Errorf("informer: %s watch event before the end of the initial events", ev.Type)
	}
}

// earlyEnd records a watch-list stream that ended before its initial
// events did; after maxEarlyEnds in a row the server is taken not to
// support watch-list.
func (r *Reflector[T]) earlyEnd() error {
	r.earlyEnds++
	if r.earlyEnds >= maxEarlyEnds {
		return fmt.Errorf("%w: %d streams ended before the end of their initial events", errWatchListUnsupported, r.earlyEnds)
	}
	return errors.New("informer: the watch-list stream ended before its initial events did")
}
