package informer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/watch"
	"platform.io/client/workqueue"
)

// Defaults of ReflectorOptions.
const (
	DefaultPageSize        = 500
	DefaultMinWatchTimeout = 5 * time.Minute
	DefaultInitialBackoff  = 800 * time.Millisecond
	DefaultMaxBackoff      = 30 * time.Second
	DefaultWatchListStall  = 30 * time.Second
)

// maxListRestarts bounds how often one list starts over because its continue
// token expired before the list fails and backs off.
const maxListRestarts = 3

// ReflectorOptions configures a Reflector. The zero value is usable.
type ReflectorOptions struct {
	// Clock drives backoff. Defaults to the wall clock.
	Clock Clock
	// PageSize is the limit of each list request. Defaults to DefaultPageSize.
	PageSize int64
	// MinWatchTimeout: each watch asks the server to end it after a random
	// time in [MinWatchTimeout, 2*MinWatchTimeout), spreading reconnections.
	// Defaults to DefaultMinWatchTimeout.
	MinWatchTimeout time.Duration
	// InitialBackoff and MaxBackoff bound the wait between failed attempts.
	InitialBackoff, MaxBackoff time.Duration
	// LabelSelector and FieldSelector narrow what is listed and watched.
	LabelSelector, FieldSelector string
	// OnError is told of every failed list or watch, for logging and
	// metrics. Nil ignores them; the reflector retries either way.
	OnError func(error)
	// DisableWatchList makes the reflector fill its sink with paged lists.
	// By default it first asks for the current state as a watch
	// (sendInitialEvents, the watch-list protocol), which spares the server
	// from holding a whole list in memory, and lists only if the server
	// does not support that.
	DisableWatchList bool
	// WatchListStall is how long a watch-list stream may go without an
	// event before its initial events end; a stream that stalls counts as
	// one that ended early (see DisableWatchList). Defaults to
	// DefaultWatchListStall.
	WatchListStall time.Duration
}

func (o ReflectorOptions) withDefaults() ReflectorOptions {
	if o.Clock == nil {
		o.Clock = workqueue.RealClock{}
	}
	if o.PageSize <= 0 {
		o.PageSize = DefaultPageSize
	}
	if o.MinWatchTimeout <= 0 {
		o.MinWatchTimeout = DefaultMinWatchTimeout
	}
	if o.InitialBackoff <= 0 {
		o.InitialBackoff = DefaultInitialBackoff
	}
	if o.WatchListStall <= 0 {
		o.WatchListStall = DefaultWatchListStall
	}
	if o.MaxBackoff < o.InitialBackoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.InitialBackoff)
	}
	return o
}

// Reflector keeps a Sink in step with the server through a ListerWatcher.
// Create it with NewReflector and call Run once.
type Reflector[T Object] struct {
	lw      ListerWatcher[T]
	sink    Sink[T]
	opts    ReflectorOptions
	backoff backoff // used only by Run's goroutine
	listed  bool    // a list has succeeded; later lists read fresh
	synced  atomic.Bool
	// useWatchList and earlyEnds are used only by Run's goroutine: whether
	// the sink is filled by watch-list, and how many watch-list streams in
	// a row ended before their initial events did.
	useWatchList bool
	earlyEnds    int

	mu     sync.Mutex
	lastRV string
}

// NewReflector returns a reflector that feeds sink from lw.
func NewReflector[T Object](lw ListerWatcher[T], sink Sink[T], opts ReflectorOptions) *Reflector[T] {
	opts = opts.withDefaults()
	return &Reflector[T]{
		lw:      lw,
		sink:    sink,
		opts:    opts,
		backoff: backoff{initial: opts.InitialBackoff, max: opts.MaxBackoff},

		useWatchList: !opts.DisableWatchList,
	}
}

// HasSynced reports whether the first full list has reached the sink.
func (r *Reflector[T]) HasSynced() bool { return r.synced.Load() }

// LastSyncResourceVersion is the resourceVersion the next watch starts from:
// that of the last list, watch event or bookmark.
func (r *Reflector[T]) LastSyncResourceVersion() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastRV
}

func (r *Reflector[T]) setRV(rv string) {
	if rv == "" {
		return
	}
	r.mu.Lock()
	r.lastRV = rv
	r.mu.Unlock()
}

// Run lists and watches until ctx ends.
func (r *Reflector[T]) Run(ctx context.Context) {
	needList := true
	for ctx.Err() == nil {
		var err error
		idle := false // a watch that ended without a single event
		switch {
		case needList && r.useWatchList:
			var replaced bool
			replaced, err = r.watchList(ctx)
			if errors.Is(err, errWatchListUnsupported) {
				// Not a failure: an older server. List at once, from now on.
				r.useWatchList = false
				continue
			}
			needList = !replaced || isExpired(err)
		case needList:
			err = r.list(ctx)
			needList = err != nil
		default:
			var delivered int
			delivered, err = r.watch(ctx)
			needList = isExpired(err)
			idle = err == nil && delivered == 0
		}
		if ctx.Err() != nil {
			return
		}
		if err == nil && !idle {
			continue
		}
		if err != nil {
			r.report(err)
		}
		if !sleep(ctx, r.opts.Clock, r.backoff.fail()) {
			return
		}
	}
}

func (r *Reflector[T]) report(err error) {
	if r.opts.OnError != nil {
		r.opts.OnError(err)
	}
}

func (r *Reflector[T]) baseOptions() meta.ListOptions {
	return meta.ListOptions{LabelSelector: r.opts.LabelSelector, FieldSelector: r.opts.FieldSelector}
}

// list reads every object, page by page, and replaces the sink's content.
func (r *Reflector[T]) list(ctx context.Context) error {
	rv := "0" // the first list may be served from the server's cache
	if r.listed {
		rv = "" // later ones must not go back in time
	}
	items, listRV, err := r.listPages(ctx, rv)
	if err != nil {
		return err
	}
	if listRV == "" {
		return errors.New("informer: list returned no resourceVersion")
	}
	r.sink.Replace(items, listRV)
	r.listed = true
	r.setRV(listRV)
	r.synced.Store(true)
	return nil
}

// listPages follows continue tokens; when a token has expired it starts over
// with a fresh read.
func (r *Reflector[T]) listPages(ctx context.Context, rv string) ([]T, string, error) {
	opts := r.baseOptions()
	opts.ResourceVersion, opts.Limit = rv, r.opts.PageSize
	var items []T
	restarts := 0
	for {
		page, lm, err := r.lw.List(ctx, opts)
		switch {
		case err != nil && opts.Continue != "" && isExpired(err) && restarts < maxListRestarts:
			restarts++
			r.report(err)
			items, opts.Continue, opts.ResourceVersion = nil, "", ""
			continue
		case err != nil:
			return nil, "", err
		}
		items = append(items, page...)
		if lm.Continue == "" {
			return items, lm.ResourceVersion, nil
		}
		// A continued list is pinned by its token; it carries no resourceVersion.
		opts.Continue, opts.ResourceVersion = lm.Continue, ""
	}
}

// watch opens one watch from the last resourceVersion and applies its events
// until it ends. It returns how many events it applied.
func (r *Reflector[T]) watch(ctx context.Context) (int, error) {
	opts := r.baseOptions()
	opts.Watch, opts.AllowWatchBookmarks = true, true
	opts.ResourceVersion = r.LastSyncResourceVersion()
	minSec := int64(r.opts.MinWatchTimeout / time.Second)
	opts.TimeoutSeconds = max(1, minSec+rand.Int64N(max(1, minSec)))
	w, err := r.lw.Watch(ctx, opts)
	if err != nil {
		return 0, err
	}
	defer w.Stop()
	n := 0
	for {
		select {
		case <-ctx.Done():
			return n, ctx.Err()
		case ev, ok := <-w.ResultChan():
			if !ok {
				return n, nil
			}
			if err := r.apply(ev); err != nil {
				return n, err
			}
			n++
			r.backoff.reset()
		}
	}
}

// apply hands one watch event to the sink and advances the resourceVersion.
func (r *Reflector[T]) apply(ev watch.Event[T]) error {
	switch ev.Type {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
	case watch.Error:
		if ev.Status == nil {
			return errors.New("informer: watch ERROR event without a status")
		}
		return apierrors.FromStatus(*ev.Status)
	default:
		return fmt.Errorf("informer: unknown watch event type %q", ev.Type)
	}
	if isNil(ev.Object) {
		return fmt.Errorf("informer: %s watch event without an object", ev.Type)
	}
	switch ev.Type {
	case watch.Added:
		r.sink.Add(ev.Object)
	case watch.Modified:
		r.sink.Update(ev.Object)
	case watch.Deleted:
		r.sink.Delete(ev.Object)
	}
	r.setRV(ev.Object.GetObjectMeta().ResourceVersion)
	return nil
}

// isExpired reports a 410: the resourceVersion or continue token asked for
// is no longer available, so only a fresh list can continue.
func isExpired(err error) bool {
	return err != nil && (apierrors.IsGone(err) || apierrors.IsResourceExpired(err) ||
		apierrors.CodeForError(err) == http.StatusGone)
}
