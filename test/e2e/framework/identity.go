package framework

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"testing"

	"platform.io/platform/pkg/component/certs"
)

// Identity is the client CA an API server of the tests trusts
// (--client-ca-file) and the certificate of the admin it signed: user
// e2e-admin in group system:masters. Every client of the tests presents
// it, since a server under the default AlwaysAllow mode refuses requests
// without credentials.
type Identity struct {
	CAFile string
	Admin  *certs.Pair
	// CA signs further client certificates (other users, daemons, nodes).
	CA *certs.Pair
}

// NewIdentity writes a new client CA into dir.
func NewIdentity(t testing.TB, dir string) *Identity {
	t.Helper()
	ca, err := certs.NewCA("platform-e2e-client-ca")
	if err != nil {
		t.Fatal(err)
	}
	admin, err := certs.NewClient(ca, "e2e-admin", []string{"system:masters"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	id := &Identity{CAFile: filepath.Join(dir, "client-ca.crt"), Admin: admin, CA: ca}
	if err := os.WriteFile(id.CAFile, ca.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return id
}

// Certificate is the admin's certificate for a tls.Config.
func (id *Identity) Certificate() tls.Certificate {
	return PairCertificate(id.Admin)
}

// PairCertificate is a client pair as a certificate for a tls.Config.
func PairCertificate(p *certs.Pair) tls.Certificate {
	return tls.Certificate{Certificate: [][]byte{p.Cert.Raw}, PrivateKey: p.Key, Leaf: p.Cert}
}
