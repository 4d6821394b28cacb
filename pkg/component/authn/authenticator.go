package authn

import (
	"crypto/x509"
	"errors"
	"net/http"
	"time"

	"go.uber.org/zap"
)

// Authenticator tells who sent a request. It reports ok=false with a nil
// error when the request carries no credentials it understands, and an
// error when it carries credentials that do not authenticate.
type Authenticator interface {
	AuthenticateRequest(r *http.Request) (u *User, ok bool, err error)
}

// Func adapts a function to an Authenticator.
type Func func(r *http.Request) (*User, bool, error)

var _ Authenticator = Func(nil)

// AuthenticateRequest calls f.
func (f Func) AuthenticateRequest(r *http.Request) (*User, bool, error) { return f(r) }

// Config is what the delegating authenticator trusts. A nil or empty part
// disables its method.
type Config struct {
	// ClientCA verifies client certificates.
	ClientCA *x509.CertPool
	// RequestHeader trusts front-proxy identity headers.
	RequestHeader *RequestHeaderConfig
	// TokenReviewer checks bearer tokens.
	TokenReviewer TokenReviewer
	// TokenSuccessTTL and TokenFailureTTL are how long a token's accepted
	// and rejected answers are kept; 0 keeps none.
	TokenSuccessTTL time.Duration
	TokenFailureTTL time.Duration
	// Now reads the time for the token cache; nil means time.Now.
	Now func() time.Time
}

// RequestHeaderConfig describes the front proxy whose headers are trusted.
type RequestHeaderConfig struct {
	// ClientCA verifies the proxy's client certificate; required.
	ClientCA *x509.CertPool
	// AllowedNames are the CommonNames a proxy certificate may carry; empty
	// allows any verified certificate.
	AllowedNames []string
	// UsernameHeaders are tried in order; the first non-empty one names the
	// user.
	UsernameHeaders []string
	// GroupHeaders hold one group per header value.
	GroupHeaders []string
	// ExtraHeaderPrefixes start headers whose rest is an extra key.
	ExtraHeaderPrefixes []string
}

// delegating tries each method, then falls back to anonymous.
type delegating struct {
	methods []Authenticator
}

var (
	_ Authenticator = (*delegating)(nil)
	_ Authenticator = (*ClientCert)(nil)
	_ Authenticator = (*RequestHeader)(nil)
	_ Authenticator = (*TokenCache)(nil)
)

// New returns the authenticator cfg describes.
func New(lg *zap.Logger, cfg Config) Authenticator {
	d := &delegating{}
	if rh := cfg.RequestHeader; rh != nil && rh.ClientCA != nil && len(rh.UsernameHeaders) > 0 {
		d.methods = append(d.methods, NewRequestHeader(*rh))
	}
	if cfg.ClientCA != nil {
		d.methods = append(d.methods, NewClientCert(cfg.ClientCA))
	}
	if cfg.TokenReviewer != nil {
		d.methods = append(d.methods, NewTokenCache(lg, cfg.TokenReviewer, cfg.TokenSuccessTTL, cfg.TokenFailureTTL, cfg.Now))
	}
	return d
}

// AuthenticateRequest implements Authenticator; it never answers ok=false
// without an error, since a request no method recognises is anonymous.
func (d *delegating) AuthenticateRequest(r *http.Request) (*User, bool, error) {
	var errs []error
	for _, m := range d.methods {
		u, ok, err := m.AuthenticateRequest(r)
		if ok {
			return AuthenticatedUser(u), true, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, false, errors.Join(errs...)
	}
	return AnonymousUser(), true, nil
}
