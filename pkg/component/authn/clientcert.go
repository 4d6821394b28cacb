package authn

import (
	"crypto/x509"
	"net/http"
)

// ClientCert authenticates client certificates that verify against its
// roots for client authentication: the CommonName is the user, the
// Organizations are the groups.
type ClientCert struct {
	v *verifier
}

// NewClientCert returns the method trusting certificates signed by roots.
func NewClientCert(roots *x509.CertPool) *ClientCert { return &ClientCert{v: newVerifier(roots)} }

// AuthenticateRequest implements Authenticator.
func (a *ClientCert) AuthenticateRequest(r *http.Request) (*User, bool, error) {
	leaf, err := a.v.verifiedLeaf(r)
	if leaf == nil || err != nil {
		return nil, false, err
	}
	if leaf.Subject.CommonName == "" {
		return nil, false, nil
	}
	return &User{Name: leaf.Subject.CommonName, Groups: leaf.Subject.Organization}, true, nil
}
