package authn

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	authnv1 "platform.io/client/api/authentication/v1"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/integration/framework"
)

// fixture is what the servers of the test trust: a client CA, a front
// proxy CA, a token file and a token webhook.
type fixture struct {
	dir                                     string
	clientCA, proxyCA, otherCA              *certs.Pair
	carol, proxy, outsider, expired, mallet tls.Certificate
	webhookConfig                           string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir()}
	f.clientCA, f.proxyCA, f.otherCA = newCA(t, "client-ca"), newCA(t, "proxy-ca"), newCA(t, "other-ca")
	f.carol = clientCert(t, f.clientCA, "carol", "devs")
	f.mallet = clientCert(t, f.otherCA, "mallet", "system:masters")
	f.proxy = clientCert(t, f.proxyCA, "front-proxy")
	f.outsider = clientCert(t, f.proxyCA, "outsider")
	f.expired = expiredCert(t, f.clientCA, "old")
	f.write(t, "client-ca.crt", string(f.clientCA.CertPEM))
	f.write(t, "proxy-ca.crt", string(f.proxyCA.CertPEM))
	f.write(t, "tokens.csv", "static-token,tim,1,\"devs,qa\"\n")
	hook := httptest.NewTLSServer(http.HandlerFunc(reviewTokens))
	t.Cleanup(hook.Close)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hook.Certificate().Raw})
	f.webhookConfig = f.write(t, "webhook.kubeconfig", fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: hook
  cluster: {server: %q, certificate-authority-data: %s}
contexts:
- name: hook
  context: {cluster: hook}
current-context: hook
`, hook.URL+"/review", base64.StdEncoding.EncodeToString(ca)))
	return f
}

// reviewTokens is the token webhook: hook-token is hank.
func reviewTokens(w http.ResponseWriter, r *http.Request) {
	var tr authnv1.TokenReview
	json.NewDecoder(r.Body).Decode(&tr)
	if tr.Spec.Token == "hook-token" {
		tr.Status = authnv1.TokenReviewStatus{Authenticated: true, User: authnv1.UserInfo{Username: "hank", Groups: []string{"hooked"}}}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(tr)
}

func (f *fixture) write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(f.dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func newCA(t *testing.T, name string) *certs.Pair {
	t.Helper()
	p, err := certs.NewCA(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func clientCert(t *testing.T, ca *certs.Pair, user string, groups ...string) tls.Certificate {
	t.Helper()
	p, err := certs.NewClient(ca, user, groups)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{p.Cert.Raw}, PrivateKey: p.Key}
}

func expiredCert(t *testing.T, ca *certs.Pair, user string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(42), Subject: pkix.Name{CommonName: user},
		NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// options configures a server with every method of the fixture.
func (f *fixture) options(modes ...string) framework.Option {
	return func(o *options.Options) {
		o.Authz.Modes = modes
		o.Authn.ClientCAFile = filepath.Join(f.dir, "client-ca.crt")
		o.Authn.TokenAuthFile = filepath.Join(f.dir, "tokens.csv")
		o.Authn.BootstrapToken = true
		o.Authn.WebhookConfigFile = f.webhookConfig
		o.Authn.RequestHeaderCAFile = filepath.Join(f.dir, "proxy-ca.crt")
		o.Authn.RequestHeaderAllowed = []string{"front-proxy"}
		o.Authn.RequestHeaderUsername = []string{"X-Remote-User"}
		o.Authn.RequestHeaderGroup = []string{"X-Remote-Group"}
	}
}

// bootstrapSecret creates bootstrap-token-abcdef (secret 0123456789abcdef)
// through the insecure port.
func bootstrapSecret(t *testing.T, s *framework.Server) {
	t.Helper()
	b64 := func(v string) string { return base64.StdEncoding.EncodeToString([]byte(v)) }
	s.Do(t, "POST", "/api/v1/namespaces/platform-system/secrets", map[string]any{
		"metadata": map[string]any{"name": "bootstrap-token-abcdef"},
		"type":     "bootstrap.platform.io/token",
		"data": map[string]string{
			"token-id": b64("abcdef"), "token-secret": b64("0123456789abcdef"),
			"usage-bootstrap-authentication": b64("true"),
			"expiration":                     b64(time.Now().Add(time.Hour).UTC().Format(time.RFC3339)),
			"auth-extra-groups":              b64("system:bootstrappers:nodes"),
		},
	}).Expect(t, http.StatusCreated)
}

// request is one way of calling the server.
type request struct {
	name    string
	cert    *tls.Certificate
	headers map[string]string
	// user is who the server must take the caller for ("" for a 401).
	user string
}

func (f *fixture) requests() []request {
	bearer := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
	proxied := map[string]string{"X-Remote-User": "pat", "X-Remote-Group": "proxied"}
	return []request{
		{name: "no credentials", user: "system:anonymous"},
		{name: "client certificate", cert: &f.carol, user: "carol"},
		{name: "certificate of another CA", cert: &f.mallet},
		{name: "expired certificate", cert: &f.expired},
		{name: "static token", headers: bearer("static-token"), user: "tim"},
		{name: "unknown token", headers: bearer("no-such-token")},
		{name: "bootstrap token", headers: bearer("abcdef.0123456789abcdef"), user: "system:bootstrap:abcdef"},
		{name: "bootstrap token, wrong secret", headers: bearer("abcdef.0123456789abcdee")},
		{name: "webhook token", headers: bearer("hook-token"), user: "hank"},
		{name: "front proxy", cert: &f.proxy, headers: proxied, user: "pat"},
		{name: "front proxy not allowed", cert: &f.outsider, headers: proxied},
		{name: "proxy headers without a proxy", headers: proxied, user: "system:anonymous"},
	}
}

// do sends GET path to the secure port as req.
func do(t *testing.T, s *framework.Server, req request, path string, extra map[string]string) (int, map[string]any) {
	t.Helper()
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: s.TLSConfig(t, req.cert)}}
	defer c.CloseIdleConnections()
	r, err := http.NewRequest("GET", s.SecureURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range req.headers {
		r.Header.Set(k, v)
	}
	for k, v := range extra {
		r.Header.Set(k, v)
	}
	resp, err := c.Do(r)
	if err != nil {
		t.Fatalf("%s: %v", req.name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var m map[string]any
	json.Unmarshal(body, &m)
	return resp.StatusCode, m
}

// get is one GET of a table test: as whom, which path, the status wanted.
type get struct {
	req  request
	path string
	want int
}

// expectGets sends each GET to s, failing t for each status that is not
// the one wanted.
func expectGets(t *testing.T, s *framework.Server, gets []get) {
	t.Helper()
	for _, g := range gets {
		if code, st := do(t, s, g.req, g.path, nil); code != g.want {
			t.Errorf("%s GET %s: %d %v, want %d", g.req.name, g.path, code, st, g.want)
		}
	}
}

// waitForOK waits until a GET of path as req answers 200.
func waitForOK(t *testing.T, s *framework.Server, what string, req request, path string) {
	t.Helper()
	waitFor(t, what, func() bool {
		code, _ := do(t, s, req, path, nil)
		return code == http.StatusOK
	})
}

// TestMethodsByMode: every method under AlwaysAllow (anonymous turned off)
// and AlwaysDeny (anonymous kept): a caller some method recognised is 200
// or 403 naming them, one no method recognised is 401 under AlwaysAllow
// and anonymous (403) under AlwaysDeny, and a failed method is always 401.
func TestMethodsByMode(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const path = "/api/v1/namespaces/default/configmaps"
	for _, mode := range []string{options.ModeAlwaysAllow, options.ModeAlwaysDeny} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			s := framework.Start(t, f.options(mode))
			bootstrapSecret(t, s)
			for _, req := range f.requests() {
				t.Run(req.name, func(t *testing.T) {
					code, st := do(t, s, req, path, nil)
					switch {
					case req.user == "" || (req.user == "system:anonymous" && mode == options.ModeAlwaysAllow):
						if code != http.StatusUnauthorized || st["reason"] != "Unauthorized" || st["message"] != "Unauthorized" {
							t.Errorf("got %d %v, want a 401 Unauthorized Status", code, st)
						}
					case mode == options.ModeAlwaysAllow:
						if code != http.StatusOK {
							t.Errorf("got %d %v, want 200", code, st)
						}
					default:
						want := fmt.Sprintf(`User %q cannot list resource "configmaps"`, req.user)
						if msg, _ := st["message"].(string); code != http.StatusForbidden || !strings.Contains(msg, want) {
							t.Errorf("got %d %v, want 403 saying %s", code, st, want)
						}
					}
				})
			}
			// Health, version, discovery and metrics go through the chain too.
			for _, p := range []string{"/healthz", "/readyz", "/livez", "/version", "/api", "/apis", "/openapi/v2", "/metrics"} {
				code, _ := do(t, s, request{name: p}, p, nil)
				want := map[string]int{options.ModeAlwaysAllow: 401, options.ModeAlwaysDeny: 403}[mode]
				if code != want {
					t.Errorf("anonymous GET %s: %d, want %d", p, code, want)
				}
				if code, _ := do(t, s, request{name: p, cert: &f.carol}, p, nil); mode == options.ModeAlwaysAllow && code != http.StatusOK {
					t.Errorf("carol GET %s: %d, want 200", p, code)
				}
			}
			// The insecure port is neither authenticated nor authorized.
			s.Do(t, "GET", path, nil).Expect(t, http.StatusOK)
		})
	}
}

// TestImpersonation: carol acts as another user when the authorizer lets
// her impersonate, and is refused with 403 when it does not.
func TestImpersonation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	allow := framework.Start(t, f.options(options.ModeAlwaysAllow))
	deny := framework.Start(t, f.options(options.ModeAlwaysDeny))
	carol := request{name: "carol", cert: &f.carol}
	as := map[string]string{"Impersonate-User": "bob", "Impersonate-Group": "ops"}
	if code, st := do(t, allow, carol, "/api/v1/namespaces/default/configmaps", as); code != http.StatusOK {
		t.Errorf("AlwaysAllow: %d %v, want 200", code, st)
	}
	code, st := do(t, deny, carol, "/api/v1/namespaces/default/configmaps", as)
	want := `users "bob" is forbidden: User "carol" cannot impersonate resource "users" in API group "" at the cluster scope`
	if msg, _ := st["message"].(string); code != http.StatusForbidden || !strings.Contains(msg, want) {
		t.Errorf("AlwaysDeny: %d %v, want 403 saying %s", code, st, want)
	}
	if code, _ := do(t, allow, request{name: "nobody"}, "/api", as); code != http.StatusUnauthorized {
		t.Errorf("impersonation without credentials: %d, want 401", code)
	}
}

// TestAnonymousOff: with --anonymous-auth=false a request without
// credentials is 401 under any mode.
func TestAnonymousOff(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := framework.Start(t, f.options(options.ModeAlwaysDeny), func(o *options.Options) { o.Authn.Anonymous = false })
	if code, st := do(t, s, request{name: "nobody"}, "/healthz", nil); code != http.StatusUnauthorized {
		t.Errorf("got %d %v, want 401", code, st)
	}
}
