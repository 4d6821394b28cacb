package options

import (
	"crypto/tls"
	"fmt"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/apiserver/aggregator"
)

// Aggregator configures how the API server reaches the servers that
// APIServices delegate group versions to.
type Aggregator struct {
	ProxyClientCertFile string
	ProxyClientKeyFile  string
}

// NewAggregator returns the defaults: no front-proxy client certificate.
func NewAggregator() *Aggregator { return &Aggregator{} }

// AddFlags registers the aggregator flags.
func (o *Aggregator) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.ProxyClientCertFile, "proxy-client-cert-file", o.ProxyClientCertFile, "Client certificate the API server presents when it proxies a request to an aggregated API server (an APIService with a service), which then trusts the user named in the request headers. It should be signed by the CA of --requestheader-client-ca-file, which the extension-apiserver-authentication ConfigMap in platform-system publishes to aggregated servers.")
	fs.StringVar(&o.ProxyClientKeyFile, "proxy-client-key-file", o.ProxyClientKeyFile, "Private key of --proxy-client-cert-file.")
}

// Validate checks that the certificate and key come together.
func (o *Aggregator) Validate() []error {
	if (o.ProxyClientCertFile == "") != (o.ProxyClientKeyFile == "") {
		return []error{fmt.Errorf("--proxy-client-cert-file and --proxy-client-key-file must be given together")}
	}
	return nil
}

// ApplyTo loads the front-proxy client certificate into cfg and names the
// user headers after the first name of each --requestheader flag (upstream's
// X-Remote-* when one is not set), so the headers sent are the ones the
// published configuration tells aggregated servers to read.
func (o *Aggregator) ApplyTo(cfg *aggregator.Config, authn *Authentication) error {
	if o.ProxyClientCertFile != "" {
		cert, err := tls.LoadX509KeyPair(o.ProxyClientCertFile, o.ProxyClientKeyFile)
		if err != nil {
			return fmt.Errorf("--proxy-client-cert-file: %w", err)
		}
		cfg.ClientCert = &cert
	}
	first := func(names []string) string {
		if len(names) > 0 {
			return names[0]
		}
		return ""
	}
	cfg.Headers = aggregator.Headers{
		User:        first(authn.RequestHeaderUsername),
		Group:       first(authn.RequestHeaderGroup),
		ExtraPrefix: first(authn.RequestHeaderExtra),
	}
	return nil
}
