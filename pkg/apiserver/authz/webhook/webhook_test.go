package webhook

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/component/authn"
)

// hook is a TLS webhook that answers by the user asked about and records
// what it received.
type hook struct {
	srv   *httptest.Server
	mu    sync.Mutex // mu guards calls and bodies
	calls int
	last  map[string]any
	path  string
}

func newHook(t *testing.T) *hook {
	h := &hook{}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hook) serve(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var in map[string]any
	_ = json.Unmarshal(data, &in)
	h.mu.Lock()
	h.calls++
	h.last, h.path = in, r.URL.Path
	h.mu.Unlock()
	spec, _ := in["spec"].(map[string]any)
	user, _ := spec["user"].(string)
	answer := func(status string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"apiVersion":%q,"kind":"SubjectAccessReview","status":%s}`, in["apiVersion"], status)
	}
	switch user {
	case "alice":
		answer(`{"allowed":true,"reason":"alice may"}`)
	case "mallory":
		answer(`{"allowed":false,"denied":true,"reason":"banned"}`)
	case "bob":
		answer(`{"allowed":false,"reason":"no rule"}`)
	case "broken":
		http.Error(w, "internal", http.StatusInternalServerError)
	case "garbage":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status": tru`)
	case "slow":
		<-r.Context().Done()
	}
}

func (h *hook) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls
}

// kubeconfig writes a kubeconfig naming the hook's URL path /authorize
// and trusting its certificate.
func (h *hook) kubeconfig(t *testing.T) string {
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: h.srv.Certificate().Raw})
	doc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: hook
  cluster:
    server: %s/authorize
    certificate-authority-data: %s
users:
- name: apiserver
  user:
    token: secret
contexts:
- name: hook
  context: {cluster: hook, user: apiserver}
current-context: hook
`, h.srv.URL, base64.StdEncoding.EncodeToString(ca))
	p := filepath.Join(t.TempDir(), "webhook.kubeconfig")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func pods(user string) authz.Attributes {
	return authz.Attributes{User: &authn.User{Name: user, UID: "7", Groups: []string{"devs"}, Extra: map[string][]string{"scopes": {"x"}}},
		Verb: "list", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Namespace: "ns"}
}

func TestDecisions(t *testing.T) {
	for _, version := range []string{V1beta1, V1} {
		t.Run(version, func(t *testing.T) {
			h := newHook(t)
			a, err := New(zap.NewNop(), Config{KubeconfigPath: h.kubeconfig(t), Version: version, Timeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			tests := []struct {
				user    string
				want    authz.Decision
				reason  string
				wantErr bool
			}{
				{"alice", authz.Allow, "alice may", false},
				{"mallory", authz.Deny, "banned", false},
				{"bob", authz.NoOpinion, "no rule", false},
				{"broken", authz.NoOpinion, "", true},
				{"garbage", authz.NoOpinion, "", true},
				{"slow", authz.NoOpinion, "", true},
			}
			for _, tt := range tests {
				got, reason, err := a.Authorize(context.Background(), pods(tt.user))
				if got != tt.want || reason != tt.reason || (err != nil) != tt.wantErr {
					t.Errorf("%s: got %v %q %v", tt.user, got, reason, err)
				}
			}
			// The review as the webhook received it.
			h.mu.Lock()
			defer h.mu.Unlock()
			if h.path != "/authorize" || h.last["apiVersion"] != "authorization.platform.io/"+version || h.last["kind"] != "SubjectAccessReview" {
				t.Errorf("posted %v to %s", h.last, h.path)
			}
			spec := h.last["spec"].(map[string]any)
			groups := "groups"
			if version == V1beta1 {
				groups = "group"
			}
			if fmt.Sprint(spec[groups]) != "[devs]" || spec["uid"] != "7" || fmt.Sprint(spec["extra"]) != "map[scopes:[x]]" {
				t.Errorf("spec %v lacks %s, uid or extra", spec, groups)
			}
			ra := spec["resourceAttributes"].(map[string]any)
			if ra["verb"] != "list" || ra["resource"] != "pods" || ra["namespace"] != "ns" || ra["version"] != "v1" {
				t.Errorf("resourceAttributes %v", ra)
			}
		})
	}
}

func TestNonResource(t *testing.T) {
	h := newHook(t)
	a, err := New(zap.NewNop(), Config{KubeconfigPath: h.kubeconfig(t)})
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := a.Authorize(context.Background(), authz.Attributes{User: &authn.User{Name: "alice"}, Verb: "get", Path: "/metrics"})
	if d != authz.Allow || err != nil {
		t.Fatalf("got %v %v", d, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	nra := h.last["spec"].(map[string]any)["nonResourceAttributes"].(map[string]any)
	if nra["path"] != "/metrics" || nra["verb"] != "get" || h.last["spec"].(map[string]any)["resourceAttributes"] != nil {
		t.Fatalf("posted %v", h.last)
	}
}

func TestCache(t *testing.T) {
	h := newHook(t)
	clk := &clock{t: time.Unix(1000, 0)}
	a, err := New(zap.NewNop(), Config{KubeconfigPath: h.kubeconfig(t), AllowTTL: DefaultAllowTTL, DenyTTL: DefaultDenyTTL, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(user string) {
		t.Helper()
		if _, _, err := a.Authorize(context.Background(), pods(user)); err != nil && user != "broken" {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name      string
		user      string
		advance   time.Duration
		wantCalls int
	}{
		{"first allow calls", "alice", 0, 1},
		{"allow cached", "alice", 4 * time.Minute, 1},
		{"first no opinion calls", "bob", 0, 2},
		{"no opinion cached", "bob", 29 * time.Second, 2},
		{"no opinion expires after 30s", "bob", time.Second, 3},
		{"allow still cached at 4m30s", "alice", 0, 3},
		{"allow expires after 5m", "alice", 31 * time.Second, 4},
		{"deny calls", "mallory", 0, 5},
		{"deny cached", "mallory", 10 * time.Second, 5},
		{"errors are not cached", "broken", 0, 6},
		{"errors are not cached, again", "broken", 0, 7},
	}
	for _, s := range steps {
		clk.advance(s.advance)
		ask(s.user)
		if got := h.count(); got != s.wantCalls {
			t.Fatalf("%s: %d calls, want %d", s.name, got, s.wantCalls)
		}
	}
	// Other attributes are another key.
	other := pods("alice")
	other.Verb = "delete"
	if _, _, err := a.Authorize(context.Background(), other); err != nil || h.count() != 8 {
		t.Fatalf("another verb: %v, %d calls", err, h.count())
	}
}

func TestNewErrors(t *testing.T) {
	h := newHook(t)
	if _, err := New(zap.NewNop(), Config{KubeconfigPath: h.kubeconfig(t), Version: "v2"}); err == nil || !strings.Contains(err.Error(), "v2") {
		t.Errorf("version v2: %v", err)
	}
	if _, err := New(zap.NewNop(), Config{KubeconfigPath: filepath.Join(t.TempDir(), "none")}); err == nil {
		t.Error("a missing kubeconfig was accepted")
	}
	a, _ := New(zap.NewNop(), Config{KubeconfigPath: h.kubeconfig(t)})
	if _, _, incomplete, err := a.RulesFor(context.Background(), &authn.User{Name: "x"}, "ns"); !incomplete || err == nil {
		t.Errorf("a webhook's rules: incomplete=%v err=%v", incomplete, err)
	}
}
