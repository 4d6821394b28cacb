package authn

import (
	"context"
	"crypto/subtle"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	apierrors "platform.io/client/api/errors"

	"platform.io/platform/pkg/component/authn"
)

// Names of the bootstrap-token Secrets, as upstream's with the brand
// replaced.
const (
	BootstrapNamespace    = "platform-system"
	BootstrapSecretPrefix = "bootstrap-token-"
	BootstrapSecretType   = "bootstrap.platform.io/token"
	BootstrapUserPrefix   = "system:bootstrap:"
	BootstrapGroup        = "system:bootstrappers"

	bootstrapKeyID         = "token-id"
	bootstrapKeySecret     = "token-secret"
	bootstrapKeyExpiration = "expiration"
	bootstrapKeyUsageAuthn = "usage-bootstrap-authentication"
	bootstrapKeyExtra      = "auth-extra-groups"
)

var (
	bootstrapTokenRE = regexp.MustCompile(`^([a-z0-9]{6})\.([a-z0-9]{16})$`)
	bootstrapGroupRE = regexp.MustCompile(`^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$`)
)

// SecretGetter reads a Secret; a missing one is a NotFound API error.
type SecretGetter func(ctx context.Context, namespace, name string) (*corev1.Secret, error)

// Bootstrap authenticates bootstrap tokens (--enable-bootstrap-token-auth).
type Bootstrap struct {
	lg  *zap.Logger
	get SecretGetter
	now func() time.Time
}

var _ TokenAuthenticator = (*Bootstrap)(nil)

// NewBootstrap returns the method reading Secrets through get; now reads
// the clock (nil: time.Now).
func NewBootstrap(lg *zap.Logger, get SecretGetter, now func() time.Time) *Bootstrap {
	if now == nil {
		now = time.Now
	}
	return &Bootstrap{lg: lg, get: get, now: now}
}

// AuthenticateToken implements TokenAuthenticator. A token of another
// shape is not recognised; one whose Secret is missing, deleted, of
// another type, unusable for authentication, expired or holding another
// secret is not recognised either (and so refused by the chain); the
// reason is only logged at debug level.
func (b *Bootstrap) AuthenticateToken(ctx context.Context, token string) (*authn.User, bool, error) {
	m := bootstrapTokenRE.FindStringSubmatch(token)
	if m == nil {
		return nil, false, nil
	}
	id, secret := m[1], m[2]
	s, err := b.get(ctx, BootstrapNamespace, BootstrapSecretPrefix+id)
	if apierrors.IsNotFound(err) {
		b.lg.Debug("bootstrap token has no secret", zap.String("tokenID", id))
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("authn: read bootstrap token secret: %w", err)
	}
	groups, reason := b.check(s, id, secret)
	if reason != "" {
		b.lg.Debug("bootstrap token refused", zap.String("tokenID", id), zap.String("reason", reason))
		return nil, false, nil
	}
	return &authn.User{Name: BootstrapUserPrefix + id, Groups: groups}, true, nil
}

// check returns the groups of a usable secret, or why it is not usable.
func (b *Bootstrap) check(s *corev1.Secret, id, secret string) ([]string, string) {
	value := func(k string) string { return string(s.Data[k]) }
	switch {
	case s.DeletionTimestamp != nil:
		return nil, "secret is being deleted"
	case s.Type != BootstrapSecretType:
		return nil, "secret has type " + string(s.Type)
	case subtle.ConstantTimeCompare([]byte(value(bootstrapKeySecret)), []byte(secret)) != 1:
		return nil, "wrong token secret"
	case value(bootstrapKeyID) != id:
		return nil, "token-id does not match the secret's name"
	case value(bootstrapKeyUsageAuthn) != "true":
		return nil, "secret not marked for authentication"
	}
	if exp := value(bootstrapKeyExpiration); exp != "" {
		t, err := time.Parse(time.RFC3339, exp)
		if err != nil {
			return nil, "unreadable expiration"
		}
		if !b.now().Before(t) {
			return nil, "token expired"
		}
	}
	groups := []string{BootstrapGroup}
	if extra := value(bootstrapKeyExtra); extra != "" {
		for _, g := range strings.Split(extra, ",") {
			g = strings.TrimSpace(g)
			if !bootstrapGroupRE.MatchString(g) {
				return nil, "auth-extra-groups has an invalid group " + g
			}
			if !slices.Contains(groups, g) {
				groups = append(groups, g)
			}
		}
	}
	return groups, ""
}
