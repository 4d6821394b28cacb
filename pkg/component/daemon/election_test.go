package daemon

import (
	"context"
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
	election, err := electionClient(cfg)
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
