package authn

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sync/singleflight"

	authnv1 "platform.io/client/api/authentication/v1"

	"platform.io/platform/pkg/component/internal/ttlcache"
)

// TokenReviewer asks whether a bearer token authenticates.
type TokenReviewer interface {
	Review(ctx context.Context, token string) (authnv1.TokenReviewStatus, error)
}

// ErrInvalidToken is the error of a bearer token the reviewer rejected.
var ErrInvalidToken = errors.New("authn: invalid bearer token")

// reviewTimeout bounds one review shared by concurrent requests.
const reviewTimeout = 10 * time.Second

// TokenCache authenticates bearer tokens, caching the reviewer's answers
// under the token's hash; concurrent requests with one token share one
// review.
type TokenCache struct {
	lg         *zap.Logger
	reviewer   TokenReviewer
	successTTL time.Duration
	failureTTL time.Duration
	cache      *ttlcache.Cache[[sha256.Size]byte, *User] // nil *User: rejected
	flights    singleflight.Group
}

// NewTokenCache returns the method asking r, keeping an accepted token for
// successTTL and a rejected one for failureTTL (0 keeps none); now reads the
// clock (nil: time.Now).
func NewTokenCache(lg *zap.Logger, r TokenReviewer, successTTL, failureTTL time.Duration, now func() time.Time) *TokenCache {
	return &TokenCache{
		lg: lg, reviewer: r, successTTL: successTTL, failureTTL: failureTTL,
		cache: ttlcache.New[[sha256.Size]byte, *User](now),
	}
}

// AuthenticateRequest implements Authenticator; on success the
// Authorization header is removed.
func (a *TokenCache) AuthenticateRequest(r *http.Request) (*User, bool, error) {
	token := BearerToken(r.Header)
	if token == "" {
		return nil, false, nil
	}
	u, ok, err := a.AuthenticateToken(r.Context(), token)
	if !ok {
		if err == nil {
			err = ErrInvalidToken
		}
		return nil, false, err
	}
	r.Header.Del("Authorization")
	return u, true, nil
}

// AuthenticateToken checks one token: ok=false with a nil error when the
// reviewer rejected it, an error when the reviewer could not be asked.
// Rejections and successes are cached, errors are not.
func (a *TokenCache) AuthenticateToken(ctx context.Context, token string) (*User, bool, error) {
	key := sha256.Sum256([]byte(token))
	u, cached := a.cache.Get(key)
	if !cached {
		v, err, _ := a.flights.Do(string(key[:]), func() (any, error) {
			return a.review(ctx, key, token)
		})
		if err != nil {
			return nil, false, err
		}
		u = v.(*User)
	}
	return u, u != nil, nil
}

// review asks the reviewer and caches a definite answer.
func (a *TokenCache) review(ctx context.Context, key [sha256.Size]byte, token string) (*User, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), reviewTimeout)
	defer cancel()
	st, err := a.reviewer.Review(ctx, token)
	if err != nil {
		a.lg.Warn("token review failed", zap.Error(err))
		return nil, fmt.Errorf("authn: token review: %w", err)
	}
	if !st.Authenticated {
		if st.Error != "" {
			a.lg.Debug("token rejected", zap.String("reason", st.Error))
		}
		a.cache.Set(key, nil, a.failureTTL)
		return nil, nil
	}
	u := &User{Name: st.User.Username, UID: st.User.UID, Groups: st.User.Groups}
	for k, v := range st.User.Extra {
		if u.Extra == nil {
			u.Extra = map[string][]string{}
		}
		u.Extra[k] = v
	}
	a.cache.Set(key, u, a.successTTL)
	return u, nil
}

// BearerToken returns the token of an "Authorization: Bearer" header.
func BearerToken(h http.Header) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
