package workload

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/watch"

	"platform.io/platform/test/chaos/check"
)

// retryWait is how long a watcher waits after a failed list or watch
// call before the next.
const retryWait = 100 * time.Millisecond

// watcher lists, then watches from the list's resourceVersion, resumes
// from the last resourceVersion it saw whenever a stream ends, and lists
// again only after 410 Gone, as an informer's reflector does.
type watcher struct {
	id      int
	cms     *ConfigMaps
	rec     *check.Recorder
	rng     *rand.Rand
	timeout time.Duration
	// resumeDelay is how long the watcher waits before it resumes a
	// stream that ended: a lagging watcher, whose resourceVersion may
	// have left the server's window meanwhile, so it gets 410 and relists.
	resumeDelay time.Duration
	// last is the last resourceVersion seen, for Run to wait on.
	last atomic.Int64
	// sessions is written by run alone, and read after it returns.
	sessions []check.Session
}

// run watches until ctx ends.
func (w *watcher) run(ctx context.Context) {
	for ctx.Err() == nil {
		lctx, cancel := context.WithTimeout(ctx, w.timeout)
		op, err := listOnce(lctx, w.rec, w.cms, w.id)
		cancel()
		if err != nil {
			pause(ctx, retryWait)
			continue
		}
		w.sessions = append(w.sessions, check.Session{ListRV: op.ListRV, Items: op.Items, ListAt: op.Return})
		w.last.Store(op.ListRV)
		w.stream(ctx, &w.sessions[len(w.sessions)-1])
	}
}

// stream runs watches from the last resourceVersion until ctx ends or
// the server answers 410 Gone.
func (w *watcher) stream(ctx context.Context, s *check.Session) {
	for first := true; ctx.Err() == nil; first = false {
		if !first {
			s.Reconnects++
			pause(ctx, w.resumeDelay)
		}
		wi, err := w.cms.Watch(ctx, meta.ListOptions{
			ResourceVersion:     strconv.FormatInt(w.last.Load(), 10),
			AllowWatchBookmarks: true,
			// Streams the server ends now and then, so resuming is
			// exercised without faults too.
			TimeoutSeconds: 3 + w.rng.Int64N(8),
		})
		if err != nil {
			if gone(err) {
				return
			}
			pause(ctx, retryWait)
			continue
		}
		if w.drain(s, wi) {
			return
		}
	}
}

// drain records the events of one stream; it reports whether the stream
// ended in 410 Gone.
func (w *watcher) drain(s *check.Session, wi watch.Interface[*corev1.ConfigMap]) bool {
	defer wi.Stop()
	for ev := range wi.ResultChan() {
		switch ev.Type {
		case watch.Error:
			return ev.Status != nil && ev.Status.Code == http.StatusGone
		case watch.Bookmark:
			rv, err := strconv.ParseInt(ev.Object.ResourceVersion, 10, 64)
			if err != nil {
				return false
			}
			s.Events = append(s.Events, check.Event{Type: check.Bookmark, RV: rv, At: w.rec.Now()})
			w.last.Store(rv)
		default:
			obj, err := object(ev.Object)
			if err != nil {
				return false
			}
			s.Events = append(s.Events, check.Event{Type: check.EventType(ev.Type), Key: ev.Object.Name, Value: obj.Value, RV: obj.RV, At: w.rec.Now()})
			w.last.Store(obj.RV)
		}
	}
	return false
}

// gone reports whether err is a 410: the resourceVersion is too old.
func gone(err error) bool {
	return apierrors.IsGone(err) || apierrors.IsResourceExpired(err) || apierrors.CodeForError(err) == http.StatusGone
}

// pause waits d or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
