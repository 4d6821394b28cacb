package authn

import (
	"context"

	"platform.io/platform/pkg/component/authn"
)

// TokenAuthenticator checks a bearer token. It answers ok=false with a nil
// error for a token it does not recognise (so the next one may), and an
// error for a token it recognises but rejects (expired, revoked, wrong
// audience): the request is then refused, never anonymous.
type TokenAuthenticator interface {
	AuthenticateToken(ctx context.Context, token string) (u *authn.User, ok bool, err error)
}

// TokenFunc adapts a function to a TokenAuthenticator.
type TokenFunc func(ctx context.Context, token string) (*authn.User, bool, error)

var _ TokenAuthenticator = TokenFunc(nil)

// AuthenticateToken calls f.
func (f TokenFunc) AuthenticateToken(ctx context.Context, token string) (*authn.User, bool, error) {
	return f(ctx, token)
}
