package server_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap/zaptest"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/server"
)

// running is a server started on a random loopback port.
type running struct {
	srv    *server.Server
	url    string
	admin  *http.Client // presents a system:masters certificate
	anon   *http.Client
	cancel context.CancelFunc
	done   chan error
}

// start runs a server built from options with profiling as given; a client
// CA is configured so the admin client is authenticated.
func start(t *testing.T, profiling bool) *running {
	t.Helper()
	dir := t.TempDir()
	ca, err := certs.NewCA("client-ca")
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(dir, "client-ca.crt")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	admin, err := certs.NewClient(ca, "admin", []string{"system:masters"})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := options.New(options.SchedulerDefaults(), nil)
	o.SecureServing.Listener, o.SecureServing.CertDir = l, dir
	o.Authentication.ClientCAFile = caFile
	o.Debugging.EnableProfiling = profiling
	lg := zaptest.NewLogger(t)
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: "test_marker_total", Help: "marker"}))
	var cfg server.Config
	if err := o.ApplyTo(context.Background(), lg, reg, &cfg); err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(lg, reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{srv: srv, url: "https://" + l.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- srv.Run(ctx) }()
	t.Cleanup(func() { r.stop(t) })
	pair, err := certs.Load(dir, "platform-scheduler")
	if err != nil {
		t.Fatalf("self-signed pair not kept in --cert-dir: %v", err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(pair.Cert)
	adminCert := tls.Certificate{Certificate: [][]byte{admin.Cert.Raw}, PrivateKey: admin.Key}
	r.anon = client(&tls.Config{RootCAs: roots})
	r.admin = client(&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{adminCert}})
	return r
}

func client(cfg *tls.Config) *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}}
}

func (r *running) stop(t *testing.T) {
	r.anon.CloseIdleConnections()
	r.admin.CloseIdleConnections()
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Errorf("Run did not return after cancel")
	}
}

func (r *running) get(t *testing.T, c *http.Client, path string) (int, string) {
	t.Helper()
	resp, err := c.Get(r.url + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestSecureServing(t *testing.T) {
	tests := []struct {
		name      string
		profiling bool
		admin     bool
		path      string
		wantCode  int
		contains  string
	}{
		{name: "healthz open to anonymous", path: "/healthz", wantCode: 200, contains: "ok"},
		{name: "healthz verbose", path: "/healthz?verbose", wantCode: 200, contains: "[+]leaderElection ok\nhealthz check passed"},
		{name: "livez needs authorization", path: "/livez", wantCode: 403, contains: `"reason":"Forbidden"`},
		{name: "readyz lists shutdown", admin: true, path: "/readyz?verbose", wantCode: 200, contains: "[+]shutdown ok"},
		{name: "metrics forbidden to anonymous", path: "/metrics", wantCode: 403, contains: `cannot get path \"/metrics\"`},
		{name: "metrics for system:masters", admin: true, path: "/metrics", wantCode: 200, contains: "test_marker_total 0"},
		{name: "pprof on", profiling: true, admin: true, path: "/debug/pprof/", wantCode: 200, contains: "goroutine"},
		{name: "pprof cmdline", profiling: true, admin: true, path: "/debug/pprof/cmdline", wantCode: 200},
		{name: "pprof off", admin: true, path: "/debug/pprof/", wantCode: 404},
		{name: "unknown path after authorization", admin: true, path: "/nope", wantCode: 404},
	}
	servers := map[bool]*running{false: start(t, false), true: start(t, true)}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := servers[tt.profiling]
			c := r.anon
			if tt.admin {
				c = r.admin
			}
			code, body := r.get(t, c, tt.path)
			if code != tt.wantCode || !strings.Contains(body, tt.contains) {
				t.Fatalf("GET %s = %d %q, want %d containing %q", tt.path, code, trim(body), tt.wantCode, tt.contains)
			}
		})
	}
}

func trim(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

func TestForbiddenIsAStatus(t *testing.T) {
	r := start(t, false)
	code, body := r.get(t, r.anon, "/metrics")
	var st meta.Status
	if err := json.Unmarshal([]byte(body), &st); err != nil || code != 403 || st.Kind != "Status" || st.Code != 403 {
		t.Fatalf("got %d %q (%v), want a 403 Status", code, body, err)
	}
}

func TestTLS(t *testing.T) {
	r := start(t, false)
	resp, err := r.admin.Get(r.url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ProtoMajor != 2 || resp.TLS.Version < tls.VersionTLS12 {
		t.Fatalf("negotiated %s over TLS %x, want HTTP/2 over TLS 1.2+", resp.Proto, resp.TLS.Version)
	}
	old := client(&tls.Config{InsecureSkipVerify: true, MaxVersion: tls.VersionTLS11})
	if _, err := old.Get(r.url + "/healthz"); err == nil {
		t.Fatal("a TLS 1.1 client was served")
	}
}

func TestLeaderElectionCheckAndShutdown(t *testing.T) {
	r := start(t, false)
	r.srv.SetLeaderElectionCheck(func(*http.Request) error { return errors.New("lease not renewed") })
	if code, body := r.get(t, r.anon, "/healthz"); code != 500 || !strings.Contains(body, "[-]leaderElection failed: reason withheld") {
		t.Fatalf("healthz = %d %q", code, body)
	}
	r.srv.SetLeaderElectionCheck(nil)
	r.srv.BeginShutdown()
	if code, body := r.get(t, r.admin, "/readyz"); code != 500 || !strings.Contains(body, "[-]shutdown failed") {
		t.Fatalf("readyz during shutdown = %d %q", code, body)
	}
	r.stop(t)
	if _, err := r.anon.Get(r.url + "/healthz"); err == nil {
		t.Fatal("served after Run returned")
	}
	r.cancel = func() {}
	r.done <- nil
}
