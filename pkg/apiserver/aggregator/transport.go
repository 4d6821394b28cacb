package aggregator

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"time"

	apiregv1 "platform.io/client/api/apiregistration/v1"
)

// transport reaches one APIService's server: TLS with its caBundle (or
// without verification when it says so), the server name
// <service>.<namespace>.svc, and the front-proxy client certificate.
// HTTP/1.1 only, so upgraded connections pass through the proxy.
type transport struct {
	*http.Transport
	caBundle   []byte
	skipVerify bool
	serverName string
	// err is why the settings cannot be used (a caBundle without a
	// certificate); every request through the transport fails with it.
	err error
}

func newTransport(s *apiregv1.APIService, cert *tls.Certificate) *transport {
	ref := s.Spec.Service
	t := &transport{caBundle: s.Spec.CABundle, skipVerify: s.Spec.InsecureSkipTLSVerify, serverName: ref.Name + "." + ref.Namespace + ".svc"}
	tc := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.serverName, InsecureSkipVerify: t.skipVerify}
	if len(t.caBundle) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(t.caBundle) {
			t.err = errBadCABundle
		}
		tc.RootCAs = pool
	}
	if cert != nil {
		tc.Certificates = []tls.Certificate{*cert}
	}
	t.Transport = &http.Transport{
		TLSClientConfig:     tc,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: 100,
		IdleConnTimeout:     90 * time.Second,
	}
	return t
}

// matches reports whether s has the TLS settings t was made for.
func (t *transport) matches(s *apiregv1.APIService) bool {
	ref := s.Spec.Service
	return ref != nil && bytes.Equal(t.caBundle, s.Spec.CABundle) && t.skipVerify == s.Spec.InsecureSkipTLSVerify &&
		t.serverName == ref.Name+"."+ref.Namespace+".svc"
}

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.err != nil {
		return nil, t.err
	}
	return t.Transport.RoundTrip(r)
}
