package options

import (
	"errors"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/component/featuregate"
	componentoptions "platform.io/platform/pkg/component/options"
)

// Options are all the API server's options.
type Options struct {
	Generic *Generic
	Etcd    *Etcd
	Serving *Serving
	API     *API
	Authn   *Authentication
	Authz   *Authorization
	// Admission chooses the admission plugins.
	Admission *Admission
	Logging   *Logging
	Features  *featuregate.Gate
	// Reconciler keeps the platform Service's Endpoints.
	Reconciler *EndpointReconciler
	// ServiceAccount configures service-account tokens.
	ServiceAccount *ServiceAccount
	// Audit configures audit logging.
	Audit *Audit
	// Aggregator configures proxying to aggregated API servers.
	Aggregator *Aggregator
	// Debugging turns on the profiling endpoints.
	Debugging *componentoptions.Debugging
}

// New returns the defaults.
func New() *Options {
	return &Options{Generic: NewGeneric(), Etcd: NewEtcd(), Serving: NewServing(), API: NewAPI(),
		Authn: NewAuthentication(), Authz: NewAuthorization(), Admission: NewAdmission(), Logging: NewLogging(), Features: NewFeatureGate(),
		Reconciler: NewEndpointReconciler(), ServiceAccount: NewServiceAccount(), Audit: NewAudit(), Aggregator: NewAggregator(),
		Debugging: componentoptions.NewDebugging(componentoptions.Defaults{})}
}

// FlagSets returns the option groups in the order --help shows them.
func (o *Options) FlagSets() []cli.NamedFlagSet {
	return []cli.NamedFlagSet{
		cli.Group("Generic", o.Generic.AddFlags),
		cli.Group("Etcd", o.Etcd.AddFlags),
		cli.Group("Secure serving", o.Serving.AddFlags),
		cli.Group("API", o.API.AddFlags),
		cli.Group("Authentication", o.Authn.AddFlags),
		cli.Group("Authorization", o.Authz.AddFlags),
		cli.Group("Admission", o.Admission.AddFlags),
		cli.Group("Endpoint reconciler", o.Reconciler.AddFlags),
		cli.Group("Service account tokens", o.ServiceAccount.AddFlags),
		cli.Group("Audit", o.Audit.AddFlags),
		cli.Group("Aggregator", o.Aggregator.AddFlags),
		cli.Group("Logging", o.Logging.AddFlags),
		cli.Group("Debugging", o.Debugging.AddFlags),
		cli.Group("Feature gates", o.Features.AddFlag),
	}
}

// Validate checks every group.
func (o *Options) Validate() error {
	var errs []error
	errs = append(errs, o.Generic.Validate()...)
	errs = append(errs, o.Etcd.Validate()...)
	errs = append(errs, o.Serving.Validate()...)
	errs = append(errs, o.API.Validate()...)
	errs = append(errs, o.Authn.Validate()...)
	errs = append(errs, o.Authz.Validate()...)
	errs = append(errs, o.Admission.Validate()...)
	errs = append(errs, o.Logging.Validate()...)
	errs = append(errs, o.Reconciler.Validate()...)
	errs = append(errs, o.ServiceAccount.Validate()...)
	errs = append(errs, o.Audit.Validate()...)
	errs = append(errs, o.Aggregator.Validate()...)
	errs = append(errs, o.Debugging.Validate()...)
	return errors.Join(errs...)
}

// Complete fills derived values.
func (o *Options) Complete() error {
	if err := o.Etcd.Complete(); err != nil {
		return err
	}
	return o.Generic.Complete(o.Serving.BindAddress)
}
