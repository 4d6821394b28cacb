package options

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/component/featuregate"
	"platform.io/platform/pkg/component/server"
)

// Options are the options every daemon shares.
type Options struct {
	Generic        *Generic
	SecureServing  *SecureServing
	Authentication *Authentication
	Authorization  *Authorization
	LeaderElection *LeaderElection
	Debugging      *Debugging
	Logging        *Logging
	Version        *Version
	// Features is the daemon's --feature-gates, never nil: a daemon
	// without gates has an empty set, which rejects every name.
	Features *featuregate.Gate
}

// New returns the options at the daemon's defaults; features nil means
// the daemon has no feature gates.
func New(d Defaults, features *featuregate.Gate) *Options {
	if features == nil {
		features = featuregate.New(nil)
	}
	return &Options{
		Generic:        NewGeneric(d),
		SecureServing:  NewSecureServing(d),
		Authentication: NewAuthentication(d),
		Authorization:  NewAuthorization(),
		LeaderElection: NewLeaderElection(d),
		Debugging:      NewDebugging(d),
		Logging:        NewLogging(),
		Version:        NewVersion(),
		Features:       features,
	}
}

// Groups returns the flags in the groups --help shows; a daemon appends
// its own groups.
func (o *Options) Groups() []cli.NamedFlagSet {
	return []cli.NamedFlagSet{
		cli.Group("Generic", o.Generic.AddFlags),
		cli.Group("Secure serving", o.SecureServing.AddFlags),
		cli.Group("Authentication", o.Authentication.AddFlags),
		cli.Group("Authorization", o.Authorization.AddFlags),
		cli.Group("Leader election", o.LeaderElection.AddFlags),
		cli.Group("Debugging", o.Debugging.AddFlags),
		cli.Group("Feature gates", o.Features.AddFlag),
		cli.Group("Logging", o.Logging.AddFlags),
		cli.Group("Misc", o.Version.AddFlags),
	}
}

// Validate returns every invalid value, each error naming its flag.
func (o *Options) Validate() []error {
	var errs []error
	errs = append(errs, o.Generic.Validate()...)
	errs = append(errs, o.SecureServing.Validate()...)
	errs = append(errs, o.Authentication.Validate()...)
	errs = append(errs, o.Authorization.Validate()...)
	errs = append(errs, o.LeaderElection.Validate()...)
	errs = append(errs, o.Debugging.Validate()...)
	errs = append(errs, o.Logging.Validate()...)
	return errs
}

// ApplyTo fills the server's configuration: authentication (which may
// look up the cluster's settings, within ctx), authorization, debugging
// and, last, the listener and certificate.
func (o *Options) ApplyTo(ctx context.Context, lg *zap.Logger, reg prometheus.Registerer, cfg *server.Config) error {
	if err := o.Authentication.ApplyTo(ctx, lg, reg, cfg); err != nil {
		return err
	}
	if err := o.Authorization.ApplyTo(lg, reg, cfg); err != nil {
		return err
	}
	o.Debugging.ApplyTo(cfg)
	cfg.LeaderElection = o.LeaderElection.LeaderElect
	return o.SecureServing.ApplyTo(cfg)
}
