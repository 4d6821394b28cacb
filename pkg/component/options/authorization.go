package options

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"
	"go.uber.org/zap"

	"platform.io/platform/pkg/component/authn"
	"platform.io/platform/pkg/component/authz"
	"platform.io/platform/pkg/component/server"
)

// Authorization delegates authorization to the API server.
type Authorization struct {
	Kubeconfig       string
	AllowCacheTTL    time.Duration
	DenyCacheTTL     time.Duration
	AlwaysAllowPaths []string
	// AlwaysAllowGroups are never checked; it has no flag. Upstream's
	// default, system:masters, is a group the API server allows
	// everything anyway.
	AlwaysAllowGroups []string
	// UserAgent is the review client's User-Agent; not a flag, the daemon
	// runner sets it (the daemon's name and version).
	UserAgent string
}

// NewAuthorization returns the defaults.
func NewAuthorization() *Authorization {
	return &Authorization{
		AllowCacheTTL:     10 * time.Second,
		DenyCacheTTL:      10 * time.Second,
		AlwaysAllowPaths:  []string{"/healthz"},
		AlwaysAllowGroups: []string{authn.SystemPrivilegedGroup},
	}
}

// AddFlags registers the authorization flags.
func (o *Authorization) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "authorization-kubeconfig", o.Kubeconfig, "Kubeconfig of an API server allowed to create subjectaccessreviews.authorization.platform.io. Empty: every request not on --authorization-always-allow-paths is forbidden.")
	fs.DurationVar(&o.AllowCacheTTL, "authorization-webhook-cache-authorized-ttl", o.AllowCacheTTL, "How long allowed answers of the access review are cached.")
	fs.DurationVar(&o.DenyCacheTTL, "authorization-webhook-cache-unauthorized-ttl", o.DenyCacheTTL, "How long denied answers of the access review are cached.")
	fs.StringSliceVar(&o.AlwaysAllowPaths, "authorization-always-allow-paths", o.AlwaysAllowPaths, "Paths allowed to anyone without an access review; a trailing * allows every path under a prefix, as in /debug/*.")
}

// Validate checks the authorization options.
func (o *Authorization) Validate() []error {
	var errs []error
	if o.AllowCacheTTL < 0 {
		errs = append(errs, fmt.Errorf("--authorization-webhook-cache-authorized-ttl: %s must not be negative", o.AllowCacheTTL))
	}
	if o.DenyCacheTTL < 0 {
		errs = append(errs, fmt.Errorf("--authorization-webhook-cache-unauthorized-ttl: %s must not be negative", o.DenyCacheTTL))
	}
	for _, p := range o.AlwaysAllowPaths {
		if err := authz.ValidatePath(p); err != nil {
			errs = append(errs, fmt.Errorf("--authorization-always-allow-paths: %w", err))
		}
	}
	errs = append(errs, checkFiles("--authorization-kubeconfig", o.Kubeconfig)...)
	return errs
}

// ApplyTo builds the authorizer.
func (o *Authorization) ApplyTo(lg *zap.Logger, reg prometheus.Registerer, cfg *server.Config) error {
	ac := authz.Config{AlwaysAllowPaths: o.AlwaysAllowPaths, AlwaysAllowGroups: o.AlwaysAllowGroups,
		AllowTTL: o.AllowCacheTTL, DenyTTL: o.DenyCacheTTL}
	if o.Kubeconfig == "" {
		lg.Warn("no --authorization-kubeconfig: every request not on --authorization-always-allow-paths is forbidden")
	} else {
		client, err := reviewClient("--authorization-kubeconfig", o.Kubeconfig, o.UserAgent)
		if err != nil {
			return err
		}
		if ac.Reviewer, err = authz.NewWebhook(lg.Named("subjectaccessreview"), reg, client); err != nil {
			return err
		}
	}
	a, err := authz.New(lg.Named("authz"), ac)
	if err != nil {
		return fmt.Errorf("--authorization-always-allow-paths: %w", err)
	}
	cfg.Authorizer = a
	return nil
}
