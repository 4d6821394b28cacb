package sacredentials

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"platform.io/client/rest"
)

// tokenServer answers the service account GET and its TokenRequests with
// tokens t1, t2, ... valid for an hour from now(), or 503 while failing.
type tokenServer struct {
	mu      sync.Mutex
	now     func() time.Time
	issued  int
	failing bool
}

func (s *tokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case s.failing:
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","code":503,"reason":"ServiceUnavailable"}`)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/namespaces/platform-system/serviceaccounts/a"):
		fmt.Fprint(w, `{"kind":"ServiceAccount","apiVersion":"v1","metadata":{"name":"a","namespace":"platform-system"}}`)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/namespaces/platform-system/serviceaccounts/a/token"):
		s.issued++
		_ = json.NewEncoder(w).Encode(map[string]any{"kind": "TokenRequest", "apiVersion": "authentication.platform.io/v1",
			"status": map[string]any{"token": fmt.Sprintf("t%d", s.issued), "expirationTimestamp": s.now().Add(time.Hour).UTC().Format(time.RFC3339)}})
	default:
		http.NotFound(w, r)
	}
}

func TestRefreshBeforeExpiry(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	srv := &tokenServer{now: clock}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	cfg := &rest.Config{Host: hs.URL, QPS: -1, MaxRetries: -1}
	rc, err := rest.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(zaptest.NewLogger(t), cfg, rc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	p.now = clock
	ctx := context.Background()
	loop, err := p.Config(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	token := func() string {
		b, err := os.ReadFile(loop.BearerTokenFile)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if token() != "t1" || loop.BearerToken != "" || loop.TLS.CertFile != "" {
		t.Fatalf("first token %q, config %v", token(), loop)
	}
	steps := []struct {
		name      string
		at        time.Duration // since the start
		failing   bool
		wantToken string
		wantNext  time.Duration
	}{
		{"not due yet", 47 * time.Minute, false, "t1", 48 * time.Minute},
		{"four fifths of its life: replaced", 48 * time.Minute, false, "t2", 96 * time.Minute},
		{"due but the server fails: retried soon", 96 * time.Minute, true, "t2", 96*time.Minute + retry},
		{"retry succeeds", 96*time.Minute + retry, false, "t3", 96*time.Minute + retry + 48*time.Minute},
	}
	start := now
	for _, st := range steps {
		now = start.Add(st.at)
		srv.mu.Lock()
		srv.failing = st.failing
		srv.mu.Unlock()
		next := p.refreshDue(ctx)
		if got := token(); got != st.wantToken {
			t.Errorf("%s: token %q, want %q", st.name, got, st.wantToken)
		}
		if got := next.Sub(start); got != st.wantNext {
			t.Errorf("%s: next refresh at +%v, want +%v", st.name, got, st.wantNext)
		}
	}
}
