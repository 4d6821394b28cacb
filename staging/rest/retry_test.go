package rest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	apierrors "platform.io/client/api/errors"
	"platform.io/client/api/meta"
)

// failing answers the first n requests with code and Retry-After (when not
// ""), then 200, counting every request.
func failing(n int32, code int, retryAfter func() string) (http.HandlerFunc, *atomic.Int32) {
	var count atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) <= n {
			if ra := retryAfter(); ra != "" {
				w.Header().Set("Retry-After", ra)
			}
			se := apierrors.FromHTTPStatus(int32(code), "busy", 0)
			if code == http.StatusTooManyRequests {
				se = apierrors.NewTooManyRequests("too many requests, please try again later", 1)
			}
			writeJSONStatus(w, se)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}, &count
}

func TestRetryAfter(t *testing.T) {
	clock := newFakeClock()
	date := clock.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		name         string
		fail         int32
		code         int
		retryAfter   string
		verb         string
		maxRetries   int
		wantAttempts int32
		wantWaits    []time.Duration
		wantErr      func(error) bool // nil: success
	}{
		{"429 honoured", 2, 429, "2", "GET", 0, 3, []time.Duration{2 * time.Second, 2 * time.Second}, nil},
		{"429 post retried", 1, 429, "1", "POST", 0, 2, []time.Duration{time.Second}, nil},
		{"503 honoured", 1, 503, "4", "PATCH", 0, 2, []time.Duration{4 * time.Second}, nil},
		{"http date", 1, 429, date, "GET", 0, 2, []time.Duration{3 * time.Second}, nil},
		{"429 exhausted", 100, 429, "1", "GET", 3, 4, []time.Duration{time.Second, time.Second, time.Second}, apierrors.IsTooManyRequests},
		{"429 default cap", 100, 429, "0", "PUT", 0, 11, make([]time.Duration, 0), apierrors.IsTooManyRequests},
		{"429 without header", 1, 429, "", "GET", 0, 1, nil, apierrors.IsTooManyRequests},
		{"503 without header", 1, 503, "", "GET", 0, 1, nil, apierrors.IsServiceUnavailable},
		{"500 with header", 1, 500, "1", "GET", 0, 1, nil, func(err error) bool { return apierrors.CodeForError(err) == 500 }},
		{"retries disabled", 1, 429, "1", "GET", -1, 1, nil, apierrors.IsTooManyRequests},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, count := failing(tt.fail, tt.code, func() string { return tt.retryAfter })
			srv := httptest.NewServer(h)
			defer srv.Close()
			clock := &fakeClock{now: clock.Now()}
			c := testClient(t, srv, func(c *Config) { c.Clock, c.MaxRetries = clock, tt.maxRetries })
			var st meta.Status
			err := c.Verb(tt.verb).Version("v1").Resource("things").Body(map[string]string{}).Do(t.Context()).Into(&st)
			if tt.wantErr == nil && err != nil {
				t.Fatalf("Do: %v", err)
			}
			if tt.wantErr != nil && !tt.wantErr(err) {
				t.Fatalf("error %v does not match", err)
			}
			if got := count.Load(); got != tt.wantAttempts {
				t.Errorf("attempts = %d, want %d", got, tt.wantAttempts)
			}
			waits := clock.Waits()
			if tt.name == "429 default cap" {
				if len(waits) != 0 {
					t.Errorf("a zero Retry-After waited %v", waits)
				}
				return
			}
			if len(waits) != len(tt.wantWaits) {
				t.Fatalf("waits = %v, want %v", waits, tt.wantWaits)
			}
			for i := range waits {
				if waits[i] != tt.wantWaits[i] {
					t.Errorf("wait %d = %v, want %v", i, waits[i], tt.wantWaits[i])
				}
			}
		})
	}
}

// hangUp closes the connection of the first n requests without a response.
func hangUp(t *testing.T, n int32) (*httptest.Server, *atomic.Int32) {
	var count atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) <= n {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Errorf("hijack: %v", err)
				return
			}
			conn.Close()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &count
}

func TestConnectionErrorRetries(t *testing.T) {
	tests := []struct {
		verb         string
		wantAttempts int32
		wantOK       bool
	}{
		{"GET", 3, true},
		{"HEAD", 3, true},
		{"PUT", 3, true},
		{"DELETE", 3, true},
		{"POST", 1, false},
		{"PATCH", 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.verb, func(t *testing.T) {
			srv, count := hangUp(t, 2)
			clock := newFakeClock()
			c := testClient(t, srv, func(c *Config) { c.Clock = clock })
			res := c.Verb(tt.verb).Version("v1").Resource("things").Name("a").Body([]byte(`{}`)).Do(t.Context())
			if ok := res.Error() == nil; ok != tt.wantOK {
				t.Fatalf("Do error = %v, want success %t", res.Error(), tt.wantOK)
			}
			if got := count.Load(); got != tt.wantAttempts {
				t.Errorf("attempts = %d, want %d", got, tt.wantAttempts)
			}
			if !tt.wantOK {
				var se *apierrors.StatusError
				if errors.As(res.Error(), &se) {
					t.Errorf("a connection error became a StatusError: %v", se)
				}
				return
			}
			checkBackoff(t, clock.Waits(), 2)
		})
	}
}

// checkBackoff checks n waits, each doubling from the default initial
// backoff, each shortened by at most a fifth.
func checkBackoff(t *testing.T, waits []time.Duration, n int) {
	t.Helper()
	if len(waits) != n {
		t.Fatalf("waits = %v, want %d", waits, n)
	}
	full := DefaultInitialBackoff
	for i, w := range waits {
		if w > full || w < full-full/5 {
			t.Errorf("wait %d = %v, want within (%v, %v]", i, w, full-full/5, full)
		}
		full = min(2*full, DefaultMaxBackoff)
	}
}

func TestConnectionRefusedRetries(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, tt := range []struct {
		verb      string
		wantWaits int
	}{{"GET", 4}, {"POST", 0}} {
		t.Run(tt.verb, func(t *testing.T) {
			clock := newFakeClock()
			c, err := NewClient(&Config{Host: "http://" + addr, QPS: -1, Clock: clock, MaxRetries: 4})
			if err != nil {
				t.Fatal(err)
			}
			res := c.Verb(tt.verb).AbsPath("/healthz").Do(t.Context())
			if res.Error() == nil {
				t.Fatal("a closed port answered")
			}
			if got := len(clock.Waits()); got != tt.wantWaits {
				t.Fatalf("retries = %d, want %d (%v)", got, tt.wantWaits, res.Error())
			}
			if tt.wantWaits > 0 {
				checkBackoff(t, clock.Waits(), tt.wantWaits)
			}
		})
	}
}

func TestContextStopsRetries(t *testing.T) {
	h, count := failing(1000, 429, func() string { return strconv.Itoa(30) })
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := testClient(t, srv, func(c *Config) { c.Clock = realClock{} })
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Get().Version("v1").Resource("things").Do(ctx).Error()
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Fatalf("Do returned after %v, not at the deadline", elapsed)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v does not wrap the context's", err)
	}
	if !apierrors.IsTooManyRequests(err) {
		t.Errorf("error %v does not keep the last attempt's", err)
	}
	if got := count.Load(); got != 1 {
		t.Errorf("attempts = %d, want 1", got)
	}

	done, stop := context.WithCancel(t.Context())
	stop()
	if err := c.Get().Version("v1").Resource("things").Do(done).Error(); !errors.Is(err, context.Canceled) {
		t.Errorf("a done context sent the request: %v", err)
	}
	if got := count.Load(); got != 1 {
		t.Errorf("attempts after a done context = %d, want 1", got)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		code   int
		header string
		want   time.Duration
		ok     bool
	}{
		{429, "7", 7 * time.Second, true},
		{503, "0", 0, true},
		{429, "-3", 0, true},
		{429, now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{429, now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{429, "soon", 0, false},
		{429, "", 0, false},
		{500, "1", 0, false},
		{200, "1", 0, false},
	}
	for _, tt := range tests {
		resp := &http.Response{StatusCode: tt.code, Header: http.Header{"Retry-After": {tt.header}}}
		got, ok := retryAfter(resp, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%d, %q) = %v, %t; want %v, %t", tt.code, tt.header, got, ok, tt.want, tt.ok)
		}
	}
}
