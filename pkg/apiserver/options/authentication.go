package options

import (
	"crypto/x509"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authn"
	cauthn "platform.io/platform/pkg/component/authn"
)

// Authentication configures the chain of authentication methods.
type Authentication struct {
	Anonymous             bool
	ClientCAFile          string
	TokenAuthFile         string
	BootstrapToken        bool
	WebhookConfigFile     string
	WebhookVersion        string
	WebhookCacheTTL       time.Duration
	RequestHeaderCAFile   string
	RequestHeaderAllowed  []string
	RequestHeaderUsername []string
	RequestHeaderGroup    []string
	RequestHeaderExtra    []string
}

// NewAuthentication returns the defaults: the spec's for the API server,
// and for the front-proxy headers upstream API server's (none).
func NewAuthentication() *Authentication {
	return &Authentication{Anonymous: true, WebhookVersion: authn.WebhookV1beta1, WebhookCacheTTL: 2 * time.Minute}
}

// AddFlags registers the authentication flags.
func (o *Authentication) AddFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&o.Anonymous, "anonymous-auth", o.Anonymous, "Enables anonymous requests to the secure port. Requests that are not rejected by another authentication method are treated as anonymous requests, with a username of system:anonymous and a group name of system:unauthenticated. Turned off whenever AlwaysAllow is among the authorization modes.")
	fs.StringVar(&o.ClientCAFile, "client-ca-file", o.ClientCAFile, "If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate, its Organizations being the groups.")
	fs.StringVar(&o.TokenAuthFile, "token-auth-file", o.TokenAuthFile, "If set, the file used to secure the secure port via token authentication: CSV lines of token,user,uid,\"group1,group2\".")
	fs.BoolVar(&o.BootstrapToken, "enable-bootstrap-token-auth", o.BootstrapToken, "Enable to allow secrets of type 'bootstrap.platform.io/token' in the 'platform-system' namespace to be used for TLS bootstrapping authentication.")
	fs.StringVar(&o.WebhookConfigFile, "authentication-token-webhook-config-file", o.WebhookConfigFile, "File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.")
	fs.StringVar(&o.WebhookVersion, "authentication-token-webhook-version", o.WebhookVersion, "The API version of the authentication.platform.io TokenReview to send to and expect from the webhook: v1beta1 or v1.")
	fs.DurationVar(&o.WebhookCacheTTL, "authentication-token-webhook-cache-ttl", o.WebhookCacheTTL, "The duration to cache responses from the webhook token authenticator; 0 asks the webhook every time.")
	fs.StringVar(&o.RequestHeaderCAFile, "requestheader-client-ca-file", o.RequestHeaderCAFile, "Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.")
	fs.StringSliceVar(&o.RequestHeaderAllowed, "requestheader-allowed-names", o.RequestHeaderAllowed, "List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.")
	fs.StringSliceVar(&o.RequestHeaderUsername, "requestheader-username-headers", o.RequestHeaderUsername, "List of request headers to inspect for usernames. X-Remote-User is common.")
	fs.StringSliceVar(&o.RequestHeaderGroup, "requestheader-group-headers", o.RequestHeaderGroup, "List of request headers to inspect for groups. X-Remote-Group is suggested.")
	fs.StringSliceVar(&o.RequestHeaderExtra, "requestheader-extra-headers-prefix", o.RequestHeaderExtra, "List of request header prefixes to inspect. X-Remote-Extra- is suggested.")
}

// Validate checks the authentication options.
func (o *Authentication) Validate() []error {
	var errs []error
	if o.WebhookVersion != authn.WebhookV1 && o.WebhookVersion != authn.WebhookV1beta1 {
		errs = append(errs, fmt.Errorf("--authentication-token-webhook-version: %q is neither v1beta1 nor v1", o.WebhookVersion))
	}
	if o.WebhookCacheTTL < 0 {
		errs = append(errs, fmt.Errorf("--authentication-token-webhook-cache-ttl: %v is negative", o.WebhookCacheTTL))
	}
	if o.RequestHeaderCAFile != "" && len(o.RequestHeaderUsername) == 0 {
		errs = append(errs, fmt.Errorf("--requestheader-username-headers: required with --requestheader-client-ca-file"))
	}
	if o.RequestHeaderCAFile == "" && (len(o.RequestHeaderUsername) > 0 || len(o.RequestHeaderAllowed) > 0) {
		errs = append(errs, fmt.Errorf("--requestheader-client-ca-file: required with the other --requestheader flags"))
	}
	return errs
}

// AuthenticationDeps are the parts of the running server some methods
// need.
type AuthenticationDeps struct {
	// Secrets reads Secrets for bootstrap tokens.
	Secrets authn.SecretGetter
	// ServiceAccounts checks service-account tokens; nil leaves them to
	// the other methods.
	ServiceAccounts authn.TokenAuthenticator
	// Now reads the clock (nil: time.Now).
	Now func() time.Time
}

// AuthenticationConfig is what the options build.
type AuthenticationConfig struct {
	Authenticator *authn.Chain
	// Tokens are the chain's bearer-token methods, in order, for
	// TokenReview.
	Tokens []authn.TokenAuthenticator
	// ClientCAs are the authorities the TLS handshake names when asking
	// for a client certificate: the client CA and the front proxy's.
	ClientCAs *x509.CertPool
	// Published is the data of extension-apiserver-authentication, for
	// components that delegate authentication.
	Published map[string]string
}

// ApplyTo builds the chain. Anonymous requests are turned off, with a
// warning, when AlwaysAllow is among modes, as upstream does, so a server
// with the default mode is not open to everyone.
func (o *Authentication) ApplyTo(lg *zap.Logger, modes []string, deps AuthenticationDeps) (*AuthenticationConfig, error) {
	cfg := authn.Config{Anonymous: o.Anonymous}
	if cfg.Anonymous && slices.Contains(modes, ModeAlwaysAllow) {
		lg.Warn("anonymous requests are not allowed with the AlwaysAllow authorizer; turning --anonymous-auth off; use another authorization mode")
		cfg.Anonymous = false
	}
	out := &AuthenticationConfig{ClientCAs: x509.NewCertPool(), Published: map[string]string{}}
	if o.ClientCAFile != "" {
		pool, pem, err := readCAs(o.ClientCAFile)
		if err != nil {
			return nil, fmt.Errorf("--client-ca-file: %w", err)
		}
		cfg.ClientCert = cauthn.NewClientCert(pool)
		out.ClientCAs.AppendCertsFromPEM(pem)
		out.Published[cauthn.KeyClientCA] = string(pem)
	}
	if o.RequestHeaderCAFile != "" {
		pool, pem, err := readCAs(o.RequestHeaderCAFile)
		if err != nil {
			return nil, fmt.Errorf("--requestheader-client-ca-file: %w", err)
		}
		cfg.RequestHeader = cauthn.NewRequestHeader(cauthn.RequestHeaderConfig{
			ClientCA: pool, AllowedNames: o.RequestHeaderAllowed, UsernameHeaders: o.RequestHeaderUsername,
			GroupHeaders: o.RequestHeaderGroup, ExtraHeaderPrefixes: o.RequestHeaderExtra,
		})
		out.ClientCAs.AppendCertsFromPEM(pem)
		out.Published[cauthn.KeyRequestHeaderClientCA] = string(pem)
		for k, v := range map[string][]string{
			cauthn.KeyRequestHeaderAllowed: o.RequestHeaderAllowed, cauthn.KeyRequestHeaderUsername: o.RequestHeaderUsername,
			cauthn.KeyRequestHeaderGroup: o.RequestHeaderGroup, cauthn.KeyRequestHeaderExtraPrefix: o.RequestHeaderExtra,
		} {
			b, _ := json.Marshal(append([]string{}, v...))
			out.Published[k] = string(b)
		}
	}
	tokens, err := o.tokens(lg, deps)
	if err != nil {
		return nil, err
	}
	cfg.Tokens = tokens
	out.Tokens = tokens
	out.Authenticator = authn.New(cfg)
	return out, nil
}

// tokens are the bearer-token methods in upstream's order: token file,
// service-account tokens, bootstrap tokens, webhook.
func (o *Authentication) tokens(lg *zap.Logger, deps AuthenticationDeps) ([]authn.TokenAuthenticator, error) {
	var ts []authn.TokenAuthenticator
	if o.TokenAuthFile != "" {
		tf, err := authn.ReadTokenFile(o.TokenAuthFile)
		if err != nil {
			return nil, fmt.Errorf("--token-auth-file: %w", err)
		}
		ts = append(ts, tf)
	}
	// Service-account tokens take their place here.
	if deps.ServiceAccounts != nil {
		ts = append(ts, deps.ServiceAccounts)
	}
	if o.BootstrapToken {
		if deps.Secrets == nil {
			return nil, fmt.Errorf("--enable-bootstrap-token-auth: no secret store")
		}
		ts = append(ts, authn.NewBootstrap(lg.Named("bootstrap-token"), deps.Secrets, deps.Now))
	}
	if o.WebhookConfigFile != "" {
		w, err := authn.NewTokenWebhook(lg.Named("token-webhook"), o.WebhookConfigFile, o.WebhookVersion, o.WebhookCacheTTL, deps.Now)
		if err != nil {
			return nil, fmt.Errorf("--authentication-token-webhook-config-file: %w", err)
		}
		ts = append(ts, w)
	}
	return ts, nil
}

// readCAs reads a PEM bundle of certificates.
func readCAs(path string) (*x509.CertPool, []byte, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, nil, fmt.Errorf("%s holds no PEM certificate", path)
	}
	return pool, pem, nil
}
