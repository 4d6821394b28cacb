package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/component/version"
)

// TestUserAgent: every client of the daemon (the work client, and the
// review client that looks up the authentication settings) sends the
// build's version, the one version.Get reports, as its User-Agent.
func TestUserAgent(t *testing.T) {
	var mu sync.Mutex
	agents := map[string]string{} // by path
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		agents[r.URL.Path] = r.UserAgent()
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/configmaps/extension-apiserver-authentication") {
			_, _ = w.Write([]byte(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"extension-apiserver-authentication","namespace":"platform-system"}}`))
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	defer api.Close()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	kc := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: %s\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n", api.URL)
	if err := os.WriteFile(kubeconfig, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Spec{
		Name:       "test-daemon",
		Defaults:   options.ControllerManagerDefaults(),
		NewOptions: func() Options { return &fileOpts{color: "red"} },
		New: func(ctx context.Context, d *Deps) (run.Runnable, error) {
			if err := d.REST.Get().AbsPath("/version").Do(ctx).Error(); err != nil {
				return nil, err
			}
			return nil, errors.New("stop after one request")
		},
	}
	var stdout, stderr bytes.Buffer
	args := []string{"--kubeconfig=" + kubeconfig, "--authentication-kubeconfig=" + kubeconfig, "--authorization-kubeconfig=" + kubeconfig, "--secure-port=0"}
	if code := Execute(s, args, &stdout, &stderr); code != 1 {
		t.Fatalf("exit code %d, want 1; stderr: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stop after one request") {
		t.Fatalf("the daemon did not get to its request: %s", stderr.String())
	}
	want := version.Get().UserAgent("test-daemon")
	if !strings.Contains(want, "/"+version.Get().GitVersion+" ") {
		t.Fatalf("User-Agent %q does not carry the version %q", want, version.Get().GitVersion)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, path := range []string{"/version", "/api/v1/namespaces/platform-system/configmaps/extension-apiserver-authentication"} {
		if got, ok := agents[path]; !ok {
			t.Errorf("no request for %s; requests: %v", path, agents)
		} else if got != want {
			t.Errorf("%s: User-Agent = %q, want %q", path, got, want)
		}
	}
}
