package authn

import (
	"crypto/x509"
	"fmt"
	"net/http"
)

// ClientCert authenticates client certificates that verify against its
// roots for client authentication: the CommonName is the user, the
// Organizations are the groups.
type ClientCert struct {
	roots *x509.CertPool
}

// NewClientCert returns the method trusting certificates signed by roots.
func NewClientCert(roots *x509.CertPool) *ClientCert { return &ClientCert{roots: roots} }

// AuthenticateRequest implements Authenticator.
func (a *ClientCert) AuthenticateRequest(r *http.Request) (*User, bool, error) {
	leaf, err := verifiedLeaf(r, a.roots)
	if leaf == nil || err != nil {
		return nil, false, err
	}
	if leaf.Subject.CommonName == "" {
		return nil, false, nil
	}
	return &User{Name: leaf.Subject.CommonName, Groups: leaf.Subject.Organization}, true, nil
}

// verifiedLeaf returns the client's certificate once it verifies against
// roots for client authentication, nil and no error when the client sent
// none. The further certificates the client sent serve as intermediates.
func verifiedLeaf(r *http.Request, roots *x509.CertPool) (*x509.Certificate, error) {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
		return nil, nil
	}
	chain := r.TLS.PeerCertificates
	opts := x509.VerifyOptions{
		Roots:         roots,
		Intermediates: x509.NewCertPool(),
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	for _, c := range chain[1:] {
		opts.Intermediates.AddCert(c)
	}
	if _, err := chain[0].Verify(opts); err != nil {
		return nil, fmt.Errorf("verifying certificate %q (serial %s) failed: %w",
			chain[0].Subject.CommonName, chain[0].SerialNumber, err)
	}
	return chain[0], nil
}
