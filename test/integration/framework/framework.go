// Package framework starts a real API server in the test process, on
// random loopback ports, over the test etcd (embedded, or external with
// PLATFORM_TEST_ETCD), with a key prefix of its own so servers of parallel
// tests never see each other's data. The ServiceAccount admission plugin is
// off unless a test enables it. It also gives tests a small raw HTTP
// client that returns status codes and bodies as they are.
package framework

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/apiserver/server"
	"platform.io/platform/pkg/apiserver/storage/etcdtest"
)

var serial atomic.Int64

// Server is a running API server.
type Server struct {
	// URL is the plain-HTTP base URL, e.g. http://127.0.0.1:41234.
	URL string
	// SecureURL is the HTTPS base URL.
	SecureURL string
	// CertFile is the serving certificate.
	CertFile string
	// Prefix is the server's etcd key prefix.
	Prefix string
	Client *http.Client
	stop   func()
	once   sync.Once
}

// Option adjusts the options before the server starts.
type Option func(*options.Options)

// Start runs an API server until the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	o := options.New()
	o.Etcd.Servers = etcdtest.Endpoints(t)
	o.Etcd.Prefix = fmt.Sprintf("/it-%d-%d", time.Now().UnixNano(), serial.Add(1))
	o.Serving.SecurePort = 0
	o.Serving.InsecurePort = -1
	o.Serving.BindAddress = []byte{127, 0, 0, 1}
	o.Serving.CertDir = t.TempDir()
	for _, f := range opts {
		f(o)
	}
	withoutServiceAccountAdmission(o)
	if err := o.Complete(); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	lg := zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
	ctx, cancel := context.WithCancel(context.Background())
	s, err := server.New(ctx, lg, o)
	if err != nil {
		cancel()
		t.Fatalf("start API server: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	srv := &Server{
		URL:       "http://" + s.InsecureAddr().String(),
		SecureURL: "https://" + s.SecureAddr().String(),
		CertFile:  s.CertFile,
		Prefix:    o.Etcd.Prefix,
		Client:    &http.Client{Timeout: 30 * time.Second},
	}
	srv.stop = func() {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("API server: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("API server did not stop within 15s")
		}
	}
	t.Cleanup(srv.Stop)
	srv.WaitReady(t)
	return srv
}

// serviceAccountPlugin is the ServiceAccount admission plugin, on by
// default in the server.
const serviceAccountPlugin = "ServiceAccount"

// withoutServiceAccountAdmission turns the ServiceAccount admission plugin
// off unless the test enabled it (EnableAdmission), as upstream's test
// server does: no controller manager runs here to create each namespace's
// default service account, without which the plugin refuses every pod.
func withoutServiceAccountAdmission(o *options.Options) {
	if !slices.Contains(o.Admission.Enable, serviceAccountPlugin) && !slices.Contains(o.Admission.Disable, serviceAccountPlugin) {
		o.Admission.Disable = append(o.Admission.Disable, serviceAccountPlugin)
	}
}

// EnableAdmission turns admission plugins on: those off by default, and
// ServiceAccount, which Start otherwise turns off.
func EnableAdmission(names ...string) Option {
	return func(o *options.Options) {
		for _, n := range names {
			o.Admission.Disable = slices.DeleteFunc(o.Admission.Disable, func(d string) bool { return d == n })
			if !slices.Contains(o.Admission.Enable, n) {
				o.Admission.Enable = append(o.Admission.Enable, n)
			}
		}
	}
}

// Stop shuts the server down and waits for it to end; the data stays in
// etcd under Prefix. It is safe to call more than once, and runs anyway
// when the test ends.
func (s *Server) Stop() {
	s.once.Do(s.stop)
}

// SamePrefix makes a new server use the etcd key prefix of s, so it serves
// s's data, as s would after a restart.
func SamePrefix(s *Server) Option {
	return func(o *options.Options) { o.Etcd.Prefix = s.Prefix }
}

// EtcdServers points the server at an etcd of the test's own (one started
// with etcdtest.StartExternal and its extra flags, say) instead of the shared test etcd.
func EtcdServers(urls ...string) Option {
	return func(o *options.Options) { o.Etcd.Servers = urls }
}

// Secure returns a Server that sends its requests to s's secure port,
// trusting s's serving certificate, so that they are authenticated (by the
// Authorization header a test passes to Do) rather than served as
// system:masters on the insecure port.
func (s *Server) Secure(t testing.TB) *Server {
	t.Helper()
	return &Server{URL: s.SecureURL, SecureURL: s.SecureURL, CertFile: s.CertFile, Prefix: s.Prefix,
		Client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: s.TLSConfig(t, nil)}}}
}

// TLSConfig is a client's TLS configuration for the secure port: it
// trusts the server's certificate and, when cert is not nil, presents
// cert whatever authorities the server names (as curl does; Go's default
// keeps back a certificate of an authority the server does not list).
func (s *Server) TLSConfig(t testing.TB, cert *tls.Certificate) *tls.Config {
	t.Helper()
	pem, err := os.ReadFile(s.CertFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("no certificate in %s", s.CertFile)
	}
	c := &tls.Config{RootCAs: pool}
	if cert != nil {
		c.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return cert, nil }
	}
	return c
}

// WaitReady waits until /readyz passes and the system namespaces exist.
func (s *Server) WaitReady(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		r := s.Do(t, "GET", "/api/v1/namespaces/platform-node-lease", nil)
		if r.Code == http.StatusOK && s.Do(t, "GET", "/readyz", nil).Code == http.StatusOK {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("API server at %s not ready within 30s", s.URL)
}

// Response is a raw HTTP response.
type Response struct {
	Code   int
	Header http.Header
	Body   []byte
}

// Into decodes the body as JSON into v, failing t on error.
func (r Response) Into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %d response %q: %v", r.Code, truncate(r.Body), err)
	}
}

// Map decodes the body as a JSON object.
func (r Response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.Into(t, &m)
	return m
}

// Header pairs for Do.
type Header map[string]string

// Do sends a request with an optional body (a string, []byte, or any value
// encoded as JSON) and headers, and returns the response.
func (s *Server) Do(t testing.TB, method, path string, body any, headers ...Header) Response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, h := range headers {
		for k, v := range h {
			req.Header.Set(k, v)
		}
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return Response{Code: resp.StatusCode, Header: resp.Header, Body: data}
}

// Expect fails t unless the response has the code.
func (r Response) Expect(t testing.TB, code int) Response {
	t.Helper()
	if r.Code != code {
		t.Fatalf("got HTTP %d, want %d; body: %s", r.Code, code, truncate(r.Body))
	}
	return r
}

// ExpectStatus fails t unless the response is a Status with the code and reason.
func (r Response) ExpectStatus(t testing.TB, code int, reason string) map[string]any {
	t.Helper()
	r.Expect(t, code)
	m := r.Map(t)
	if m["kind"] != "Status" || m["reason"] != reason || m["code"] != float64(code) {
		t.Fatalf("want Status %d %s, got %s", code, reason, truncate(r.Body))
	}
	return m
}

func truncate(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "..."
	}
	return string(b)
}

// Eventually fails t unless cond holds within the time given, checking it
// every 20ms: the one condition wait of the integration suites.
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
