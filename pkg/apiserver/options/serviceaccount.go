package options

import (
	"crypto"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/apiserver/serviceaccount"
)

// Limits of --service-account-max-token-expiration, as upstream.
const (
	minMaxTokenExpiration = time.Hour
	maxMaxTokenExpiration = time.Duration(1<<32) * time.Second
)

// ServiceAccount configures service-account tokens: who issues them, the
// keys that sign and verify them, and the audiences the API server is.
type ServiceAccount struct {
	// Issuers are the --service-account-issuer values; the first issues.
	Issuers []string
	// KeyFiles hold the public (or private) keys that verify tokens.
	KeyFiles []string
	// SigningKeyFile holds the private key that signs tokens.
	SigningKeyFile string
	// APIAudiences are the audiences tokens must name; empty means the issuer.
	APIAudiences []string
	// MaxTokenExpiration caps requested token lifetimes; 0 means no cap.
	MaxTokenExpiration time.Duration
	// JWKSURI overrides jwks_uri in the discovery document.
	JWKSURI string
}

// NewServiceAccount returns the defaults: no tokens.
func NewServiceAccount() *ServiceAccount { return &ServiceAccount{} }

// AddFlags registers the service-account token flags.
func (o *ServiceAccount) AddFlags(fs *pflag.FlagSet) {
	fs.StringArrayVar(&o.Issuers, "service-account-issuer", o.Issuers, "Identifier of the service account token issuer, written in the \"iss\" claim of issued tokens: a string or a URI. When given several times, the first issues tokens and all are accepted. Issuer discovery (/.well-known/openid-configuration) is served only when the first is an https URL.")
	fs.StringArrayVar(&o.KeyFiles, "service-account-key-file", o.KeyFiles, "File containing PEM-encoded RSA or ECDSA public or private keys that verify service account tokens. A file may hold several keys and the flag may be given several times. Must be given with --service-account-signing-key-file.")
	fs.StringVar(&o.SigningKeyFile, "service-account-signing-key-file", o.SigningKeyFile, "File containing the PEM-encoded RSA or ECDSA private key that signs service account tokens. Required with --service-account-issuer.")
	fs.StringSliceVar(&o.APIAudiences, "api-audiences", o.APIAudiences, "Identifiers of the API. Service account tokens used against the API must be bound to at least one of these audiences. Defaults to the first --service-account-issuer.")
	fs.DurationVar(&o.MaxTokenExpiration, "service-account-max-token-expiration", o.MaxTokenExpiration, "The maximum validity of a token issued through the TokenRequest API; a longer request is shortened to this. 0 means no maximum; otherwise between 1h and 2^32 seconds.")
	fs.StringVar(&o.JWKSURI, "service-account-jwks-uri", o.JWKSURI, "Overrides jwks_uri in the discovery document served at /.well-known/openid-configuration, for relying parties that fetch the key set from another URL than the issuer's host. Must be an https URL; requires --service-account-issuer.")
}

// Validate checks the flags and that every key file reads and parses.
func (o *ServiceAccount) Validate() []error {
	var errs []error
	errs = append(errs, o.validateIssuers()...)
	attempted := o.SigningKeyFile != "" || len(o.Issuers) > 0 || len(o.APIAudiences) > 0
	if attempted && (o.SigningKeyFile == "" || len(o.Issuers) == 0) {
		errs = append(errs, errors.New("--service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together"))
	}
	if len(o.KeyFiles) > 0 && len(o.Issuers) == 0 {
		errs = append(errs, errors.New("--service-account-key-file requires --service-account-issuer"))
	}
	if o.SigningKeyFile != "" && len(o.KeyFiles) == 0 {
		errs = append(errs, errors.New("--service-account-key-file must be specified when --service-account-signing-key-file is provided"))
	}
	if o.MaxTokenExpiration != 0 && (o.MaxTokenExpiration < minMaxTokenExpiration || o.MaxTokenExpiration > maxMaxTokenExpiration) {
		errs = append(errs, errors.New("--service-account-max-token-expiration must be between 1 hour and 2^32 seconds"))
	}
	if o.JWKSURI != "" {
		if len(o.Issuers) == 0 {
			errs = append(errs, errors.New("--service-account-jwks-uri requires --service-account-issuer"))
		}
		if u, err := url.Parse(o.JWKSURI); err != nil || u.Scheme != "https" || u.Host == "" {
			errs = append(errs, fmt.Errorf("--service-account-jwks-uri: %q is not an https URL", o.JWKSURI))
		}
	}
	if _, _, err := o.readKeys(); err != nil {
		errs = append(errs, err)
	}
	return errs
}

func (o *ServiceAccount) validateIssuers() []error {
	var errs []error
	for i, iss := range o.Issuers {
		switch {
		case iss == "":
			errs = append(errs, errors.New("--service-account-issuer should not be an empty string"))
		case slices.Contains(o.Issuers[:i], iss):
			errs = append(errs, fmt.Errorf("--service-account-issuer %q is already specified", iss))
		case strings.Contains(iss, ":"):
			if _, err := url.Parse(iss); err != nil {
				errs = append(errs, fmt.Errorf("--service-account-issuer %q contained a ':' but was not a valid URL: %w", iss, err))
			}
		}
	}
	return errs
}

// readKeys reads the signing key and the verifying keys, and checks that
// the signing key's public half verifies: otherwise every token this
// server issues would be refused by it.
func (o *ServiceAccount) readKeys() (crypto.Signer, []crypto.PublicKey, error) {
	var keys []crypto.PublicKey
	for _, f := range o.KeyFiles {
		k, err := serviceaccount.ReadPublicKeysFile(f)
		if err != nil {
			return nil, nil, fmt.Errorf("--service-account-key-file: %w", err)
		}
		keys = append(keys, k...)
	}
	if o.SigningKeyFile == "" {
		return nil, keys, nil
	}
	signer, err := serviceaccount.ReadPrivateKeyFile(o.SigningKeyFile)
	if err != nil {
		return nil, nil, fmt.Errorf("--service-account-signing-key-file: %w", err)
	}
	if len(keys) > 0 && !slices.ContainsFunc(keys, func(k crypto.PublicKey) bool {
		eq, ok := k.(interface{ Equal(crypto.PublicKey) bool })
		return ok && eq.Equal(signer.Public())
	}) {
		return nil, nil, errors.New("--service-account-signing-key-file: its public key is in no --service-account-key-file, so the tokens it signs would not verify")
	}
	return signer, keys, nil
}

// ApplyTo fills c from validated options; with no issuer c stays zero.
// now is the issuer's clock (nil means time.Now).
func (o *ServiceAccount) ApplyTo(c *serviceaccount.Config, now func() time.Time) error {
	if len(o.Issuers) == 0 {
		return nil
	}
	signer, keys, err := o.readKeys()
	if err != nil {
		return err
	}
	if signer == nil {
		return errors.New("--service-account-signing-key-file is required with --service-account-issuer")
	}
	if c.Issuer, err = serviceaccount.NewIssuer(o.Issuers[0], signer, now); err != nil {
		return err
	}
	c.Issuers, c.Keys, c.MaxExpiration = slices.Clone(o.Issuers), keys, o.MaxTokenExpiration
	c.APIAudiences = slices.Clone(o.APIAudiences)
	if len(c.APIAudiences) == 0 {
		c.APIAudiences = []string{o.Issuers[0]}
	}
	c.Discovery, c.DiscoveryDisabled = serviceaccount.NewDiscovery(o.Issuers[0], o.JWKSURI, keys)
	if c.DiscoveryDisabled != nil && o.JWKSURI != "" {
		return fmt.Errorf("--service-account-jwks-uri: %w", c.DiscoveryDisabled)
	}
	return nil
}
