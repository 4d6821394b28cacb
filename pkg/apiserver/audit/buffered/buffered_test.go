package buffered

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"

	"platform.io/platform/pkg/apiserver/audit"
)

// sink records the batches it gets; gate, when set, holds each batch.
type sink struct {
	mu      sync.Mutex
	batches [][]*auditv1.Event
	gate    chan struct{}
	ran     chan struct{}
}

func (s *sink) ProcessEvents(events ...*auditv1.Event) bool {
	if s.gate != nil {
		<-s.gate
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches = append(s.batches, events)
	return true
}

func (s *sink) Run(ctx context.Context) {
	<-ctx.Done()
	if s.ran != nil {
		close(s.ran)
	}
}
func (s *sink) String() string { return "sink" }

func (s *sink) sizes() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int
	for _, b := range s.batches {
		out = append(out, len(b))
	}
	return out
}

// waitFor polls cond every millisecond until it holds, failing the test
// after 5 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	timeout := time.After(5 * time.Second)
	for !cond() {
		select {
		case <-tick.C:
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func events(n int) []*auditv1.Event {
	out := make([]*auditv1.Event, n)
	for i := range out {
		out[i] = &auditv1.Event{AuditID: string(rune('a' + i))}
	}
	return out
}

func errorsOf(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "apiserver_audit_error_total" {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	return 0
}

// TestFullBufferDrops: ProcessEvents never waits; what does not fit is
// dropped and counted, and Run's end flushes the rest in batches.
func TestFullBufferDrops(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := audit.NewMetrics(reg)
	s := &sink{ran: make(chan struct{})}
	b := New(zap.NewNop(), s, Config{BufferSize: 3, MaxBatchSize: 2}, m)
	if !b.ProcessEvents(events(5)...) {
		t.Error("batch mode reported a failure")
	}
	if got := errorsOf(t, reg); got != 2 {
		t.Errorf("dropped %v, want 2", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b.Run(ctx)
	total := 0
	for _, n := range s.sizes() {
		if n > 2 {
			t.Errorf("batch of %d over the max of 2", n)
		}
		total += n
	}
	if total != 3 {
		t.Errorf("flushed %d events, want 3", total)
	}
	select {
	case <-s.ran:
	default:
		t.Error("the delegate's Run was not ended")
	}
}

// TestBatchesByMaxSize: queued events go out in batches of MaxBatchSize,
// and a lone event after MaxBatchWait.
func TestBatchesByMaxSize(t *testing.T) {
	s := &sink{}
	b := New(zap.NewNop(), s, Config{BufferSize: 100, MaxBatchSize: 4, MaxBatchWait: 20 * time.Millisecond}, nil)
	b.ProcessEvents(events(8)...)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.Run(ctx); close(done) }()
	waitFor(t, "two batches", func() bool { return len(s.sizes()) >= 2 })
	b.ProcessEvents(events(1)...)
	waitFor(t, "a third batch", func() bool { return len(s.sizes()) >= 3 })
	cancel()
	<-done
	got := s.sizes()
	if len(got) != 3 || got[0] != 4 || got[1] != 4 || got[2] != 1 {
		t.Errorf("batches %v, want [4 4 1]", got)
	}
}

// TestAsyncDoesNotHoldTheLoop: with AsyncDelegate a stuck delegate does
// not stop later batches from being taken, and Run waits for it.
func TestAsyncDoesNotHoldTheLoop(t *testing.T) {
	s := &sink{gate: make(chan struct{})}
	b := New(zap.NewNop(), s, Config{BufferSize: 1, MaxBatchSize: 1, AsyncDelegate: true}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.Run(ctx); close(done) }()
	for range 3 {
		// Each event leaves the one-slot buffer although no batch is done.
		waitFor(t, "an empty buffer", func() bool { return len(b.buffer) == 0 })
		b.ProcessEvents(events(1)...)
	}
	cancel()
	select {
	case <-done:
		t.Fatal("Run ended with batches in flight")
	case <-time.After(50 * time.Millisecond):
	}
	close(s.gate)
	<-done
	if got := len(s.sizes()); got != 3 {
		t.Errorf("%d batches delivered, want 3", got)
	}
}
