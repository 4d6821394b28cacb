package rest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func okServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRateLimitFakeClock sends 50 requests at QPS 100, burst 1: the first
// takes the one token, each other one waits 10ms for its own.
func TestRateLimitFakeClock(t *testing.T) {
	srv := okServer(t)
	tests := []struct {
		name      string
		qps       float32
		burst     int
		wantTotal time.Duration
	}{
		{"qps 100 burst 1", 100, 1, 49 * 10 * time.Millisecond},
		{"qps 100 burst 10", 100, 10, 40 * 10 * time.Millisecond},
		{"default 5/10", 0, 0, 40 * 200 * time.Millisecond},
		{"unlimited", -1, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock, metrics := newFakeClock(), &waitMetrics{}
			c := testClient(t, srv, func(c *Config) { c.QPS, c.Burst, c.Clock, c.Metrics = tt.qps, tt.burst, clock, metrics })
			start := clock.Now()
			for i := range 50 {
				if err := c.Get().AbsPath("/healthz").Do(t.Context()).Error(); err != nil {
					t.Fatalf("request %d: %v", i, err)
				}
			}
			elapsed := clock.Now().Sub(start)
			if !within(elapsed, tt.wantTotal, 0.05) {
				t.Errorf("50 requests took %v of clock time, want %v ±5%%", elapsed, tt.wantTotal)
			}
			total, n := metrics.total()
			if n != 50 || !within(total, tt.wantTotal, 0.05) {
				t.Errorf("metrics saw %d waits totalling %v, want 50 totalling %v", n, total, tt.wantTotal)
			}
		})
	}
}

func within(got, want time.Duration, frac float64) bool {
	diff := float64(got - want)
	return diff <= frac*float64(want) && -diff <= frac*float64(want)
}

// TestRateLimitWallClock checks the bucket under concurrency on the real
// clock: 50 requests from 5 goroutines at QPS 100, burst 1, cannot finish
// before 490ms less 5%.
func TestRateLimitWallClock(t *testing.T) {
	srv := okServer(t)
	metrics := &waitMetrics{}
	c := testClient(t, srv, func(c *Config) { c.QPS, c.Burst, c.Clock, c.Metrics = 100, 1, realClock{}, metrics })
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 5 {
		wg.Go(func() {
			for range 10 {
				errs <- c.Get().AbsPath("/healthz").Do(t.Context()).Error()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	const want = 490 * time.Millisecond
	if elapsed < want-want/20 {
		t.Errorf("50 requests at QPS 100 took %v, want at least %v", elapsed, want-want/20)
	}
	if elapsed > 10*want {
		t.Errorf("50 requests at QPS 100 took %v, far over %v", elapsed, want)
	}
	if _, n := metrics.total(); n != 50 {
		t.Errorf("metrics saw %d waits, want 50", n)
	}
}

// TestRateLimitRespectsContext checks that a request waiting for a token
// gives up when its context ends, and gives the token back.
func TestRateLimitRespectsContext(t *testing.T) {
	srv := okServer(t)
	c := testClient(t, srv, func(c *Config) { c.QPS, c.Burst, c.Clock = 0.01, 1, realClock{} })
	if err := c.Get().AbsPath("/healthz").Do(t.Context()).Error(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Get().AbsPath("/healthz").Do(ctx).Error()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want the deadline's", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Fatalf("waited %v for a token past the deadline", elapsed)
	}
}

func TestRetriesWaitForTokens(t *testing.T) {
	h, count := failing(3, 429, func() string { return "0" })
	srv := httptest.NewServer(h)
	defer srv.Close()
	clock, metrics := newFakeClock(), &waitMetrics{}
	c := testClient(t, srv, func(c *Config) { c.QPS, c.Burst, c.Clock, c.Metrics = 10, 1, clock, metrics })
	if err := c.Get().AbsPath("/healthz").Do(t.Context()).Error(); err != nil {
		t.Fatal(err)
	}
	total, n := metrics.total()
	if count.Load() != 4 || n != 4 || !within(total, 300*time.Millisecond, 0.01) {
		t.Fatalf("attempts %d, token waits %d totalling %v; want 4, 4, 300ms", count.Load(), n, total)
	}
}

// TestWithOwnRateLimit: a derived client's requests take no tokens from
// the original's bucket, and it has a full bucket of its own.
func TestWithOwnRateLimit(t *testing.T) {
	srv := okServer(t)
	clock, metrics := newFakeClock(), &waitMetrics{}
	c := testClient(t, srv, func(c *Config) { c.QPS, c.Burst, c.Clock, c.Metrics = 10, 5, clock, metrics })
	own := c.WithOwnRateLimit()
	get := func(c *Client) {
		t.Helper()
		if err := c.Get().AbsPath("/healthz").Do(t.Context()).Error(); err != nil {
			t.Fatal(err)
		}
	}
	start := clock.Now()
	for range 5 {
		get(own)
	}
	if d := clock.Now().Sub(start); d != 0 {
		t.Fatalf("the derived client's burst of 5 waited %v", d)
	}
	for range 5 {
		get(c)
	}
	if d := clock.Now().Sub(start); d != 0 {
		t.Errorf("the original's burst of 5 waited %v after the derived client spent its own", d)
	}
	get(own)
	if d := clock.Now().Sub(start); !within(d, 100*time.Millisecond, 0.05) {
		t.Errorf("the derived client's sixth request waited %v, want 100ms (QPS 10)", d)
	}
}
