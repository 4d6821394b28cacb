package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestLifecycleRetryAfter(t *testing.T) {
	cases := []struct {
		name           string
		sendRetryAfter bool
		notAccepting   bool
		path           string
		want           int
	}{
		{"serving", true, false, "/api/v1/namespaces", http.StatusOK},
		{"draining without the flag", false, true, "/api/v1/namespaces", http.StatusOK},
		{"draining with the flag", true, true, "/api/v1/namespaces", http.StatusTooManyRequests},
		{"draining, a watch", true, true, "/api/v1/pods?watch=1", http.StatusTooManyRequests},
		{"draining, readyz answered", true, true, "/readyz", http.StatusOK},
		{"draining, livez answered", true, true, "/livez", http.StatusOK},
		{"draining, healthz answered", true, true, "/healthz", http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := &lifecycle{sendRetryAfter: tc.sendRetryAfter}
			l.notAccepting.Store(tc.notAccepting)
			h := withLifecycle(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), l)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", tc.path, nil))
			if rec.Code != tc.want {
				t.Fatalf("HTTP %d, want %d", rec.Code, tc.want)
			}
			if tc.want == http.StatusTooManyRequests {
				if got := rec.Header().Get("Retry-After"); got != "5" {
					t.Errorf("Retry-After %q, want 5", got)
				}
				if got := rec.Header().Get("Connection"); got != "close" {
					t.Errorf("Connection %q, want close", got)
				}
			}
		})
	}
}

func TestRequestGroupWait(t *testing.T) {
	var g requestGroup
	if !g.wait(context.Background()) {
		t.Fatal("wait with no request did not return at once")
	}
	g.add()
	g.add()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if g.wait(ctx) {
		t.Fatal("wait returned with requests in flight")
	}
	g.done()
	waited := make(chan bool)
	go func() { waited <- g.wait(context.Background()) }()
	g.done()
	if !<-waited {
		t.Fatal("wait did not return once the requests were done")
	}
}

// TestWatchesClosedOverGrace: watches end in turn, the last one at the end
// of the grace period; a watch registered after the closing began ends at
// once.
func TestWatchesClosedOverGrace(t *testing.T) {
	var s watchSet
	const n, grace = 3, 300 * time.Millisecond
	ended := make(chan time.Duration, n)
	var start time.Time
	for range n {
		ctx, cancel := context.WithCancel(context.Background())
		if !s.add(&cancel) {
			t.Fatal("add refused before closing")
		}
		go func() { <-ctx.Done(); ended <- time.Since(start) }()
	}
	start = time.Now()
	if got := s.closeAll(context.Background(), grace); got != n {
		t.Fatalf("closed %d, want %d", got, n)
	}
	var last time.Duration
	for i := range n {
		d := <-ended
		if min := grace * time.Duration(i+1) / n; d < min-time.Millisecond {
			t.Errorf("watch %d ended after %v, before %v", i, d, min)
		}
		last = max(last, d)
	}
	if last < grace {
		t.Errorf("the last watch ended after %v, before the grace period of %v", last, grace)
	}
	_, cancel := context.WithCancel(context.Background())
	defer cancel()
	if s.add(&cancel) {
		t.Error("a watch registered while closing was accepted")
	}
}

// TestFreshConnsCloseAll: only the connections still waiting for their
// first request are closed.
func TestFreshConnsCloseAll(t *testing.T) {
	var f freshConns
	conns := map[http.ConnState]net.Conn{}
	for _, st := range []http.ConnState{http.StateNew, http.StateActive, http.StateIdle, http.StateHijacked} {
		c, peer := net.Pipe()
		defer peer.Close()
		conns[st] = c
		f.track(c, http.StateNew)
		if st != http.StateNew {
			f.track(c, st)
		}
	}
	if n := f.closeAll(); n != 1 {
		t.Fatalf("closed %d connections, want 1", n)
	}
	for st, c := range conns {
		_ = c.SetWriteDeadline(time.Unix(1, 0)) // an open pipe fails at once too
		_, err := c.Write([]byte("x"))
		if closed := errors.Is(err, io.ErrClosedPipe); closed != (st == http.StateNew) {
			t.Errorf("%v connection: closed %v", st, closed)
		}
	}
}
