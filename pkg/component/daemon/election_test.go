package daemon

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"platform.io/client/rest"
)

// TestElectionClient: the lock's client names itself in its user agent and
// takes no tokens from the work client's rate limiter, nor the work from it.
func TestElectionClient(t *testing.T) {
	var mu sync.Mutex
	var agents []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL, UserAgent: "testdaemon/v1.2.3", QPS: 0.1, Burst: 1}
	work, err := rest.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	election, err := electionClient(cfg, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	get := func(c *rest.Client) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		return c.Get().AbsPath("/api/v1/namespaces/platform-system/leases/x").Do(ctx).Error()
	}
	// The work spends its only token; the next token is 10 s away.
	if err := get(work); err != nil {
		t.Fatal(err)
	}
	if err := get(election); err != nil {
		t.Fatalf("the election waited for the work's rate limiter: %v", err)
	}
	if err := get(work); err == nil {
		t.Fatal("the work's rate limiter let a second request through at once; the test proves nothing")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(agents) != 2 || agents[0] != "testdaemon/v1.2.3" || agents[1] != "testdaemon/v1.2.3/leader-election" {
		t.Fatalf("user agents %q, want the work's then the election's with /leader-election", agents)
	}
}

// TestElectionClientFailsFast: a lock request is cut at the attempt
// timeout when the server does not answer, and is never retried by the
// client (the elector retries on its own schedule), whether the server
// refuses connections or asks to be retried later.
func TestElectionClientFailsFast(t *testing.T) {
	const attempt = 300 * time.Millisecond
	cases := []struct {
		name string
		// handler serves the lock; nil for a server that is down.
		handler  http.HandlerFunc
		wantHits int
	}{
		{"no answer", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body) // so the server notices the client leave
			<-r.Context().Done()
		}, 1},
		{"retry later", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		}, 1},
		{"down", nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			hits := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				hits++
				mu.Unlock()
				tc.handler(w, r)
			}))
			defer srv.Close()
			if tc.handler == nil {
				srv.Close() // the port now refuses connections
			}
			c, err := electionClient(&rest.Config{Host: srv.URL}, attempt)
			if err != nil {
				t.Fatal(err)
			}
			// The general client would retry the refused or deferred PUT
			// for seconds, and wait on a silent server until ctx ends.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			start := time.Now()
			err = c.Put().AbsPath("/apis/coordination.platform.io/v1/namespaces/platform-system/leases/x").
				Body([]byte(`{}`)).Do(ctx).Error()
			took := time.Since(start)
			if err == nil {
				t.Fatal("the request succeeded")
			}
			if took > attempt+time.Second {
				t.Errorf("the request failed after %v (%v), want within the attempt timeout %v", took, err, attempt)
			}
			mu.Lock()
			defer mu.Unlock()
			if hits != tc.wantHits {
				t.Errorf("%d requests reached the server, want %d", hits, tc.wantHits)
			}
		})
	}
}
