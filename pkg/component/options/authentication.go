package options

import (
	"context"
	"crypto/x509"
	"fmt"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"platform.io/client/rest"

	"platform.io/platform/pkg/component/authn"
	"platform.io/platform/pkg/component/server"
)

// Authentication delegates authentication to the API server.
type Authentication struct {
	Kubeconfig            string
	CacheTTL              time.Duration
	SkipLookup            bool
	TolerateLookupFailure bool
	ClientCAFile          string
	RequestHeader         RequestHeader
	// UserAgent is the review client's User-Agent; not a flag, the daemon
	// runner sets it (the daemon's name and version).
	UserAgent string
}

// RequestHeader trusts a front proxy.
type RequestHeader struct {
	ClientCAFile        string
	AllowedNames        []string
	UsernameHeaders     []string
	GroupHeaders        []string
	ExtraHeaderPrefixes []string
}

// NewAuthentication returns the defaults.
func NewAuthentication(d Defaults) *Authentication {
	return &Authentication{
		CacheTTL:              10 * time.Second,
		TolerateLookupFailure: d.TolerateLookupFailure,
		RequestHeader: RequestHeader{
			UsernameHeaders:     []string{"x-remote-user"},
			GroupHeaders:        []string{"x-remote-group"},
			ExtraHeaderPrefixes: []string{"x-remote-extra-"},
		},
	}
}

// AddFlags registers the authentication flags.
func (o *Authentication) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "authentication-kubeconfig", o.Kubeconfig, "Kubeconfig of an API server allowed to create tokenreviews.authentication.platform.io. Empty: bearer tokens are ignored (such requests are anonymous) and no client CA is looked up.")
	fs.DurationVar(&o.CacheTTL, "authentication-token-webhook-cache-ttl", o.CacheTTL, "How long answers of the token review are cached.")
	fs.BoolVar(&o.SkipLookup, "authentication-skip-lookup", o.SkipLookup, "If false, the client CA and request-header settings not given by flags are read from the ConfigMap platform-system/extension-apiserver-authentication.")
	fs.BoolVar(&o.TolerateLookupFailure, "authentication-tolerate-lookup-failure", o.TolerateLookupFailure, "If true, failing to read the authentication ConfigMap is not fatal; requests a looked-up CA would have authenticated are then anonymous.")
	fs.StringVar(&o.ClientCAFile, "client-ca-file", o.ClientCAFile, "PEM bundle of the authorities whose client certificates authenticate as their CommonName, with their Organizations as groups.")
	rh := &o.RequestHeader
	fs.StringVar(&rh.ClientCAFile, "requestheader-client-ca-file", rh.ClientCAFile, "PEM bundle verifying the client certificates of front proxies before the identity headers of --requestheader-username-headers are trusted.")
	fs.StringSliceVar(&rh.AllowedNames, "requestheader-allowed-names", rh.AllowedNames, "CommonNames a front proxy certificate may carry. Empty allows any certificate that verifies.")
	fs.StringSliceVar(&rh.UsernameHeaders, "requestheader-username-headers", rh.UsernameHeaders, "Request headers holding the user name; the first one set is used.")
	fs.StringSliceVar(&rh.GroupHeaders, "requestheader-group-headers", rh.GroupHeaders, "Request headers holding groups.")
	fs.StringSliceVar(&rh.ExtraHeaderPrefixes, "requestheader-extra-headers-prefix", rh.ExtraHeaderPrefixes, "Prefixes of request headers holding extra user information.")
}

// Validate checks the authentication options.
func (o *Authentication) Validate() []error {
	var errs []error
	if o.CacheTTL < 0 {
		errs = append(errs, fmt.Errorf("--authentication-token-webhook-cache-ttl: %s must not be negative", o.CacheTTL))
	}
	if o.RequestHeader.ClientCAFile != "" && len(o.RequestHeader.UsernameHeaders) == 0 {
		errs = append(errs, fmt.Errorf("--requestheader-username-headers: required with --requestheader-client-ca-file"))
	}
	errs = append(errs, checkFiles("--authentication-kubeconfig", o.Kubeconfig, "--client-ca-file", o.ClientCAFile,
		"--requestheader-client-ca-file", o.RequestHeader.ClientCAFile)...)
	return errs
}

// ApplyTo builds the authenticator, looking up what the flags left out.
func (o *Authentication) ApplyTo(ctx context.Context, lg *zap.Logger, reg prometheus.Registerer, cfg *server.Config) error {
	ac := authn.Config{TokenSuccessTTL: o.CacheTTL, TokenFailureTTL: o.CacheTTL}
	clientCA, rh, err := o.files()
	if err != nil {
		return err
	}
	if o.Kubeconfig == "" {
		lg.Warn("no --authentication-kubeconfig: bearer tokens are not checked and no client CA is looked up")
	} else {
		client, err := reviewClient("--authentication-kubeconfig", o.Kubeconfig, o.UserAgent)
		if err != nil {
			return err
		}
		if ac.TokenReviewer, err = authn.NewWebhook(lg.Named("tokenreview"), reg, client); err != nil {
			return err
		}
		if clientCA, rh, err = o.lookup(ctx, lg, client, clientCA, rh); err != nil {
			return err
		}
	}
	if ac.ClientCA, err = pool("client CA (--client-ca-file or looked up)", clientCA); err != nil {
		return err
	}
	if rh != nil {
		ac.RequestHeader = &authn.RequestHeaderConfig{AllowedNames: rh.AllowedNames, UsernameHeaders: rh.UsernameHeaders,
			GroupHeaders: rh.GroupHeaders, ExtraHeaderPrefixes: rh.ExtraHeaderPrefixes}
		if ac.RequestHeader.ClientCA, err = pool("request-header CA (--requestheader-client-ca-file or looked up)", rh.RequestHeaderClientCA); err != nil {
			return err
		}
	}
	cfg.Authenticator = authn.New(lg.Named("authn"), ac)
	return nil
}

// files reads the CAs the flags name; the request-header settings are nil
// when --requestheader-client-ca-file is empty.
func (o *Authentication) files() (clientCA []byte, rh *authn.ClusterConfig, err error) {
	if o.ClientCAFile != "" {
		if clientCA, err = os.ReadFile(o.ClientCAFile); err != nil {
			return nil, nil, fmt.Errorf("--client-ca-file: %w", err)
		}
	}
	if f := o.RequestHeader; f.ClientCAFile != "" {
		ca, err := os.ReadFile(f.ClientCAFile)
		if err != nil {
			return nil, nil, fmt.Errorf("--requestheader-client-ca-file: %w", err)
		}
		rh = &authn.ClusterConfig{RequestHeaderClientCA: ca, AllowedNames: f.AllowedNames,
			UsernameHeaders: f.UsernameHeaders, GroupHeaders: f.GroupHeaders, ExtraHeaderPrefixes: f.ExtraHeaderPrefixes}
	}
	return clientCA, rh, nil
}

// lookup fills the client CA and the request-header settings the flags
// left out from the cluster, unless lookups are skipped.
func (o *Authentication) lookup(ctx context.Context, lg *zap.Logger, client *rest.Client, clientCA []byte, rh *authn.ClusterConfig) ([]byte, *authn.ClusterConfig, error) {
	if o.SkipLookup || (clientCA != nil && rh != nil) {
		return clientCA, rh, nil
	}
	found, err := authn.Lookup(ctx, client)
	if err != nil {
		if !o.TolerateLookupFailure {
			return nil, nil, fmt.Errorf("%w (set --authentication-tolerate-lookup-failure=true to start without it, or --authentication-skip-lookup)", err)
		}
		lg.Warn("cannot look up the authentication configuration; requests it would authenticate are anonymous", zap.Error(err))
		return clientCA, rh, nil
	}
	if clientCA == nil && len(found.ClientCA) > 0 {
		clientCA = found.ClientCA
		lg.Info("using the client CA of the cluster")
	}
	if rh == nil && len(found.RequestHeaderClientCA) > 0 {
		rh = found
		if len(rh.UsernameHeaders) == 0 {
			rh.UsernameHeaders = o.RequestHeader.UsernameHeaders
		}
		lg.Info("using the request-header settings of the cluster")
	}
	return clientCA, rh, nil
}

// pool parses a PEM bundle; nil for none.
func pool(what string, pem []byte) (*x509.CertPool, error) {
	if len(pem) == 0 {
		return nil, nil
	}
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no PEM certificate found", what)
	}
	return p, nil
}
