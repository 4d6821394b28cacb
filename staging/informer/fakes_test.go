package informer

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/internal/fakeclock"
	"platform.io/client/watch"
	"platform.io/client/workqueue"
)

// ---- clock ----

// fakeClock is a manually stepped Clock.
type fakeClock struct{ *fakeclock.Clock }

func newFakeClock() *fakeClock {
	return &fakeClock{fakeclock.New(time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC))}
}

func (c *fakeClock) NewTimer(d time.Duration) workqueue.Timer { return c.Clock.NewTimer(d) }

// eventually polls cond in real time for up to 10 seconds.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// ---- server ----

type histEvent struct {
	rv  int64
	typ watch.EventType
	obj *corev1.Pod
}

type snapshot struct {
	rv    int64
	items []*corev1.Pod
}

// fakeServer is an in-memory pods endpoint with a bounded history: lists are
// chunked with continue tokens, watches replay history from their
// resourceVersion and can be dropped, ended, failed or compacted away.
type fakeServer struct {
	mu        sync.Mutex
	rv        int64
	objs      map[string]*corev1.Pod
	history   []histEvent
	compacted int64 // watches from below this are too old
	watches   map[*fakeWatch]struct{}
	snaps     map[int]snapshot
	nextSnap  int

	expireContinues int     // the next n continued lists fail with 410 Expired
	watchErrs       []error // returned, in turn, by the next Watch calls
	listErr         error   // returned by every List while set
	tooOldAsHTTP    bool    // a too-old watch fails the call instead of an ERROR event
	watchList       bool    // serves sendInitialEvents; else refuses it, as a server without watch-list
	ignoreWatchList bool    // treats sendInitialEvents as a plain watch, as an older server that ignores it
	gate            chan struct{}

	lists, watchCalls []meta.ListOptions
	watchListCalls    []meta.ListOptions
}

func newFakeServer() *fakeServer {
	return &fakeServer{rv: 100, objs: map[string]*corev1.Pod{}, watches: map[*fakeWatch]struct{}{}, snaps: map[int]snapshot{}}
}

func pod(ns, name string, lbls map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: meta.ObjectMeta{Namespace: ns, Name: name, Labels: lbls}}
}

// write records a change and sends it to every open watch.
func (s *fakeServer) write(typ watch.EventType, p *corev1.Pod) *corev1.Pod {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv++
	c := *p
	c.ResourceVersion = strconv.FormatInt(s.rv, 10)
	if typ == watch.Deleted {
		delete(s.objs, Key(&c))
	} else {
		s.objs[Key(&c)] = &c
	}
	s.history = append(s.history, histEvent{rv: s.rv, typ: typ, obj: &c})
	for w := range s.watches {
		w.send(watch.Event[*corev1.Pod]{Type: typ, Object: &c})
	}
	return &c
}

func (s *fakeServer) create(p *corev1.Pod) *corev1.Pod { return s.write(watch.Added, p) }
func (s *fakeServer) update(p *corev1.Pod) *corev1.Pod { return s.write(watch.Modified, p) }

func (s *fakeServer) remove(ns, name string) *corev1.Pod {
	s.mu.Lock()
	p := s.objs[KeyFor(ns, name)]
	s.mu.Unlock()
	return s.write(watch.Deleted, p)
}

// get returns the current object under key.
func (s *fakeServer) get(key string) *corev1.Pod {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.objs[key]
}

func (s *fakeServer) currentRV() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strconv.FormatInt(s.rv, 10)
}

// bump advances the resourceVersion as writes to other resources would.
func (s *fakeServer) bump(n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv += n
}

// bookmark sends a bookmark at the current resourceVersion to every watch.
func (s *fakeServer) bookmark() {
	s.mu.Lock()
	defer s.mu.Unlock()
	bm := &corev1.Pod{ObjectMeta: meta.ObjectMeta{ResourceVersion: strconv.FormatInt(s.rv, 10)}}
	for w := range s.watches {
		w.send(watch.Event[*corev1.Pod]{Type: watch.Bookmark, Object: bm})
	}
}

// drop cuts every open watch at once; queued events are lost.
func (s *fakeServer) drop() { s.closeAll(false) }

// end closes every open watch after its queued events, as a server timeout does.
func (s *fakeServer) end() { s.closeAll(true) }

func (s *fakeServer) closeAll(graceful bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watches {
		w.close(graceful)
		delete(s.watches, w)
	}
}

// sendError ends every open watch with an ERROR event.
func (s *fakeServer) sendError(st meta.Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for w := range s.watches {
		w.send(watch.Event[*corev1.Pod]{Type: watch.Error, Status: &st})
		w.close(true)
		delete(s.watches, w)
	}
}

// compact forgets the history: watches from before now are too old.
func (s *fakeServer) compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.compacted, s.history = s.rv, nil
}

// hold makes Watch calls wait until the returned release is called.
func (s *fakeServer) hold() (release func()) {
	ch := make(chan struct{})
	s.mu.Lock()
	s.gate = ch
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.gate = nil
		s.mu.Unlock()
		close(ch)
	}
}

func (s *fakeServer) set(f func(s *fakeServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

func (s *fakeServer) calls() (lists, watches []meta.ListOptions) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lists), slices.Clone(s.watchCalls)
}

func (s *fakeServer) List(ctx context.Context, opts meta.ListOptions) ([]*corev1.Pod, meta.ListMeta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists = append(s.lists, opts)
	if s.listErr != nil {
		return nil, meta.ListMeta{}, s.listErr
	}
	id, off := s.nextSnap, 0
	if opts.Continue != "" {
		if s.expireContinues > 0 {
			s.expireContinues--
			return nil, meta.ListMeta{}, apierrors.NewResourceExpired("continue token expired")
		}
		if _, err := fmt.Sscanf(opts.Continue, "%d:%d", &id, &off); err != nil {
			return nil, meta.ListMeta{}, apierrors.NewBadRequest("bad continue token")
		}
	} else {
		s.nextSnap++
		items := make([]*corev1.Pod, 0, len(s.objs))
		for _, k := range slices.Sorted(maps.Keys(s.objs)) {
			items = append(items, s.objs[k])
		}
		s.snaps[id] = snapshot{rv: s.rv, items: items}
	}
	snap := s.snaps[id]
	end := len(snap.items)
	lm := meta.ListMeta{ResourceVersion: strconv.FormatInt(snap.rv, 10)}
	if opts.Limit > 0 && int64(end-off) > opts.Limit {
		end = off + int(opts.Limit)
		lm.Continue = fmt.Sprintf("%d:%d", id, end)
	}
	return slices.Clone(snap.items[off:end]), lm, nil
}

func (s *fakeServer) Watch(ctx context.Context, opts meta.ListOptions) (watch.Interface[*corev1.Pod], error) {
	if opts.SendInitialEvents != nil {
		s.mu.Lock()
		ignore := s.ignoreWatchList
		s.mu.Unlock()
		if !ignore {
			return s.watchWithInitialEvents(opts)
		}
	}
	s.mu.Lock()
	s.watchCalls = append(s.watchCalls, opts)
	gate := s.gate
	s.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.watchErrs) > 0 {
		err := s.watchErrs[0]
		s.watchErrs = s.watchErrs[1:]
		return nil, err
	}
	from, err := strconv.ParseInt(opts.ResourceVersion, 10, 64)
	if err != nil {
		return nil, apierrors.NewBadRequest("bad resourceVersion " + opts.ResourceVersion)
	}
	w := newFakeWatch()
	if from < s.compacted {
		expired := apierrors.NewResourceExpired("too old resource version").Status()
		if s.tooOldAsHTTP {
			return nil, apierrors.NewGone("too old resource version")
		}
		w.send(watch.Event[*corev1.Pod]{Type: watch.Error, Status: &expired})
		w.close(true)
		return w, nil
	}
	for _, h := range s.history {
		if h.rv > from {
			w.send(watch.Event[*corev1.Pod]{Type: h.typ, Object: h.obj})
		}
	}
	s.watches[w] = struct{}{}
	return w, nil
}

// watchWithInitialEvents serves the watch-list protocol: the current
// objects, the end bookmark, then the changes.
func (s *fakeServer) watchWithInitialEvents(opts meta.ListOptions) (watch.Interface[*corev1.Pod], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchListCalls = append(s.watchListCalls, opts)
	if !s.watchList {
		return nil, apierrors.NewBadRequest("unknown parameter sendInitialEvents")
	}
	w := newFakeWatch()
	for _, k := range slices.Sorted(maps.Keys(s.objs)) {
		w.send(watch.Event[*corev1.Pod]{Type: watch.Added, Object: s.objs[k]})
	}
	end := &corev1.Pod{ObjectMeta: meta.ObjectMeta{ResourceVersion: strconv.FormatInt(s.rv, 10),
		Annotations: map[string]string{meta.InitialEventsEndAnnotation: "true"}}}
	w.send(watch.Event[*corev1.Pod]{Type: watch.Bookmark, Object: end})
	s.watches[w] = struct{}{}
	return w, nil
}

// fakeWatch is one stream with an unbounded queue.
type fakeWatch struct {
	ch       chan watch.Event[*corev1.Pod]
	done     chan struct{}
	stopOnce sync.Once

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []watch.Event[*corev1.Pod]
	ending   bool // close once the queue is drained
	cut      bool // close now
	hasEnded bool
}

func newFakeWatch() *fakeWatch {
	w := &fakeWatch{ch: make(chan watch.Event[*corev1.Pod]), done: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.pump()
	return w
}

func (w *fakeWatch) send(ev watch.Event[*corev1.Pod]) {
	w.mu.Lock()
	w.queue = append(w.queue, ev)
	w.mu.Unlock()
	w.cond.Signal()
}

func (w *fakeWatch) close(graceful bool) {
	w.mu.Lock()
	if graceful {
		w.ending = true
	} else {
		w.cut = true
	}
	w.mu.Unlock()
	w.cond.Signal()
}

func (w *fakeWatch) pump() {
	defer close(w.ch)
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && !w.ending && !w.cut {
			w.cond.Wait()
		}
		if w.cut || len(w.queue) == 0 {
			w.mu.Unlock()
			return
		}
		ev := w.queue[0]
		w.queue = w.queue[1:]
		w.mu.Unlock()
		select {
		case w.ch <- ev:
		case <-w.done:
			return
		}
	}
}

func (w *fakeWatch) ResultChan() <-chan watch.Event[*corev1.Pod] { return w.ch }

func (w *fakeWatch) Stop() {
	w.stopOnce.Do(func() { close(w.done) })
	w.close(false)
}

// ---- informer harness ----

// run starts inf until the test ends, and waits for it to stop then.
func run(t testing.TB, r interface{ Run(context.Context) }) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// newPodInformer returns an informer over s on a fake clock, with rec's
// handler added before it starts.
func newPodInformer(t testing.TB, s *fakeServer, rec *recorder, opts Options) (*Informer[*corev1.Pod], *fakeClock) {
	t.Helper()
	clock := newFakeClock()
	opts.Clock = clock
	inf := New[*corev1.Pod](meta.GroupResource{Resource: "pods"}, s, opts)
	if rec != nil {
		if _, err := inf.AddEventHandler(rec.handler()); err != nil {
			t.Fatal(err)
		}
	}
	return inf, clock
}

func waitSynced(t testing.TB, hs interface{ HasSynced() bool }) {
	t.Helper()
	eventually(t, "sync", hs.HasSynced)
}

// ---- handler recorder ----

// recorder records handler calls as "add ns/name@rv[ initial]",
// "update ns/name@old->new" and "delete ns/name@rv".
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) handler() ResourceEventHandler[*corev1.Pod] {
	return ResourceEventHandler[*corev1.Pod]{
		OnAdd: func(p *corev1.Pod, initial bool) {
			s := "add " + Key(p) + "@" + p.ResourceVersion
			if initial {
				s += " initial"
			}
			r.record(s)
		},
		OnUpdate: func(o, n *corev1.Pod) {
			r.record("update " + Key(n) + "@" + o.ResourceVersion + "->" + n.ResourceVersion)
		},
		OnDelete: func(p *corev1.Pod) { r.record("delete " + Key(p) + "@" + p.ResourceVersion) },
	}
}

func (r *recorder) record(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, s)
}

func (r *recorder) get() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

func (r *recorder) wait(t testing.TB, n int) []string {
	t.Helper()
	eventually(t, fmt.Sprintf("%d events", n), func() bool { return len(r.get()) >= n })
	time.Sleep(5 * time.Millisecond) // let any extra event show up
	return r.get()
}

// sortedPrefix sorts the first n events (whose order a map decides) and
// joins everything for comparison.
func sortedPrefix(events []string, n int) string {
	out := slices.Clone(events)
	slices.Sort(out[:min(n, len(out))])
	return strings.Join(out, "\n")
}
