package component

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	authnv1 "platform.io/client/api/authentication/v1"
	authzv1 "platform.io/client/api/authorization/v1"
	"platform.io/client/rest"

	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/pkg/component/options"
	"platform.io/platform/pkg/component/server"
)

// writeKubeconfig writes a kubeconfig for the plain-HTTP server at url.
func writeKubeconfig(t *testing.T, url string) string {
	t.Helper()
	kc := rest.Kubeconfig{
		Clusters:       []rest.NamedCluster{{Name: "c", Cluster: rest.Cluster{Server: url}}},
		Users:          []rest.NamedUser{{Name: "u"}},
		Contexts:       []rest.NamedContext{{Name: "x", Context: rest.Context{Cluster: "c", User: "u"}}},
		CurrentContext: "x",
	}
	data, err := json.Marshal(kc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeFile writes data to a new file and returns its path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// backend is a fake review server. Tokens "<user>-token" authenticate as
// <user> in group devs; every other token is rejected. Access reviews
// allow everyone but system:anonymous and bob. Reading the authentication
// ConfigMap is forbidden.
type backend struct {
	*httptest.Server
	mu            sync.Mutex
	tokenReviews  int
	accessReviews int
	specs         []authzv1.SubjectAccessReviewSpec
}

func newBackend(t *testing.T) *backend {
	b := &backend{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /apis/authentication.platform.io/v1/tokenreviews", b.tokenReview)
	mux.HandleFunc("POST /apis/authorization.platform.io/v1/subjectaccessreviews", b.accessReview)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,"message":"forbidden"}`)
	})
	b.Server = httptest.NewServer(mux)
	t.Cleanup(b.Close)
	return b
}

func (b *backend) tokenReview(w http.ResponseWriter, r *http.Request) {
	var tr authnv1.TokenReview
	if err := json.NewDecoder(r.Body).Decode(&tr); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	b.mu.Lock()
	b.tokenReviews++
	b.mu.Unlock()
	if user, ok := strings.CutSuffix(tr.Spec.Token, "-token"); ok && user != "" {
		tr.Status = authnv1.TokenReviewStatus{Authenticated: true, User: authnv1.UserInfo{Username: user, Groups: []string{"devs"}}}
	} else {
		tr.Status = authnv1.TokenReviewStatus{Error: "unknown token"}
	}
	tr.Spec.Token = ""
	reply(w, tr)
}

func (b *backend) accessReview(w http.ResponseWriter, r *http.Request) {
	var sar authzv1.SubjectAccessReview
	if err := json.NewDecoder(r.Body).Decode(&sar); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	b.mu.Lock()
	b.accessReviews++
	b.specs = append(b.specs, sar.Spec)
	b.mu.Unlock()
	switch sar.Spec.User {
	case "system:anonymous", "bob":
		sar.Status = authzv1.SubjectAccessReviewStatus{Reason: "not on the list"}
	default:
		sar.Status = authzv1.SubjectAccessReviewStatus{Allowed: true}
	}
	reply(w, sar)
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(v)
}

// counts returns the reviews received so far.
func (b *backend) counts() (tokenReviews, accessReviews int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tokenReviews, b.accessReviews
}

// lastSpec returns the last access review received.
func (b *backend) lastSpec(t *testing.T) authzv1.SubjectAccessReviewSpec {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.specs) == 0 {
		t.Fatal("no access review received")
	}
	return b.specs[len(b.specs)-1]
}

// daemon is a running secure endpoint built from the shared options.
type daemon struct {
	url   string
	roots *x509.CertPool
}

// configure parses args into the scheduler's options and applies them.
func configure(t *testing.T, args ...string) (server.Config, *prometheus.Registry, error) {
	t.Helper()
	o := options.New(options.SchedulerDefaults(), nil)
	fs := pflag.NewFlagSet("daemon", pflag.ContinueOnError)
	for _, g := range o.Groups() {
		fs.AddFlagSet(g.Set)
	}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if errs := o.Validate(); len(errs) > 0 {
		t.Fatalf("%v", errs)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	o.SecureServing.Listener = l
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	reg := prometheus.NewRegistry()
	var cfg server.Config
	err = o.ApplyTo(ctx, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)), reg, &cfg)
	return cfg, reg, err
}

// startDaemon serves the options args describe until the test ends.
func startDaemon(t *testing.T, args ...string) *daemon {
	t.Helper()
	cfg, reg, err := configure(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)), reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	roots := x509.NewCertPool()
	roots.AddCert(cfg.Cert.Leaf)
	return &daemon{url: "https://" + cfg.Listener.Addr().String(), roots: roots}
}

// request is how a test calls the daemon.
type request struct {
	token   string
	cert    *certs.Pair
	headers map[string][]string
}

// get sends GET path and returns the code and body.
func (d *daemon) get(t *testing.T, path string, r request) (int, string) {
	t.Helper()
	cfg := &tls.Config{RootCAs: d.roots}
	if r.cert != nil {
		cfg.Certificates = []tls.Certificate{{Certificate: [][]byte{r.cert.Cert.Raw}, PrivateKey: r.cert.Key}}
	}
	tr := &http.Transport{TLSClientConfig: cfg, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	req, err := http.NewRequest("GET", d.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range r.headers {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// pki holds the certificates of the tests.
type pki struct {
	clientCA, proxyCA, otherCA *certs.Pair
	carol, proxy, intruder     *certs.Pair
	stranger                   *certs.Pair
}

func newPKI(t *testing.T) *pki {
	t.Helper()
	must := func(p *certs.Pair, err error) *certs.Pair {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := &pki{}
	p.clientCA, p.proxyCA, p.otherCA = must(certs.NewCA("client-ca")), must(certs.NewCA("front-proxy-ca")), must(certs.NewCA("other"))
	p.carol = must(certs.NewClient(p.clientCA, "carol", []string{"ops"}))
	p.proxy = must(certs.NewClient(p.proxyCA, "front-proxy", nil))
	p.intruder = must(certs.NewClient(p.proxyCA, "intruder", nil))
	p.stranger = must(certs.NewClient(p.otherCA, "stranger", nil))
	return p
}
