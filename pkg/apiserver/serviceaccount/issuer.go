package serviceaccount

import (
	"crypto"
	"fmt"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/uuid"
)

// Issuer signs service-account tokens with one private key.
type Issuer struct {
	issuer string
	signer jose.Signer
	alg    jose.SignatureAlgorithm
	now    func() time.Time
}

// NewIssuer returns an Issuer whose tokens name issuer in "iss" and carry
// the key's id in their "kid" header. now is the clock; nil means time.Now.
func NewIssuer(issuer string, key crypto.Signer, now func() time.Time) (*Issuer, error) {
	alg, err := Algorithm(key.Public())
	if err != nil {
		return nil, err
	}
	kid, err := KeyID(key.Public())
	if err != nil {
		return nil, err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: key, KeyID: kid, Algorithm: string(alg), Use: "sig"}}, nil)
	if err != nil {
		return nil, fmt.Errorf("serviceaccount: signer: %w", err)
	}
	if now == nil {
		now = time.Now
	}
	return &Issuer{issuer: issuer, signer: signer, alg: alg, now: now}, nil
}

// Name returns the issuer written into tokens.
func (i *Issuer) Name() string { return i.issuer }

// Request is what one token says.
type Request struct {
	Namespace string
	// ServiceAccount is the account's name and uid.
	ServiceAccount Ref
	// Pod or Secret, when set, binds the token to that object.
	Pod, Secret *Ref
	Audiences   []string
	Lifetime    time.Duration
}

// Issue signs a token for r and returns it with its expiry (the "exp"
// claim, whole seconds).
func (i *Issuer) Issue(r Request) (string, time.Time, error) {
	now := i.now()
	exp := now.Add(r.Lifetime)
	public := jwt.Claims{
		Issuer:    i.issuer,
		Subject:   Username(r.Namespace, r.ServiceAccount.Name),
		Audience:  jwt.Audience(r.Audiences),
		Expiry:    jwt.NewNumericDate(exp),
		NotBefore: jwt.NewNumericDate(now),
		IssuedAt:  jwt.NewNumericDate(now),
		ID:        uuid.NewString(),
	}
	private := privateClaims{Platform: platformClaims{
		Namespace: r.Namespace, ServiceAccount: r.ServiceAccount, Pod: r.Pod, Secret: r.Secret,
	}}
	token, err := jwt.Signed(i.signer).Claims(public).Claims(private).Serialize()
	if err != nil {
		return "", time.Time{}, fmt.Errorf("serviceaccount: sign token: %w", err)
	}
	return token, public.Expiry.Time(), nil
}
