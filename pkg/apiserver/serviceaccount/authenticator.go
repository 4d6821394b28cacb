package serviceaccount

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"slices"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"platform.io/client/api/meta"

	apiauthn "platform.io/platform/pkg/apiserver/authn"
	"platform.io/platform/pkg/component/authn"
)

// Leeway is the clock skew allowed on "exp" and "nbf", and how long a
// deleted object's tokens outlive its deletionTimestamp: upstream's minute.
const Leeway = jwt.DefaultLeeway

// Algorithms are the only signature algorithms a token may use. "none"
// and the HMAC ones are absent, so a token signed with a public key used as
// an HMAC secret never parses.
var Algorithms = []jose.SignatureAlgorithm{jose.RS256, jose.ES256, jose.ES384, jose.ES512}

// Errors of tokens that name an accepted issuer but fail.
var (
	ErrSignature = errors.New("serviceaccount: token signature matches no configured key")
	ErrExpired   = errors.New("serviceaccount: token has expired")
	ErrNotYet    = errors.New("serviceaccount: token is not valid yet")
	ErrAudience  = errors.New("serviceaccount: token audiences are not accepted")
	ErrClaims    = errors.New("serviceaccount: token claims are invalid")
	ErrDeleted   = errors.New("serviceaccount: an object the token names was deleted")
	ErrUIDChange = errors.New("serviceaccount: an object the token names was recreated")
)

// VerifyConfig configures an Authenticator.
type VerifyConfig struct {
	// Issuers are the accepted "iss" values.
	Issuers []string
	// Keys are the public keys that may have signed a token.
	Keys []crypto.PublicKey
	// APIAudiences are the audiences of the API server: a token must name
	// one of them (or name none, then it is taken as meant for them).
	APIAudiences []string
	// Objects answers the live checks.
	Objects Objects
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

type verifyKey struct {
	id  string
	key crypto.PublicKey
}

// Authenticator verifies service-account tokens.
type Authenticator struct {
	issuers   map[string]bool
	keys      []verifyKey
	audiences []string
	objects   Objects
	now       func() time.Time
}

var _ apiauthn.TokenAuthenticator = (*Authenticator)(nil)

// NewAuthenticator returns the Authenticator of c.
func NewAuthenticator(c VerifyConfig) (*Authenticator, error) {
	if len(c.Issuers) == 0 || len(c.Keys) == 0 || c.Objects == nil {
		return nil, errors.New("serviceaccount: an authenticator needs issuers, keys and objects")
	}
	a := &Authenticator{issuers: map[string]bool{}, audiences: c.APIAudiences, objects: c.Objects, now: c.Now}
	if a.now == nil {
		a.now = time.Now
	}
	for _, iss := range c.Issuers {
		a.issuers[iss] = true
	}
	for _, k := range c.Keys {
		id, err := KeyID(k)
		if err != nil {
			return nil, err
		}
		a.keys = append(a.keys, verifyKey{id: id, key: k})
	}
	return a, nil
}

// AuthenticateToken implements authn.TokenAuthenticator for requests to
// the API server itself (its audiences).
func (a *Authenticator) AuthenticateToken(ctx context.Context, token string) (*authn.User, bool, error) {
	u, _, ok, err := a.AuthenticateTokenFor(ctx, token, nil)
	return u, ok, err
}

// AuthenticateTokenFor checks token for a caller that identifies as one of
// audiences (nil means the API server's audiences, as a TokenReview with
// no audiences asks). It returns the user and the audiences both sides
// share. A token that is not a JWT with a signature algorithm allowed
// here, or that names another issuer, is not ours: ok false, nil error.
func (a *Authenticator) AuthenticateTokenFor(ctx context.Context, token string, audiences []string) (*authn.User, []string, bool, error) {
	tok, err := jwt.ParseSigned(token, Algorithms)
	if err != nil {
		return nil, nil, false, nil
	}
	var unverified jwt.Claims
	if err := tok.UnsafeClaimsWithoutVerification(&unverified); err != nil || !a.issuers[unverified.Issuer] {
		return nil, nil, false, nil
	}
	public, private, err := a.verify(tok)
	if err != nil {
		return nil, nil, false, err
	}
	auds, err := a.checkAudiences(public.Audience, audiences)
	if err != nil {
		return nil, nil, false, err
	}
	u, err := a.live(ctx, public, private.Platform)
	if err != nil {
		return nil, nil, false, err
	}
	return u, auds, true, nil
}

// verify checks the signature, the issuer it covers, and the times.
func (a *Authenticator) verify(tok *jwt.JSONWebToken) (*jwt.Claims, *privateClaims, error) {
	public, private := &jwt.Claims{}, &privateClaims{}
	if !a.claimsByKey(tok, public, private) {
		return nil, nil, ErrSignature
	}
	if !a.issuers[public.Issuer] {
		return nil, nil, fmt.Errorf("%w: issuer %q", ErrClaims, public.Issuer)
	}
	if public.Expiry == nil {
		return nil, nil, fmt.Errorf("%w: no expiry", ErrClaims)
	}
	switch err := public.ValidateWithLeeway(jwt.Expected{Time: a.now()}, Leeway); {
	case errors.Is(err, jwt.ErrExpired):
		return nil, nil, ErrExpired
	case errors.Is(err, jwt.ErrNotValidYet), errors.Is(err, jwt.ErrIssuedInTheFuture):
		return nil, nil, ErrNotYet
	case err != nil:
		return nil, nil, fmt.Errorf("%w: %w", ErrClaims, err)
	}
	return public, private, nil
}

// claimsByKey decodes the claims with the first key whose signature
// matches, trying the key the header names first.
func (a *Authenticator) claimsByKey(tok *jwt.JSONWebToken, public *jwt.Claims, private *privateClaims) bool {
	kid := ""
	if len(tok.Headers) > 0 {
		kid = tok.Headers[0].KeyID
	}
	for _, named := range []bool{true, false} {
		for _, k := range a.keys {
			if (k.id == kid) == named && tok.Claims(k.key, public, private) == nil {
				return true
			}
		}
	}
	return false
}

// checkAudiences returns the audiences of the token that the caller
// accepts; a token with no audience is taken as meant for the API server.
func (a *Authenticator) checkAudiences(token jwt.Audience, wanted []string) ([]string, error) {
	if len(token) == 0 {
		token = a.audiences
	}
	if wanted == nil {
		wanted = a.audiences
	}
	var shared []string
	for _, aud := range token {
		if slices.Contains(wanted, aud) {
			shared = append(shared, aud)
		}
	}
	if len(shared) == 0 {
		return nil, fmt.Errorf("%w: token audiences %q, accepted %q", ErrAudience, []string(token), wanted)
	}
	return shared, nil
}

// live checks that the service account and the bound object still exist
// with the uids the token names, and returns the user.
func (a *Authenticator) live(ctx context.Context, public *jwt.Claims, c platformClaims) (*authn.User, error) {
	ns, sa := c.Namespace, c.ServiceAccount
	if ns == "" || sa.Name == "" || sa.UID == "" || public.Subject != Username(ns, sa.Name) {
		return nil, fmt.Errorf("%w: subject %q does not match the service account claim", ErrClaims, public.Subject)
	}
	cutoff := a.now().Add(-Leeway)
	acct, err := a.objects.ServiceAccount(ctx, ns, sa.Name)
	if err != nil {
		return nil, fmt.Errorf("serviceaccount: look up service account %s/%s: %w", ns, sa.Name, err)
	}
	if err := check("service account", ns, sa, string(acct.UID), deletedAt(acct.DeletionTimestamp), cutoff); err != nil {
		return nil, err
	}
	if c.Secret != nil {
		s, err := a.objects.Secret(ctx, ns, c.Secret.Name)
		if err != nil {
			return nil, fmt.Errorf("serviceaccount: look up bound secret %s/%s: %w", ns, c.Secret.Name, err)
		}
		if err := check("secret", ns, *c.Secret, string(s.UID), deletedAt(s.DeletionTimestamp), cutoff); err != nil {
			return nil, err
		}
	}
	u := &authn.User{Name: Username(ns, sa.Name), UID: sa.UID, Groups: Groups(ns)}
	if c.Pod != nil {
		p, err := a.objects.Pod(ctx, ns, c.Pod.Name)
		if err != nil {
			return nil, fmt.Errorf("serviceaccount: look up bound pod %s/%s: %w", ns, c.Pod.Name, err)
		}
		if err := check("pod", ns, *c.Pod, string(p.UID), deletedAt(p.DeletionTimestamp), cutoff); err != nil {
			return nil, err
		}
		u.Extra = map[string][]string{PodNameKey: {c.Pod.Name}, PodUIDKey: {c.Pod.UID}}
	}
	if public.ID != "" {
		if u.Extra == nil {
			u.Extra = map[string][]string{}
		}
		u.Extra[CredentialIDKey] = []string{"JTI=" + public.ID}
	}
	return u, nil
}

// check compares an object with the token's reference to it: same uid,
// and not deleted longer than the leeway ago.
func check(kind, ns string, ref Ref, uid string, deleted, cutoff time.Time) error {
	if uid != ref.UID {
		return fmt.Errorf("%w: %s %s/%s has uid %s, the token names %s", ErrUIDChange, kind, ns, ref.Name, uid, ref.UID)
	}
	if !deleted.IsZero() && deleted.Before(cutoff) {
		return fmt.Errorf("%w: %s %s/%s was deleted at %s", ErrDeleted, kind, ns, ref.Name, deleted.UTC().Format(time.RFC3339))
	}
	return nil
}

func deletedAt(t *meta.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.Time
}
