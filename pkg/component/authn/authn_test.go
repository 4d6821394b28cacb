package authn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"

	authnv1 "platform.io/client/api/authentication/v1"

	"platform.io/platform/pkg/component/certs"
)

// fakeReviewer accepts the token "good" as user alice and counts calls.
type fakeReviewer struct {
	mu    sync.Mutex
	calls int
	err   error
}

func (f *fakeReviewer) Review(_ context.Context, token string) (authnv1.TokenReviewStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.err != nil {
		return authnv1.TokenReviewStatus{}, f.err
	}
	if token != "good" {
		return authnv1.TokenReviewStatus{Error: "unknown token"}, nil
	}
	return authnv1.TokenReviewStatus{Authenticated: true, User: authnv1.UserInfo{
		Username: "alice", UID: "1", Groups: []string{"devs"}, Extra: map[string]authnv1.ExtraValue{"scope": {"a"}},
	}}, nil
}

type fixture struct {
	clientCA, proxyCA *certs.Pair
	user, proxy       *certs.Pair
	otherProxy        *certs.Pair
	clientPool        *x509.CertPool
	proxyPool         *x509.CertPool
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	must := func(p *certs.Pair, err error) *certs.Pair {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	f := &fixture{}
	f.clientCA = must(certs.NewCA("client-ca"))
	f.proxyCA = must(certs.NewCA("proxy-ca"))
	f.user = must(certs.NewClient(f.clientCA, "bob", []string{"ops", "admins"}))
	f.proxy = must(certs.NewClient(f.proxyCA, "front-proxy", nil))
	f.otherProxy = must(certs.NewClient(f.proxyCA, "intruder", nil))
	f.clientPool, f.proxyPool = x509.NewCertPool(), x509.NewCertPool()
	f.clientPool.AddCert(f.clientCA.Cert)
	f.proxyPool.AddCert(f.proxyCA.Cert)
	return f
}

func TestDelegatingAuthenticator(t *testing.T) {
	f := newFixture(t)
	full := func() Config {
		return Config{
			ClientCA: f.clientPool,
			RequestHeader: &RequestHeaderConfig{
				ClientCA: f.proxyPool, AllowedNames: []string{"front-proxy"},
				UsernameHeaders: []string{"X-Remote-User"}, GroupHeaders: []string{"X-Remote-Group"},
				ExtraHeaderPrefixes: []string{"X-Remote-Extra-"},
			},
			TokenReviewer: &fakeReviewer{}, TokenSuccessTTL: time.Minute, TokenFailureTTL: time.Minute,
		}
	}
	proxyHeaders := map[string][]string{
		"X-Remote-User": {"carol"}, "X-Remote-Group": {"g1", "g2"}, "X-Remote-Extra-Acme.com%2fproject": {"p"},
	}
	tests := []struct {
		name    string
		cfg     Config
		cert    *certs.Pair
		headers map[string][]string
		want    *User
		wantErr bool
	}{
		{name: "no credentials is anonymous", cfg: full(), want: AnonymousUser()},
		{name: "client certificate", cfg: full(), cert: f.user,
			want: &User{Name: "bob", Groups: []string{"ops", "admins", AllAuthenticated}}},
		{name: "certificate of another CA fails", cfg: full(), cert: f.proxy, wantErr: true},
		{name: "certificate without a client CA is anonymous", cfg: Config{}, cert: f.user, want: AnonymousUser()},
		{name: "proxy headers from a verified proxy", cfg: full(), cert: f.proxy, headers: proxyHeaders,
			want: &User{Name: "carol", Groups: []string{"g1", "g2", AllAuthenticated}, Extra: map[string][]string{"acme.com/project": {"p"}}}},
		{name: "proxy headers without a certificate are ignored", cfg: full(), headers: proxyHeaders, want: AnonymousUser()},
		{name: "proxy headers with a client certificate name the certificate's user", cfg: full(), cert: f.user, headers: proxyHeaders,
			want: &User{Name: "bob", Groups: []string{"ops", "admins", AllAuthenticated}}},
		{name: "proxy certificate not in allowed names fails", cfg: full(), cert: f.otherProxy, headers: proxyHeaders, wantErr: true},
		{name: "good token", cfg: full(), headers: map[string][]string{"Authorization": {"Bearer good"}},
			want: &User{Name: "alice", UID: "1", Groups: []string{"devs", AllAuthenticated}, Extra: map[string][]string{"scope": {"a"}}}},
		{name: "bad token fails", cfg: full(), headers: map[string][]string{"Authorization": {"Bearer bad"}}, wantErr: true},
		{name: "token without a reviewer is anonymous", cfg: Config{}, headers: map[string][]string{"Authorization": {"Bearer good"}},
			want: AnonymousUser()},
		{name: "basic auth is not a token", cfg: full(), headers: map[string][]string{"Authorization": {"Basic Zm9vOmJhcg=="}},
			want: AnonymousUser()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/metrics", nil)
			for k, v := range tt.headers {
				r.Header[http.CanonicalHeaderKey(k)] = v
			}
			if tt.cert != nil {
				r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{tt.cert.Cert}}
			}
			u, ok, err := New(zap.NewNop(), tt.cfg).AuthenticateRequest(r)
			if tt.wantErr {
				if err == nil || ok {
					t.Fatalf("got %+v, %v, %v; want an error", u, ok, err)
				}
				return
			}
			if err != nil || !ok {
				t.Fatalf("got %v, %v", ok, err)
			}
			if diff := cmp.Diff(tt.want, u); diff != "" {
				t.Fatalf("user (-want +got):\n%s", diff)
			}
			if tt.want.Name == "carol" && (r.Header.Get("X-Remote-User") != "" || len(r.Header) != 0) {
				t.Fatalf("identity headers left on the request: %v", r.Header)
			}
		})
	}
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestTokenCache(t *testing.T) {
	tests := []struct {
		name      string
		token     string
		advance   time.Duration
		reviewErr error
		wantCalls int
		wantOK    bool
	}{
		{name: "success cached", token: "good", advance: 9 * time.Second, wantCalls: 1, wantOK: true},
		{name: "success expires", token: "good", advance: 10 * time.Second, wantCalls: 2, wantOK: true},
		{name: "failure cached", token: "bad", advance: 4 * time.Second, wantCalls: 1},
		{name: "failure expires sooner", token: "bad", advance: 5 * time.Second, wantCalls: 2},
		{name: "errors are not cached", token: "good", reviewErr: errors.New("down"), wantCalls: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &clock{t: time.Unix(100, 0)}
			rev := &fakeReviewer{err: tt.reviewErr}
			a := New(zap.NewNop(), Config{TokenReviewer: rev, TokenSuccessTTL: 10 * time.Second, TokenFailureTTL: 5 * time.Second, Now: clk.now})
			for i := range 2 {
				r := httptest.NewRequest("GET", "/", nil)
				r.Header.Set("Authorization", "Bearer "+tt.token)
				_, ok, err := a.AuthenticateRequest(r)
				if ok != tt.wantOK || (err == nil) != tt.wantOK {
					t.Fatalf("request %d: ok=%v err=%v, want ok=%v", i, ok, err, tt.wantOK)
				}
				if ok && r.Header.Get("Authorization") != "" {
					t.Fatalf("Authorization header kept after success")
				}
				clk.t = clk.t.Add(tt.advance)
			}
			if rev.calls != tt.wantCalls {
				t.Fatalf("reviewer called %d times, want %d", rev.calls, tt.wantCalls)
			}
		})
	}
}

func TestParseClusterConfig(t *testing.T) {
	tests := []struct {
		name string
		data map[string]string
		want *ClusterConfig
	}{
		{name: "empty", data: nil, want: &ClusterConfig{ClientCA: []byte{}, RequestHeaderClientCA: []byte{}}},
		{name: "json lists and comma lists", data: map[string]string{
			KeyClientCA: "PEM", KeyRequestHeaderAllowed: `["front-proxy"]`, KeyRequestHeaderUsername: "X-Remote-User, X-User",
			KeyRequestHeaderGroup: `["X-Remote-Group"]`, KeyRequestHeaderExtraPrefix: `[]`,
		}, want: &ClusterConfig{
			ClientCA: []byte("PEM"), RequestHeaderClientCA: []byte{}, AllowedNames: []string{"front-proxy"},
			UsernameHeaders: []string{"X-Remote-User", "X-User"}, GroupHeaders: []string{"X-Remote-Group"}, ExtraHeaderPrefixes: []string{},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ParseClusterConfig(tt.data)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithAuthentication(t *testing.T) {
	tests := []struct {
		name     string
		a        Authenticator
		wantCode int
		wantUser string
	}{
		{name: "authenticated", a: Func(func(*http.Request) (*User, bool, error) { return &User{Name: "u"}, true, nil }), wantCode: 200, wantUser: "u"},
		{name: "failed", a: Func(func(*http.Request) (*User, bool, error) { return nil, false, ErrInvalidToken }), wantCode: 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			h := WithAuthentication(zap.NewNop(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				u, _ := UserFrom(r.Context())
				got = u.Name
			}), tt.a)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			if rec.Code != tt.wantCode || got != tt.wantUser {
				t.Fatalf("code %d user %q, want %d %q", rec.Code, got, tt.wantCode, tt.wantUser)
			}
		})
	}
}
