package authn

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	"platform.io/platform/pkg/component/authn"
	"platform.io/platform/pkg/component/certs"
)

// pki is the certificates of the chain's tests.
type pki struct {
	clientCA, proxyCA, otherCA *certs.Pair
	user, proxy, otherProxy    *x509.Certificate
	otherCAUser                *x509.Certificate
	expired, notYetValid       *x509.Certificate
	serverOnly                 *x509.Certificate
}

func newPKI(t *testing.T) *pki {
	t.Helper()
	ca := func(name string) *certs.Pair {
		p, err := certs.NewCA(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	client := func(ca *certs.Pair, user string, groups ...string) *x509.Certificate {
		p, err := certs.NewClient(ca, user, groups)
		if err != nil {
			t.Fatal(err)
		}
		return p.Cert
	}
	p := &pki{clientCA: ca("client-ca"), proxyCA: ca("proxy-ca"), otherCA: ca("other-ca")}
	p.user = client(p.clientCA, "bob", "ops", "admins")
	p.proxy = client(p.proxyCA, "front-proxy")
	p.otherProxy = client(p.proxyCA, "intruder")
	p.otherCAUser = client(p.otherCA, "mallory", "system:masters")
	now := time.Now()
	p.expired = signed(t, p.clientCA, "old", now.Add(-48*time.Hour), now.Add(-time.Hour), x509.ExtKeyUsageClientAuth)
	p.notYetValid = signed(t, p.clientCA, "early", now.Add(time.Hour), now.Add(48*time.Hour), x509.ExtKeyUsageClientAuth)
	p.serverOnly = signed(t, p.clientCA, "server", now.Add(-time.Hour), now.Add(time.Hour), x509.ExtKeyUsageServerAuth)
	return p
}

// signed makes a certificate of ca with the given validity and usage.
func signed(t *testing.T, ca *certs.Pair, cn string, from, to time.Time, usage x509.ExtKeyUsage) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: from, NotAfter: to, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.Key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func pool(p *certs.Pair) *x509.CertPool {
	cp := x509.NewCertPool()
	cp.AddCert(p.Cert)
	return cp
}

func tokenFile(t *testing.T, csv string) *TokenFile {
	t.Helper()
	tf, err := ParseTokenFile(strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	return tf
}

func TestChain(t *testing.T) {
	p := newPKI(t)
	full := func(anonymous bool) Config {
		return Config{
			RequestHeader: authn.NewRequestHeader(authn.RequestHeaderConfig{
				ClientCA: pool(p.proxyCA), AllowedNames: []string{"front-proxy"},
				UsernameHeaders: []string{"X-Remote-User"}, GroupHeaders: []string{"X-Remote-Group"},
				ExtraHeaderPrefixes: []string{"X-Remote-Extra-"},
			}),
			ClientCert: authn.NewClientCert(pool(p.clientCA)),
			Tokens:     []TokenAuthenticator{tokenFile(t, "tok-alice,alice,1,\"devs,qa\"\n")},
			Anonymous:  anonymous,
		}
	}
	proxyHeaders := map[string]string{"X-Remote-User": "carol", "X-Remote-Group": "g1", "X-Remote-Extra-Scope": "s"}
	bearer := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
	authed := func(name, uid string, groups ...string) *authn.User {
		return &authn.User{Name: name, UID: uid, Groups: append(groups, authn.AllAuthenticated)}
	}
	tests := []struct {
		name    string
		cfg     Config
		cert    *x509.Certificate
		headers map[string]string
		want    *authn.User
		wantErr bool
		// left are headers that must be gone after authentication.
		gone []string
	}{
		{name: "nothing, anonymous on", cfg: full(true), want: authn.AnonymousUser()},
		{name: "nothing, anonymous off", cfg: full(false), wantErr: true},
		{name: "no methods, anonymous on", cfg: Config{Anonymous: true}, headers: bearer("x"), want: authn.AnonymousUser()},
		{name: "client certificate", cfg: full(false), cert: p.user, want: authed("bob", "", "ops", "admins")},
		{name: "certificate of another CA", cfg: full(true), cert: p.otherCAUser, wantErr: true},
		{name: "expired certificate", cfg: full(true), cert: p.expired, wantErr: true},
		{name: "certificate not yet valid", cfg: full(true), cert: p.notYetValid, wantErr: true},
		{name: "certificate for server auth only", cfg: full(true), cert: p.serverOnly, wantErr: true},
		{name: "front proxy", cfg: full(false), cert: p.proxy, headers: proxyHeaders,
			want: &authn.User{Name: "carol", Groups: []string{"g1", authn.AllAuthenticated}, Extra: map[string][]string{"scope": {"s"}}},
			gone: []string{"X-Remote-User", "X-Remote-Group", "X-Remote-Extra-Scope"}},
		{name: "proxy not among the allowed names", cfg: full(true), cert: p.otherProxy, headers: proxyHeaders, wantErr: true},
		{name: "proxy headers without a certificate are dropped", cfg: full(true), headers: proxyHeaders,
			want: authn.AnonymousUser(), gone: []string{"X-Remote-User", "X-Remote-Group", "X-Remote-Extra-Scope"}},
		{name: "proxy headers with a user's certificate name the certificate's user", cfg: full(false), cert: p.user, headers: proxyHeaders,
			want: authed("bob", "", "ops", "admins"), gone: []string{"X-Remote-User", "X-Remote-Group", "X-Remote-Extra-Scope"}},
		{name: "token", cfg: full(false), headers: bearer("tok-alice"), want: authed("alice", "1", "devs", "qa")},
		{name: "unknown token is never anonymous", cfg: full(true), headers: bearer("nope"), wantErr: true},
		{name: "empty bearer is no token", cfg: full(true), headers: bearer(""), want: authn.AnonymousUser()},
		{name: "certificate before token", cfg: full(false), cert: p.user, headers: bearer("tok-alice"), want: authed("bob", "", "ops", "admins")},
		{name: "a failed method does not hide a later success", cfg: full(false), cert: p.otherCAUser, headers: bearer("tok-alice"),
			want: authed("alice", "1", "devs", "qa")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api", nil)
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			if tc.cert != nil {
				r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{tc.cert}}
			}
			u, ok, err := New(tc.cfg).AuthenticateRequest(r)
			if tc.wantErr {
				if ok || err == nil {
					t.Fatalf("got %+v, %v, %v; want an error", u, ok, err)
				}
				return
			}
			if !ok || err != nil {
				t.Fatalf("got ok=%v err=%v, want %+v", ok, err, tc.want)
			}
			if d := cmp.Diff(tc.want, u); d != "" {
				t.Errorf("user (-want +got):\n%s", d)
			}
			for _, h := range tc.gone {
				if v := r.Header.Get(h); v != "" {
					t.Errorf("header %s = %q still there", h, v)
				}
			}
		})
	}
}

func TestWithAuthentication(t *testing.T) {
	chain := New(Config{Tokens: []TokenAuthenticator{tokenFile(t, "good,alice,1\n")}})
	var seen *authn.User
	var seenAuthz string
	h := WithAuthentication(zap.NewNop(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen, _ = authn.UserFrom(r.Context())
		seenAuthz = r.Header.Get("Authorization")
	}), chain)

	for _, tc := range []struct{ name, header string }{{"no credentials", ""}, {"bad token", "Bearer bad"}} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest("GET", "/api/v1/pods", nil)
			if tc.header != "" {
				r.Header.Set("Authorization", tc.header)
			}
			h.ServeHTTP(w, r)
			if w.Code != http.StatusUnauthorized {
				t.Fatalf("code %d, want 401", w.Code)
			}
			var st map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil {
				t.Fatal(err)
			}
			want := map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
				"message": "Unauthorized", "reason": "Unauthorized", "code": float64(401)}
			if d := cmp.Diff(want, st); d != "" {
				t.Errorf("401 body (-want +got):\n%s", d)
			}
		})
	}

	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/api/v1/pods", nil)
	r.Header.Set("Authorization", "Bearer good")
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK || seen == nil || seen.Name != "alice" {
		t.Fatalf("good token: code %d user %+v", w.Code, seen)
	}
	if seenAuthz != "" {
		t.Errorf("the handler saw Authorization %q; it must be removed", seenAuthz)
	}
}
