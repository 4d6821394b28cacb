package daemon

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/run"
	"platform.io/platform/pkg/component/version"
)

// TestUserAgent: the daemon's API client sends the build's version, the
// one version.Get reports, as its User-Agent.
func TestUserAgent(t *testing.T) {
	agents := make(chan string, 16)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/version" {
			agents <- r.UserAgent()
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer api.Close()
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
	if code := Execute(s, []string{"--master=" + api.URL, "--secure-port=0"}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit code %d, want 1; stderr: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stop after one request") {
		t.Fatalf("the request failed: %s", stderr.String())
	}
	got := <-agents
	if want := version.Get().UserAgent("test-daemon"); got != want {
		t.Errorf("User-Agent = %q, want %q", got, want)
	}
	if !strings.Contains(got, "/"+version.Get().GitVersion+" ") {
		t.Errorf("User-Agent %q does not carry the version %q", got, version.Get().GitVersion)
	}
}
