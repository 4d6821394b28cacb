package serviceaccount

import (
	"crypto"
	"time"
)

// Config is the API server's service-account token setup, built from its
// options. The zero Config issues and accepts no tokens.
type Config struct {
	// Issuer signs tokens; nil means the TokenRequest subresource is not served.
	Issuer *Issuer
	// Issuers are the accepted "iss" values; the first is Issuer's.
	Issuers []string
	// Keys verify tokens.
	Keys []crypto.PublicKey
	// APIAudiences are the API server's own audiences; tokens requested
	// without audiences get these.
	APIAudiences []string
	// MaxExpiration caps requested lifetimes; 0 means no cap.
	MaxExpiration time.Duration
	// Discovery holds the issuer discovery documents; nil when the issuer
	// is not an https URL (then DiscoveryDisabled says why).
	Discovery         *Discovery
	DiscoveryDisabled error
}

// Enabled reports whether tokens are issued and accepted.
func (c *Config) Enabled() bool { return c != nil && c.Issuer != nil }

// Authenticator returns the verifier of c reading objects from objs.
func (c *Config) Authenticator(objs Objects, now func() time.Time) (*Authenticator, error) {
	return NewAuthenticator(VerifyConfig{Issuers: c.Issuers, Keys: c.Keys, APIAudiences: c.APIAudiences, Objects: objs, Now: now})
}
