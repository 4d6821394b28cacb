package component

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	authzv1 "platform.io/client/api/authorization/v1"
	"platform.io/client/api/meta"

	"platform.io/platform/test/integration/framework"
)

// status decodes a Status body.
func status(t *testing.T, body string) meta.Status {
	t.Helper()
	var st meta.Status
	if err := json.Unmarshal([]byte(body), &st); err != nil || st.Kind != "Status" {
		t.Fatalf("body %q is not a Status: %v", body, err)
	}
	return st
}

func TestDelegationToFakeBackend(t *testing.T) {
	b := newBackend(t)
	kc := writeKubeconfig(t, b.URL)
	d := startDaemon(t, "--authentication-kubeconfig="+kc, "--authorization-kubeconfig="+kc,
		"--authorization-always-allow-paths=/healthz,/debug/pprof/*")
	tests := []struct {
		name              string
		path              string
		token             string
		wantCode          int
		wantTokenReviews  int // added by this step
		wantAccessReviews int
		wantUser          string
	}{
		{name: "allowed token", path: "/metrics", token: "alice-token", wantCode: 200, wantTokenReviews: 1, wantAccessReviews: 1, wantUser: "alice"},
		{name: "allowed token again is cached", path: "/metrics", token: "alice-token", wantCode: 200},
		{name: "other path is another review", path: "/livez", token: "alice-token", wantCode: 200, wantAccessReviews: 1, wantUser: "alice"},
		{name: "denied user", path: "/metrics", token: "bob-token", wantCode: 403, wantTokenReviews: 1, wantAccessReviews: 1, wantUser: "bob"},
		{name: "denied user again is cached", path: "/metrics", token: "bob-token", wantCode: 403},
		{name: "rejected token", path: "/metrics", token: "forged", wantCode: 401, wantTokenReviews: 1},
		{name: "rejected token again is cached", path: "/metrics", token: "forged", wantCode: 401},
		{name: "anonymous is reviewed and denied", path: "/metrics", wantCode: 403, wantAccessReviews: 1, wantUser: "system:anonymous"},
		{name: "always-allowed path", path: "/healthz", wantCode: 200},
		{name: "always-allowed prefix", path: "/debug/pprof/cmdline", wantCode: 200},
		{name: "rejected token fails even on an always-allowed path", path: "/healthz", token: "forged", wantCode: 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr0, ar0 := b.counts()
			code, body := d.get(t, tt.path, request{token: tt.token})
			if code != tt.wantCode {
				t.Fatalf("GET %s = %d %s, want %d", tt.path, code, body, tt.wantCode)
			}
			if code >= 400 {
				if st := status(t, body); st.Code != int32(code) {
					t.Fatalf("Status code %d in a %d response", st.Code, code)
				}
			}
			tr, ar := b.counts()
			if tr-tr0 != tt.wantTokenReviews || ar-ar0 != tt.wantAccessReviews {
				t.Fatalf("reviews +%d tokens +%d access, want +%d +%d", tr-tr0, ar-ar0, tt.wantTokenReviews, tt.wantAccessReviews)
			}
			if tt.wantUser != "" {
				spec := b.lastSpec(t)
				want := &authzv1.NonResourceAttributes{Path: tt.path, Verb: "get"}
				if spec.User != tt.wantUser || !cmp.Equal(spec.NonResourceAttributes, want) || spec.ResourceAttributes != nil {
					t.Fatalf("access review %+v, want user %s on %+v", spec, tt.wantUser, want)
				}
			}
		})
	}
}

func TestNoKubeconfigs(t *testing.T) {
	d := startDaemon(t)
	tests := []struct {
		name     string
		path     string
		token    string
		wantCode int
		wantMsg  string
	}{
		{name: "token is ignored: anonymous and forbidden", path: "/metrics", token: "alice-token", wantCode: 403,
			wantMsg: `forbidden: User "system:anonymous" cannot get path "/metrics"`},
		{name: "anonymous forbidden", path: "/readyz", wantCode: 403},
		{name: "always-allowed path", path: "/healthz", wantCode: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := d.get(t, tt.path, request{token: tt.token})
			if code != tt.wantCode {
				t.Fatalf("GET %s = %d %s, want %d", tt.path, code, body, tt.wantCode)
			}
			if tt.wantMsg != "" && !strings.Contains(status(t, body).Message, tt.wantMsg) {
				t.Fatalf("message %q, want %q", status(t, body).Message, tt.wantMsg)
			}
		})
	}
}

func TestCertificatesAndFrontProxy(t *testing.T) {
	p := newPKI(t)
	b := newBackend(t)
	kc := writeKubeconfig(t, b.URL)
	d := startDaemon(t, "--authorization-kubeconfig="+kc, noCache, noDenyCache,
		"--client-ca-file="+writeFile(t, "client-ca.crt", p.clientCA.CertPEM),
		"--requestheader-client-ca-file="+writeFile(t, "proxy-ca.crt", p.proxyCA.CertPEM),
		"--requestheader-allowed-names=front-proxy")
	proxied := map[string][]string{"X-Remote-User": {"dave"}, "X-Remote-Group": {"g1", "g2"}, "X-Remote-Extra-Scopes": {"s"}}
	runIdentityCases(t, d, b, p, proxied)
}

// Flags that make every request reviewed, so each review tells who the
// daemon took the caller for.
const (
	noCache     = "--authorization-webhook-cache-authorized-ttl=0"
	noDenyCache = "--authorization-webhook-cache-unauthorized-ttl=0"
)

// runIdentityCases checks who the daemon takes each caller for, by the
// access review it sends.
func runIdentityCases(t *testing.T, d *daemon, b *backend, p *pki, proxied map[string][]string) {
	t.Helper()
	tests := []struct {
		name       string
		req        request
		wantCode   int
		wantUser   string
		wantGroups []string
		wantExtra  map[string]authzv1.ExtraValue
	}{
		{name: "client certificate", req: request{cert: p.carol}, wantCode: 200, wantUser: "carol",
			wantGroups: []string{"ops", "system:authenticated"}},
		{name: "certificate of an unknown CA", req: request{cert: p.stranger}, wantCode: 401},
		{name: "front proxy", req: request{cert: p.proxy, headers: proxied}, wantCode: 200, wantUser: "dave",
			wantGroups: []string{"g1", "g2", "system:authenticated"}, wantExtra: map[string]authzv1.ExtraValue{"scopes": {"s"}}},
		{name: "proxy headers without a certificate", req: request{headers: proxied}, wantCode: 403, wantUser: "system:anonymous",
			wantGroups: []string{"system:unauthenticated"}},
		{name: "proxy headers with a user certificate", req: request{cert: p.carol, headers: proxied}, wantCode: 200, wantUser: "carol",
			wantGroups: []string{"ops", "system:authenticated"}},
		{name: "proxy certificate not in allowed names", req: request{cert: p.intruder, headers: proxied}, wantCode: 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ar0 := b.counts()
			code, body := d.get(t, "/metrics", tt.req)
			if code != tt.wantCode {
				t.Fatalf("GET /metrics = %d %s, want %d", code, body, tt.wantCode)
			}
			_, ar := b.counts()
			if tt.wantUser == "" {
				if ar != ar0 {
					t.Fatalf("an unauthenticated request was reviewed")
				}
				return
			}
			if ar != ar0+1 {
				t.Fatalf("%d access reviews, want 1", ar-ar0)
			}
			spec := b.lastSpec(t)
			if spec.User != tt.wantUser || !slices.Equal(spec.Groups, tt.wantGroups) || !cmp.Equal(spec.Extra, tt.wantExtra) {
				t.Fatalf("reviewed %s %v %v, want %s %v %v", spec.User, spec.Groups, spec.Extra, tt.wantUser, tt.wantGroups, tt.wantExtra)
			}
		})
	}
}

func TestRealAPIServer(t *testing.T) {
	s := framework.Start(t)
	real := writeKubeconfig(t, s.URL)
	t.Run("reviews", func(t *testing.T) {
		d := startDaemon(t, "--authentication-kubeconfig="+real, "--authorization-kubeconfig="+real)
		tests := []struct {
			name     string
			path     string
			token    string
			wantCode int
		}{
			{name: "anonymous allowed by the server's access review", path: "/metrics", wantCode: 200},
			{name: "token rejected by the server's token review", path: "/metrics", token: "some-token", wantCode: 401},
			{name: "health", path: "/healthz", wantCode: 200},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if code, body := d.get(t, tt.path, request{token: tt.token}); code != tt.wantCode {
					t.Fatalf("GET %s = %d %s, want %d", tt.path, code, body, tt.wantCode)
				}
			})
		}
		// The server answered both reviews (201), rather than failing them.
		_, metrics := d.get(t, "/metrics", request{})
		for _, want := range []string{`apiserver_delegated_authn_request_total{code="201"} 1`, `apiserver_delegated_authz_request_total{code="201"}`} {
			if !strings.Contains(metrics, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	})
	t.Run("lookup", func(t *testing.T) { testLookup(t, s, real) })
}

// testLookup publishes CAs in the server's ConfigMap and checks that a
// daemon given none on its command line uses them.
func testLookup(t *testing.T, s *framework.Server, real string) {
	p := newPKI(t)
	publish(t, s, map[string]string{
		"client-ca-file":                     string(p.clientCA.CertPEM),
		"requestheader-client-ca-file":       string(p.proxyCA.CertPEM),
		"requestheader-allowed-names":        `["front-proxy"]`,
		"requestheader-username-headers":     `["X-Remote-User"]`,
		"requestheader-group-headers":        `["X-Remote-Group"]`,
		"requestheader-extra-headers-prefix": `["X-Remote-Extra-"]`,
	})
	b := newBackend(t)
	fake := writeKubeconfig(t, b.URL)
	t.Run("looked up", func(t *testing.T) {
		d := startDaemon(t, "--authentication-kubeconfig="+real, "--authorization-kubeconfig="+fake, noCache, noDenyCache)
		proxied := map[string][]string{"X-Remote-User": {"dave"}, "X-Remote-Group": {"g1", "g2"}, "X-Remote-Extra-Scopes": {"s"}}
		runIdentityCases(t, d, b, p, proxied)
	})
	t.Run("skip lookup", func(t *testing.T) {
		d := startDaemon(t, "--authentication-kubeconfig="+real, "--authorization-kubeconfig="+fake, "--authentication-skip-lookup", noDenyCache)
		if code, _ := d.get(t, "/metrics", request{cert: p.carol}); code != 403 || b.lastSpec(t).User != "system:anonymous" {
			t.Fatalf("with the lookup skipped, a client certificate got %d as %s", code, b.lastSpec(t).User)
		}
	})
	t.Run("lookup failure", func(t *testing.T) {
		if _, _, err := configure(t, "--authentication-kubeconfig="+fake, "--authentication-tolerate-lookup-failure=false"); err == nil ||
			!strings.Contains(err.Error(), "extension-apiserver-authentication") {
			t.Fatalf("start with a forbidden lookup = %v, want an error", err)
		}
		d := startDaemon(t, "--authentication-kubeconfig="+fake, "--authorization-kubeconfig="+fake, noDenyCache)
		if code, _ := d.get(t, "/metrics", request{cert: p.carol}); code != 403 || b.lastSpec(t).User != "system:anonymous" {
			t.Fatalf("after a tolerated lookup failure, a client certificate got %d as %s", code, b.lastSpec(t).User)
		}
	})
}

// publish sets the data of the server's authentication ConfigMap.
func publish(t *testing.T, s *framework.Server, data map[string]string) {
	t.Helper()
	const path = "/api/v1/namespaces/platform-system/configmaps/extension-apiserver-authentication"
	cm := s.Do(t, "GET", path, nil).Expect(t, http.StatusOK).Map(t)
	cm["data"] = data
	s.Do(t, "PUT", path, cm).Expect(t, http.StatusOK)
}
