package authn

import (
	"context"
	"errors"
	"net/http"

	"go.uber.org/zap"

	"platform.io/platform/pkg/component/authn"
	"platform.io/platform/pkg/component/status"
)

// Config lists the methods of the chain; a nil or empty method is off.
type Config struct {
	// RequestHeader trusts a front proxy's identity headers. Its headers
	// are removed from every request it does not authenticate, so no
	// handler ever reads an identity a client wrote itself.
	RequestHeader *authn.RequestHeader
	// ClientCert verifies client certificates.
	ClientCert authn.Authenticator
	// Tokens check bearer tokens in order: the token file, bootstrap
	// tokens, service-account tokens, then the webhook (upstream's order).
	Tokens []TokenAuthenticator
	// Anonymous lets a request no method recognised through as
	// system:anonymous.
	Anonymous bool
}

// ErrUnauthenticated is the error of a request no method recognised when
// anonymous requests are off.
var ErrUnauthenticated = errors.New("authn: no credentials, and anonymous requests are disabled")

// ErrInvalidBearerToken is the error of a bearer token no token method
// recognised.
var ErrInvalidBearerToken = errors.New("authn: invalid bearer token")

// Chain is the API server's authenticator: each method in order, the first
// success wins and adds system:authenticated; a request some method
// rejected fails even if anonymous requests are allowed.
type Chain struct {
	cfg     Config
	methods []authn.Authenticator
}

var _ authn.Authenticator = (*Chain)(nil)

// New returns the chain cfg describes.
func New(cfg Config) *Chain {
	c := &Chain{cfg: cfg}
	c.methods = c.buildMethods()
	return c
}

// AuthenticateRequest implements authn.Authenticator.
func (c *Chain) AuthenticateRequest(r *http.Request) (*authn.User, bool, error) {
	var errs []error
	for _, m := range c.methods {
		u, ok, err := m.AuthenticateRequest(r)
		if ok {
			return authn.AuthenticatedUser(u), true, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, false, errors.Join(errs...)
	}
	if c.cfg.Anonymous {
		return authn.AnonymousUser(), true, nil
	}
	return nil, false, ErrUnauthenticated
}

// buildMethods lists the request methods in order.
func (c *Chain) buildMethods() []authn.Authenticator {
	var ms []authn.Authenticator
	if rh := c.cfg.RequestHeader; rh != nil {
		ms = append(ms, authn.Func(func(r *http.Request) (*authn.User, bool, error) {
			u, ok, err := rh.AuthenticateRequest(r)
			if !ok {
				rh.Strip(r.Header)
			}
			return u, ok, err
		}))
	}
	if c.cfg.ClientCert != nil {
		ms = append(ms, c.cfg.ClientCert)
	}
	if len(c.cfg.Tokens) > 0 {
		ms = append(ms, authn.Func(c.bearer))
	}
	return ms
}

// bearer checks the request's bearer token with each token method; a
// token none recognises is an error, as upstream has it, so a mistyped
// token is a 401 rather than an anonymous request.
func (c *Chain) bearer(r *http.Request) (*authn.User, bool, error) {
	token := authn.BearerToken(r.Header)
	if token == "" {
		return nil, false, nil
	}
	u, ok, err := Tokens(c.cfg.Tokens).AuthenticateToken(r.Context(), token)
	if !ok && err == nil {
		err = ErrInvalidBearerToken
	}
	return u, ok, err
}

// Tokens tries each token method in order; the first success wins, and
// the errors of all are joined when none succeeds.
type Tokens []TokenAuthenticator

var _ TokenAuthenticator = Tokens(nil)

// AuthenticateToken implements TokenAuthenticator.
func (ts Tokens) AuthenticateToken(ctx context.Context, token string) (*authn.User, bool, error) {
	var errs []error
	for _, t := range ts {
		u, ok, err := t.AuthenticateToken(ctx, token)
		if ok {
			return u, true, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return nil, false, errors.Join(errs...)
}

// WithAuthentication authenticates every request before h sees it, putting
// the user in the request's context and removing the Authorization header
// so it is neither logged nor proxied further. A request that does not
// authenticate is a 401 Status whose message says nothing of why; the
// reason is logged at debug level.
func WithAuthentication(lg *zap.Logger, h http.Handler, a authn.Authenticator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok, err := a.AuthenticateRequest(r)
		if !ok {
			lg.Debug("unable to authenticate the request", zap.String("path", r.URL.Path), zap.Error(err))
			status.Unauthorized(w)
			return
		}
		r.Header.Del("Authorization")
		h.ServeHTTP(w, r.WithContext(authn.WithUser(r.Context(), u)))
	})
}
