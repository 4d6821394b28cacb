package scheduler

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"platform.io/platform/cmd/scheduler/app"
	"platform.io/platform/test/integration/framework"
)

// TestInsecurePort checks the deprecated --port endpoint serves /healthz
// and /metrics (with the scheduler's metrics) and nothing else.
func TestInsecurePort(t *testing.T) {
	t.Parallel()
	srv := framework.Start(t)
	d := srv.Deps(t, "platform-scheduler")
	o := app.NewOptions()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.Port = l.Addr().(*net.TCPAddr).Port
	o.Address = "127.0.0.1"
	l.Close()
	d.Own = o
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := app.New(ctx, d); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", o.Port)
	tests := []struct {
		method, path string
		code         int
		contains     string
	}{
		{"GET", "/healthz", 200, "ok"},
		{"GET", "/metrics", 200, "scheduler_pending_pods"},
		{"GET", "/livez", 404, ""},
		{"GET", "/readyz", 404, ""},
		{"GET", "/debug/pprof/", 404, ""},
		{"GET", "/configz", 404, ""},
		{"GET", "/", 404, ""},
		{"POST", "/healthz", 405, ""},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, base+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.method, tc.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || !strings.Contains(string(body), tc.contains) {
			t.Errorf("%s %s: %d %.80q, want %d containing %q", tc.method, tc.path, resp.StatusCode, body, tc.code, tc.contains)
		}
	}
}
