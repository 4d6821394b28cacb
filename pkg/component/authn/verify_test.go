package authn

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"testing"
	"time"

	"platform.io/platform/pkg/component/certs"
)

func TestVerifierCache(t *testing.T) {
	f := newFixture(t)
	// stranger has the user's subject but is signed by another CA.
	stranger, err := certs.NewClient(f.proxyCA, "bob", []string{"ops", "admins"})
	if err != nil {
		t.Fatal(err)
	}
	alice, err := certs.NewClient(f.clientCA, "alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	expired := f.user.Cert.NotAfter.Add(time.Second)
	type step struct {
		cert *certs.Pair
		at   time.Time
		ok   bool
	}
	for _, tc := range []struct {
		name       string
		size       int
		steps      []step
		wantChecks int64
	}{
		{name: "the same certificate verifies once", size: 8,
			steps: []step{{f.user, now, true}, {f.user, now, true}, {f.user, now.Add(time.Hour), true}}, wantChecks: 1},
		{name: "a remembered certificate is checked again once it expired", size: 8,
			steps: []step{{f.user, now, true}, {f.user, expired, false}}, wantChecks: 2},
		{name: "another certificate with the same subject is checked on its own", size: 8,
			steps: []step{{f.user, now, true}, {stranger, now, false}, {stranger, now, false}, {f.user, now, true}}, wantChecks: 3},
		{name: "failures are not remembered", size: 8,
			steps: []step{{stranger, now, false}, {stranger, now, false}}, wantChecks: 2},
		{name: "a full cache makes room", size: 1,
			steps: []step{{f.user, now, true}, {alice, now, true}, {f.user, now, true}, {f.user, now, true}}, wantChecks: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newVerifier(f.clientPool)
			v.size = tc.size
			for i, s := range tc.steps {
				v.now = func() time.Time { return s.at }
				r := &http.Request{TLS: &tls.ConnectionState{PeerCertificates: []*x509.Certificate{s.cert.Cert}}}
				leaf, err := v.verifiedLeaf(r)
				if got := err == nil && leaf != nil; got != s.ok {
					t.Fatalf("step %d (%s): verified %t (%v), want %t", i, s.cert.Cert.Subject.CommonName, got, err, s.ok)
				}
				if s.ok && leaf != s.cert.Cert {
					t.Fatalf("step %d: leaf %v, want the certificate sent", i, leaf.Subject)
				}
			}
			if got := v.checks.Load(); got != tc.wantChecks {
				t.Errorf("full verifications: %d, want %d", got, tc.wantChecks)
			}
			if len(v.until) > tc.size {
				t.Errorf("cache holds %d chains, more than %d", len(v.until), tc.size)
			}
		})
	}
}

// BenchmarkClientCert is the cost of authenticating a request by a client
// certificate the verifier has seen before.
func BenchmarkClientCert(b *testing.B) {
	ca, err := certs.NewCA("ca")
	if err != nil {
		b.Fatal(err)
	}
	user, err := certs.NewClient(ca, "bob", []string{"ops"})
	if err != nil {
		b.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	a := NewClientCert(pool)
	r := &http.Request{TLS: &tls.ConnectionState{PeerCertificates: []*x509.Certificate{user.Cert}}}
	for b.Loop() {
		if _, ok, err := a.AuthenticateRequest(r); !ok || err != nil {
			b.Fatalf("not authenticated: %v", err)
		}
	}
}
