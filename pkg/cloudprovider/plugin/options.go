package plugin

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	cloud "platform.io/client/cloudprovider"
)

// Options are the cloud provider flags.
type Options struct {
	// Provider is the provider's name; the plugin must report the same in
	// the handshake.
	Provider string
	// Config is the provider's configuration file, passed to a provider
	// the daemon starts.
	Config string
	// Endpoint is the provider's socket, unix:///path.
	Endpoint string
	// Binary is the provider's executable, started by the daemon.
	Binary string
	// CallTimeout bounds every call to the provider.
	CallTimeout time.Duration
}

// NewOptions returns the defaults: no provider, 30s per call.
func NewOptions() *Options {
	return &Options{CallTimeout: 30 * time.Second}
}

// AddFlags registers the flags on fs.
func (o *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Provider, "cloud-provider", o.Provider, "The provider for cloud services. The provider, reached through --cloud-provider-endpoint or started from --cloud-provider-binary, must report this name in the plugin handshake.")
	fs.StringVar(&o.Config, "cloud-config", o.Config, "The path to the cloud provider configuration file, passed as --cloud-config to the provider started from --cloud-provider-binary. Empty string for no configuration file.")
	fs.StringVar(&o.Endpoint, "cloud-provider-endpoint", o.Endpoint, "The cloud provider plugin's socket, unix:///path. With --cloud-provider-binary, the socket the started provider serves (a private temporary one when empty).")
	fs.StringVar(&o.Binary, "cloud-provider-binary", o.Binary, "A cloud provider plugin executable to start, restart when it exits and stop on shutdown; it is run with --endpoint=unix:///<socket> and, when set, --cloud-config=<file>.")
	fs.DurationVar(&o.CallTimeout, "cloud-provider-call-timeout", o.CallTimeout, "The deadline of every call to the cloud provider plugin.")
}

// Validate checks the flags.
func (o *Options) Validate() []error {
	var errs []error
	if o.Provider == "" {
		errs = append(errs, errors.New("--cloud-provider: a provider name is required"))
	}
	if o.Endpoint == "" && o.Binary == "" {
		errs = append(errs, errors.New("--cloud-provider-endpoint or --cloud-provider-binary is required: providers run as plugins"))
	}
	if o.Endpoint != "" {
		if _, err := cloud.SocketPath(o.Endpoint); err != nil {
			errs = append(errs, fmt.Errorf("--cloud-provider-endpoint: %w", err))
		}
	}
	if o.Config != "" {
		if o.Binary == "" {
			errs = append(errs, errors.New("--cloud-config: only a provider started from --cloud-provider-binary is given its configuration file"))
		} else if _, err := os.Stat(o.Config); err != nil {
			errs = append(errs, fmt.Errorf("--cloud-config: %w", err))
		}
	}
	if o.CallTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--cloud-provider-call-timeout: %v must be positive", o.CallTimeout))
	}
	return errs
}
