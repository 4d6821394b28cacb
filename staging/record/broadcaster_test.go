package record

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// testSource is the source of the events of these tests.
func testSource() corev1.EventSource { return corev1.EventSource{Component: "ctl", Host: "h1"} }

// startSink returns a Broadcaster recording to a fresh fakeSink.
func startSink(t *testing.T, opts Options) (*Broadcaster, *fakeSink, Recorder) {
	t.Helper()
	b := NewBroadcaster(opts)
	sink := newFakeSink()
	b.StartRecordingToSink(context.Background(), sink)
	t.Cleanup(func() { _ = b.Shutdown(context.Background()) })
	return b, sink, b.NewRecorder(testSource())
}

func TestBroadcaster_Creates(t *testing.T) {
	clock := newFakeClock()
	b, sink, r := startSink(t, Options{Clock: clock})
	r.Eventf(pod("ns1", "p1"), corev1.EventTypeNormal, "Scheduled", "assigned to %s", "n1")
	shutdown(t, b)
	evs := sink.list()
	if len(evs) != 1 {
		t.Fatalf("%d events", len(evs))
	}
	ev := evs[0]
	if ev.Namespace != "ns1" || ev.InvolvedObject.Name != "p1" || ev.Message != "assigned to n1" ||
		ev.Count != 1 || !ev.LastTimestamp.Equal(clock.Now()) || !strings.HasPrefix(ev.Name, "p1.") {
		t.Fatalf("event %+v", ev)
	}
	if calls := sink.callLog(); !slices.Equal(calls, []string{"create " + ev.Name}) {
		t.Fatalf("calls %v", calls)
	}
}

func TestBroadcaster_CorrelatesIdenticalEvents(t *testing.T) {
	clock := newFakeClock()
	b, sink, r := startSink(t, Options{Clock: clock})
	first := clock.Now()
	for range 5 {
		r.Event(pod("ns1", "p1"), corev1.EventTypeWarning, "BackOff", "restarting")
		clock.Step(time.Second)
	}
	r.Event(pod("ns1", "p1"), corev1.EventTypeWarning, "BackOff", "other message")
	shutdown(t, b)
	evs := sink.list()
	if len(evs) != 2 {
		t.Fatalf("%d events, want 2", len(evs))
	}
	slices.SortFunc(evs, func(a, b *corev1.Event) int { return int(b.Count - a.Count) })
	ev := evs[0]
	if ev.Count != 5 || !ev.FirstTimestamp.Equal(first) || !ev.LastTimestamp.Equal(first.Add(4*time.Second)) {
		t.Fatalf("correlated event: count %d, first %v, last %v", ev.Count, ev.FirstTimestamp, ev.LastTimestamp)
	}
	want := []string{"create " + ev.Name, "patch " + ev.Name, "patch " + ev.Name, "patch " + ev.Name, "patch " + ev.Name, "create " + evs[1].Name}
	if calls := sink.callLog(); !slices.Equal(calls, want) {
		t.Fatalf("calls %v, want %v", calls, want)
	}
}

func TestBroadcaster_AggregatesSimilarEvents(t *testing.T) {
	b, sink, r := startSink(t, Options{Clock: newFakeClock()})
	for i := range 12 {
		r.Eventf(pod("ns1", "p1"), corev1.EventTypeWarning, "FailedMount", "volume v%d", i)
	}
	shutdown(t, b)
	var combined []*corev1.Event
	evs := sink.list()
	for _, ev := range evs {
		if strings.HasPrefix(ev.Message, combinedPrefix) {
			combined = append(combined, ev)
		}
	}
	if len(evs) != 10 || len(combined) != 1 {
		t.Fatalf("%d events, %d combined; want 10 and 1", len(evs), len(combined))
	}
	if ev := combined[0]; ev.Message != "(combined from similar events): volume v11" || ev.Count != 3 || ev.Reason != "FailedMount" {
		t.Fatalf("combined event %+v", ev)
	}
}

func TestBroadcaster_SpamFilter(t *testing.T) {
	clock := newFakeClock()
	b, sink, r := startSink(t, Options{Clock: clock})
	p1, p2 := pod("ns1", "p1"), pod("ns1", "p2")
	for i := range 30 {
		r.Eventf(p1, corev1.EventTypeNormal, fmt.Sprintf("Reason%d", i), "m")
	}
	eventually(t, "the burst to be handled", func() bool { return b.Stats().Filtered == 5 })
	clock.Step(DefaultSpamRefill)
	for i := range 2 {
		r.Eventf(p1, corev1.EventTypeNormal, fmt.Sprintf("Late%d", i), "m")
	}
	r.Event(p2, corev1.EventTypeNormal, "Other", "m")
	shutdown(t, b)
	perObject := map[string]int{}
	for _, ev := range sink.list() {
		perObject[ev.InvolvedObject.Name]++
	}
	if perObject["p1"] != 26 || perObject["p2"] != 1 || b.Stats().Filtered != 6 {
		t.Fatalf("events per object %v, stats %+v", perObject, b.Stats())
	}
}

func TestBroadcaster_DropsWhenQueueFull(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	b, sink, r := startSink(t, Options{QueueLength: 2})
	sink.hook = func(string, *corev1.Event) error {
		select {
		case entered <- struct{}{}:
			<-release
		default:
		}
		return nil
	}
	r.Event(pod("ns1", "held"), corev1.EventTypeNormal, "R", "m")
	<-entered
	done := make(chan struct{})
	go func() {
		for i := range 10 {
			r.Event(pod("ns1", fmt.Sprintf("p%d", i)), corev1.EventTypeNormal, "R", "m")
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("recording blocked on a full queue")
	}
	if got := b.Stats().Dropped; got != 8 {
		t.Fatalf("dropped %d, want 8", got)
	}
	close(release)
	shutdown(t, b)
	if n := len(sink.list()); n != 3 {
		t.Fatalf("%d events written, want 3", n)
	}
}

func TestBroadcaster_ShutdownFlushes(t *testing.T) {
	b, sink, r := startSink(t, Options{})
	var slow atomic.Int64
	sink.hook = func(string, *corev1.Event) error {
		slow.Add(1)
		time.Sleep(100 * time.Microsecond)
		return nil
	}
	for i := range 100 {
		r.Event(pod("ns1", fmt.Sprintf("p%d", i)), corev1.EventTypeNormal, "R", "m")
	}
	shutdown(t, b)
	if n := len(sink.list()); n != 100 {
		t.Fatalf("%d events written before Shutdown returned, want 100", n)
	}
	r.Event(pod("ns1", "late"), corev1.EventTypeNormal, "R", "m")
	b.StartRecordingToSink(context.Background(), sink)
	if n := len(sink.list()); n != 100 || b.Stats().Dropped != 1 {
		t.Fatalf("after Shutdown: %d events, stats %+v", n, b.Stats())
	}
}

func TestBroadcaster_ShutdownDeadlineCancelsWrites(t *testing.T) {
	b, sink, r := startSink(t, Options{})
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	var once sync.Once
	sink.hook = func(string, *corev1.Event) error {
		once.Do(func() { close(entered) })
		<-release // a sink that ignores its context
		return nil
	}
	r.Event(pod("ns1", "p1"), corev1.EventTypeNormal, "R", "m")
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := b.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown: %v", err)
	}
}

func TestBroadcaster_StopsWithContext(t *testing.T) {
	b := NewBroadcaster(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	sink := newFakeSink()
	b.StartRecordingToSink(ctx, sink)
	cancel()
	eventually(t, "the sink to stop", func() bool {
		b.mu.RLock()
		defer b.mu.RUnlock()
		return len(b.watchers) == 0
	})
	b.NewRecorder(testSource()).Event(pod("ns1", "p1"), corev1.EventTypeNormal, "R", "m")
	shutdown(t, b)
	if len(sink.list()) != 0 || b.Stats().Dropped != 1 {
		t.Fatalf("stopped sink got events; stats %+v", b.Stats())
	}
}

func TestBroadcaster_EverySinkGetsEveryEvent(t *testing.T) {
	b := NewBroadcaster(Options{})
	s1, s2 := newFakeSink(), newFakeSink()
	b.StartRecordingToSink(context.Background(), s1)
	b.StartRecordingToSink(context.Background(), s2)
	r := b.NewRecorder(testSource())
	for range 3 {
		r.Event(pod("ns1", "p1"), corev1.EventTypeNormal, "R", "m")
	}
	shutdown(t, b)
	for i, s := range []*fakeSink{s1, s2} {
		if evs := s.list(); len(evs) != 1 || evs[0].Count != 3 {
			t.Fatalf("sink %d: %d events", i, len(evs))
		}
	}
}

// patch, update and create are the operations of the fake sink.
const (
	opCreate = "create"
	opUpdate = "update"
	opPatch  = "patch"
)

func TestBroadcaster_WriteFailures(t *testing.T) {
	transport := errors.New("connection refused")
	invalid := apierrors.NewInvalid(meta.GroupVersionKind{Kind: "Event"}, "e", nil)
	unavailable := apierrors.NewServiceUnavailable("busy")
	exists := apierrors.NewAlreadyExists(corev1.Resource("events"), "e")
	tests := []struct {
		name       string
		failures   map[string][]error // op → errors of its first calls
		wantOps    []string
		wantFailed int64
	}{
		{"transport errors are retried", map[string][]error{opCreate: {transport, transport}}, []string{opCreate, opCreate, opCreate}, 0},
		{"5xx is retried", map[string][]error{opCreate: {unavailable}}, []string{opCreate, opCreate}, 0},
		{"tries are bounded", map[string][]error{opCreate: {transport, transport, transport, transport}}, []string{opCreate, opCreate, opCreate}, 1},
		{"a rejected event is not retried", map[string][]error{opCreate: {invalid}}, []string{opCreate}, 1},
		{"a taken name is updated", map[string][]error{opCreate: {exists}}, []string{opCreate, opUpdate}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			var failed []error
			b, sink, r := startSink(t, Options{Clock: clock, MaxTries: 3, OnError: func(_ *corev1.Event, err error) { failed = append(failed, err) }})
			sink.hook = failFirst(tt.failures)
			stop := autoStep(clock, DefaultRetryInterval)
			defer stop()
			r.Event(pod("ns1", "p1"), corev1.EventTypeNormal, "R", "m")
			shutdown(t, b)
			var ops []string
			for _, c := range sink.callLog() {
				ops = append(ops, strings.Fields(c)[0])
			}
			if !slices.Equal(ops, tt.wantOps) || b.Stats().Failed != tt.wantFailed || len(failed) != int(tt.wantFailed) {
				t.Fatalf("ops %v, want %v; stats %+v, errors %v", ops, tt.wantOps, b.Stats(), failed)
			}
			if wantStored := 1 - int(tt.wantFailed); len(sink.list()) != wantStored {
				t.Fatalf("%d events stored, want %d", len(sink.list()), wantStored)
			}
		})
	}
}

func TestBroadcaster_PatchOfDeletedEventCreates(t *testing.T) {
	b, sink, r := startSink(t, Options{})
	r.Event(pod("ns1", "p1"), corev1.EventTypeNormal, "R", "m")
	eventually(t, "the first write", func() bool { return len(sink.list()) == 1 })
	sink.mu.Lock()
	clear(sink.events)
	sink.mu.Unlock()
	r.Event(pod("ns1", "p1"), corev1.EventTypeNormal, "R", "m")
	shutdown(t, b)
	evs := sink.list()
	if len(evs) != 1 || evs[0].Count != 2 {
		t.Fatalf("events %v", evs)
	}
	want := []string{"create " + evs[0].Name, "patch " + evs[0].Name, "create " + evs[0].Name}
	if calls := sink.callLog(); !slices.Equal(calls, want) {
		t.Fatalf("calls %v, want %v", calls, want)
	}
}

// failFirst fails the first calls of each operation with the errors given.
func failFirst(failures map[string][]error) func(string, *corev1.Event) error {
	var mu sync.Mutex
	calls := map[string]int{}
	return func(op string, _ *corev1.Event) error {
		mu.Lock()
		defer mu.Unlock()
		n := calls[op]
		calls[op]++
		if n < len(failures[op]) {
			return failures[op][n]
		}
		return nil
	}
}

// autoStep steps clock by d whenever something waits on it, until stopped.
func autoStep(clock *fakeClock, d time.Duration) (stop func()) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
				if clock.pending() > 0 {
					clock.Step(d)
				}
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}
