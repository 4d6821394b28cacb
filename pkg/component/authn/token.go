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

// tokenCache authenticates bearer tokens, caching the reviewer's answers
// under the token's hash; concurrent requests with one token share one
// review.
type tokenCache struct {
	lg         *zap.Logger
	reviewer   TokenReviewer
	successTTL time.Duration
	failureTTL time.Duration
	cache      *ttlcache.Cache[[sha256.Size]byte, *User] // nil *User: rejected
	flights    singleflight.Group
}

func newTokenCache(lg *zap.Logger, r TokenReviewer, successTTL, failureTTL time.Duration, now func() time.Time) *tokenCache {
	return &tokenCache{
		lg: lg, reviewer: r, successTTL: successTTL, failureTTL: failureTTL,
		cache: ttlcache.New[[sha256.Size]byte, *User](now),
	}
}

// AuthenticateRequest implements Authenticator; on success the
// Authorization header is removed.
func (a *tokenCache) AuthenticateRequest(r *http.Request) (*User, bool, error) {
	token := bearerToken(r.Header)
	if token == "" {
		return nil, false, nil
	}
	key := sha256.Sum256([]byte(token))
	u, cached := a.cache.Get(key)
	if !cached {
		v, err, _ := a.flights.Do(string(key[:]), func() (any, error) {
			return a.review(r.Context(), key, token)
		})
		if err != nil {
			return nil, false, err
		}
		u = v.(*User)
	}
	if u == nil {
		return nil, false, ErrInvalidToken
	}
	r.Header.Del("Authorization")
	return u, true, nil
}

// review asks the reviewer and caches a definite answer.
func (a *tokenCache) review(ctx context.Context, key [sha256.Size]byte, token string) (*User, error) {
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

// bearerToken returns the token of an "Authorization: Bearer" header.
func bearerToken(h http.Header) string {
	scheme, token, ok := strings.Cut(strings.TrimSpace(h.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
