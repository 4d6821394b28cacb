package rest

import (
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
	"platform.io/client/codec/protobuf"
)

// fakeClock is a clock that moves only when waited on: After advances it by
// the wait at once, and records every wait.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.waits = append(c.waits, d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}

func (c *fakeClock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

// waitMetrics records the rate limiter waits reported to it.
type waitMetrics struct {
	mu    sync.Mutex
	waits []time.Duration
	verbs []string
}

func (m *waitMetrics) ObserveRateLimiterWait(verb, host string, wait time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.waits = append(m.waits, wait)
	m.verbs = append(m.verbs, verb)
}

func (m *waitMetrics) total() (time.Duration, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var sum time.Duration
	for _, w := range m.waits {
		sum += w
	}
	return sum, len(m.waits)
}

// testClient returns a Client for srv with no rate limit and a fake clock,
// after edit has adjusted its Config.
func testClient(t *testing.T, srv *httptest.Server, edit func(*Config)) *Client {
	t.Helper()
	cfg := &Config{Host: srv.URL, QPS: -1, Clock: newFakeClock()}
	if edit != nil {
		edit(cfg)
	}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// writeJSONStatus writes a StatusError as a JSON Status body.
func writeJSONStatus(w http.ResponseWriter, se *apierrors.StatusError) {
	st := se.Status()
	w.Header().Set("Content-Type", ContentTypeJSON)
	w.WriteHeader(int(st.Code))
	_ = json.NewEncoder(w).Encode(st)
}

// writeProtoStatus writes a StatusError as an enveloped protobuf Status.
func writeProtoStatus(w http.ResponseWriter, se *apierrors.StatusError) {
	st := se.Status()
	w.Header().Set("Content-Type", protobuf.MediaType)
	w.WriteHeader(int(st.Code))
	_, _ = w.Write(protobuf.Encode("v1", "Status", &st))
}

// protoFrame is one event of a protobuf watch stream.
func protoFrame(typ string, enveloped []byte) []byte {
	ev := &meta.WatchEvent{Type: typ, Object: enveloped}
	msg := ev.MarshalProto(make([]byte, 4))
	binary.BigEndian.PutUint32(msg, uint32(len(msg)-4))
	return msg
}
