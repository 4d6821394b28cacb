package authn

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	authnv1 "platform.io/client/api/authentication/v1"

	"platform.io/platform/pkg/component/authn"
)

// reviewService is a token webhook over TLS: token "good" is alice,
// "broken" makes it fail with 500, any other is rejected.
type reviewService struct {
	mu       sync.Mutex
	calls    int
	versions []string
	paths    []string
}

func (s *reviewService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in authnv1.TokenReview
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.calls++
	s.versions = append(s.versions, in.APIVersion)
	s.paths = append(s.paths, r.URL.Path)
	s.mu.Unlock()
	out := authnv1.TokenReview{}
	out.APIVersion, out.Kind = in.APIVersion, "TokenReview"
	switch in.Spec.Token {
	case "good":
		out.Status = authnv1.TokenReviewStatus{Authenticated: true, User: authnv1.UserInfo{
			Username: "alice", UID: "u1", Groups: []string{"devs"}, Extra: map[string]authnv1.ExtraValue{"scope": {"x"}}}}
	case "broken":
		http.Error(w, "review backend down", http.StatusInternalServerError)
		return
	default:
		out.Status = authnv1.TokenReviewStatus{Error: "unknown token"}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func (s *reviewService) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// webhookConfig writes a kubeconfig-format file naming srv at path.
func webhookConfig(t *testing.T, srv *httptest.Server, path string) string {
	t.Helper()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: authn
  cluster:
    server: %s%s
    certificate-authority-data: %s
users:
- name: apiserver
  user:
    token: webhook-secret
contexts:
- name: authn
  context: {cluster: authn, user: apiserver}
current-context: authn
`, srv.URL, path, base64.StdEncoding.EncodeToString(ca))
	f := filepath.Join(t.TempDir(), "webhook.kubeconfig")
	if err := os.WriteFile(f, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestTokenWebhook(t *testing.T) {
	alice := &authn.User{Name: "alice", UID: "u1", Groups: []string{"devs"}, Extra: map[string][]string{"scope": {"x"}}}
	for _, version := range []string{WebhookV1beta1, WebhookV1} {
		t.Run(version, func(t *testing.T) {
			svc := &reviewService{}
			srv := httptest.NewTLSServer(svc)
			defer srv.Close()
			clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			w, err := NewTokenWebhook(zap.NewNop(), webhookConfig(t, srv, "/authenticate"), version, 2*time.Minute, clock.now)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()

			u, ok, err := w.AuthenticateToken(ctx, "good")
			if !ok || err != nil {
				t.Fatalf("good: ok=%v err=%v", ok, err)
			}
			if d := cmp.Diff(alice, u); d != "" {
				t.Errorf("user (-want +got):\n%s", d)
			}
			if svc.versions[0] != "authentication.platform.io/"+version || svc.paths[0] != "/authenticate" {
				t.Errorf("sent %s to %s, want authentication.platform.io/%s to /authenticate", svc.versions[0], svc.paths[0], version)
			}
			clock.step(time.Minute)
			if _, ok, _ := w.AuthenticateToken(ctx, "good"); !ok || svc.count() != 1 {
				t.Errorf("within the TTL: ok=%v, %d calls, want the cached answer (1 call)", ok, svc.count())
			}
			clock.step(time.Minute + time.Second)
			if _, ok, _ := w.AuthenticateToken(ctx, "good"); !ok || svc.count() != 2 {
				t.Errorf("after the TTL: ok=%v, %d calls, want a new review (2 calls)", ok, svc.count())
			}

			if _, ok, err := w.AuthenticateToken(ctx, "bad"); ok || err != nil {
				t.Errorf("denied token: ok=%v err=%v, want not recognised", ok, err)
			}
			w.AuthenticateToken(ctx, "bad")
			if svc.count() != 3 {
				t.Errorf("a denial is cached too: %d calls, want 3", svc.count())
			}

			for i := range 2 {
				if _, ok, err := w.AuthenticateToken(ctx, "broken"); ok || err == nil {
					t.Errorf("failing webhook, try %d: ok=%v err=%v, want an error", i, ok, err)
				}
			}
			if svc.count() != 5 {
				t.Errorf("errors must not be cached: %d calls, want 5", svc.count())
			}
		})
	}
}

func TestTokenWebhookNoCache(t *testing.T) {
	svc := &reviewService{}
	srv := httptest.NewTLSServer(svc)
	defer srv.Close()
	w, err := NewTokenWebhook(zap.NewNop(), webhookConfig(t, srv, ""), WebhookV1beta1, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, ok, err := w.AuthenticateToken(context.Background(), "good"); !ok || err != nil {
			t.Fatalf("ok=%v err=%v", ok, err)
		}
	}
	if svc.count() != 3 || svc.paths[0] != "/" {
		t.Errorf("TTL 0: %d calls to %v, want 3 to /", svc.count(), svc.paths)
	}
}

func TestTokenWebhookInChain(t *testing.T) {
	srv := httptest.NewTLSServer(&reviewService{})
	defer srv.Close()
	w, err := NewTokenWebhook(zap.NewNop(), webhookConfig(t, srv, "/"), WebhookV1, time.Minute, nil)
	if err != nil {
		t.Fatal(err)
	}
	chain := New(Config{Tokens: []TokenAuthenticator{w}, Anonymous: true})
	for _, tc := range []struct {
		token string
		ok    bool
	}{{"good", true}, {"bad", false}, {"broken", false}} {
		r := httptest.NewRequest("GET", "/api", nil)
		r.Header.Set("Authorization", "Bearer "+tc.token)
		u, ok, err := chain.AuthenticateRequest(r)
		if ok != tc.ok || (ok && u.Name != "alice") || (!ok && err == nil) {
			t.Errorf("token %s: user %+v ok=%v err=%v, want ok=%v", tc.token, u, ok, err, tc.ok)
		}
	}
}

func TestNewWebhookErrors(t *testing.T) {
	if _, err := NewWebhook(filepath.Join(t.TempDir(), "missing"), WebhookV1); err == nil {
		t.Error("missing config file accepted")
	}
	srv := httptest.NewTLSServer(&reviewService{})
	defer srv.Close()
	if _, err := NewWebhook(webhookConfig(t, srv, "/"), "v2"); err == nil {
		t.Error("version v2 accepted")
	}
}
