package webhook

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	auditv1 "platform.io/client/api/audit/v1"
)

func kubeconfig(t *testing.T, url string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "kubeconfig")
	doc := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: %s\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n", url)
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRetries: 429 and 5xx are retried up to five attempts in all; other
// failures are not.
func TestRetries(t *testing.T) {
	tests := []struct {
		name      string
		codes     []int // answers in turn; 200 after the list
		ok        bool
		wantCalls int32
	}{
		{"success", nil, true, 1},
		{"retried until it passes", []int{503, 429, 500}, true, 4},
		{"gives up after five", []int{500, 500, 500, 500, 500, 500}, false, 5},
		{"no retry on 400", []int{400}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1)) - 1
				if r.URL.Path != "/hook" {
					w.WriteHeader(404)
					return
				}
				if n < len(tt.codes) {
					w.WriteHeader(tt.codes[n])
					return
				}
				w.WriteHeader(200)
			}))
			defer srv.Close()
			b, err := New(zap.NewNop(), Config{KubeconfigPath: kubeconfig(t, srv.URL+"/hook"), APIVersion: "audit.platform.io/v1", InitialBackoff: time.Millisecond}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.ProcessEvents(&auditv1.Event{AuditID: "x"}); got != tt.ok {
				t.Errorf("ProcessEvents = %v, want %v", got, tt.ok)
			}
			if got := calls.Load(); got != tt.wantCalls {
				t.Errorf("%d calls, want %d", got, tt.wantCalls)
			}
		})
	}
}

// TestUnreachable: a webhook that cannot be reached is retried, then the
// events are reported lost.
func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	b, err := New(zap.NewNop(), Config{KubeconfigPath: kubeconfig(t, url+"/hook"), APIVersion: "audit.platform.io/v1", InitialBackoff: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if b.ProcessEvents(&auditv1.Event{AuditID: "x"}) {
		t.Error("an unreachable webhook reported success")
	}
	// Four waits of 1, 1.5, 2.25 and 3.375 ms at least: it was retried.
	if d := time.Since(start); d < 8*time.Millisecond {
		t.Errorf("gave up after %v, without the retries", d)
	}
}
