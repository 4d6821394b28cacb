package e2e

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"testing"

	"platform.io/platform/pkg/component/certs"
)

// clientIdentity is the client CA an API server of the tests trusts
// (--client-ca-file) and the certificate of the admin it signed: user
// e2e-admin in group system:masters. Every client of the tests presents
// it, since a server under the default AlwaysAllow mode refuses requests
// without credentials.
type clientIdentity struct {
	CAFile string
	Admin  *certs.Pair
	// CA signs further client certificates (other users, daemons, nodes).
	CA *certs.Pair
}

// newClientIdentity writes a new client CA into dir.
func newClientIdentity(t testing.TB, dir string) *clientIdentity {
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
	id := &clientIdentity{CAFile: filepath.Join(dir, "client-ca.crt"), Admin: admin, CA: ca}
	if err := os.WriteFile(id.CAFile, ca.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return id
}

// certificate is the admin's certificate for a tls.Config.
func (id *clientIdentity) certificate() tls.Certificate {
	return tls.Certificate{Certificate: [][]byte{id.Admin.Cert.Raw}, PrivateKey: id.Admin.Key, Leaf: id.Admin.Cert}
}
