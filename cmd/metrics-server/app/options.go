package app

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/spf13/pflag"

	corev1 "platform.io/client/api/core/v1"

	"platform.io/platform/pkg/component/cli"
	"platform.io/platform/pkg/metricsserver"
)

// Options are the metrics server's own flags: how often and how nodes
// are scraped.
type Options struct {
	MetricResolution     time.Duration
	KubeletPort          int
	UseNodeStatusPort    bool
	PreferredAddressType []string
	InsecureTLS          bool
	CAFile               string
	ClientCertFile       string
	ClientKeyFile        string
	RequestTimeout       time.Duration
}

// addressTypes are the node address types, in upstream's default order.
var addressTypes = []string{
	string(corev1.NodeHostName), string(corev1.NodeInternalDNS), string(corev1.NodeInternalIP),
	string(corev1.NodeExternalDNS), string(corev1.NodeExternalIP),
}

// NewOptions returns the defaults: a scrape every 15s of port 10250 of
// the first address of the upstream order of types.
func NewOptions() *Options {
	return &Options{
		MetricResolution:     15 * time.Second,
		KubeletPort:          10250,
		PreferredAddressType: slices.Clone(addressTypes),
		RequestTimeout:       10 * time.Second,
	}
}

// Groups returns the "Metrics" and "Kubelet client" groups.
func (o *Options) Groups() []cli.NamedFlagSet {
	return []cli.NamedFlagSet{
		cli.Group("Metrics", func(fs *pflag.FlagSet) {
			fs.DurationVar(&o.MetricResolution, "metric-resolution", o.MetricResolution, "The interval at which every node is scraped; usage is the rate over the last two scrapes. At least 100ms.")
		}),
		cli.Group("Kubelet client", o.addKubeletFlags),
	}
}

func (o *Options) addKubeletFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.KubeletPort, "kubelet-port", o.KubeletPort, "The port of the nodes' resource metrics endpoints, unless --kubelet-use-node-status-port.")
	fs.BoolVar(&o.UseNodeStatusPort, "kubelet-use-node-status-port", o.UseNodeStatusPort, "Use each node's status.daemonEndpoints.kubeletEndpoint.port instead of --kubelet-port.")
	fs.StringSliceVar(&o.PreferredAddressType, "kubelet-preferred-address-types", o.PreferredAddressType, "The node address types to connect to, in order of preference.")
	fs.BoolVar(&o.InsecureTLS, "kubelet-insecure-tls", o.InsecureTLS, "Do not verify the serving certificates of the nodes. For testing only.")
	fs.StringVar(&o.CAFile, "kubelet-certificate-authority", o.CAFile, "PEM bundle verifying the nodes' serving certificates. Empty uses the system's roots.")
	fs.StringVar(&o.ClientCertFile, "kubelet-client-certificate", o.ClientCertFile, "Client certificate presented to the nodes.")
	fs.StringVar(&o.ClientKeyFile, "kubelet-client-key", o.ClientKeyFile, "Key of --kubelet-client-certificate.")
	fs.DurationVar(&o.RequestTimeout, "kubelet-request-timeout", o.RequestTimeout, "Bound of one scrape of one node; capped at --metric-resolution.")
}

// Validate checks every flag.
func (o *Options) Validate() []error {
	var errs []error
	if o.MetricResolution < 100*time.Millisecond {
		errs = append(errs, fmt.Errorf("--metric-resolution: %s must be at least 100ms", o.MetricResolution))
	}
	if o.KubeletPort <= 0 || o.KubeletPort > 65535 {
		errs = append(errs, fmt.Errorf("--kubelet-port: %d is not in 1..65535", o.KubeletPort))
	}
	if len(o.PreferredAddressType) == 0 {
		errs = append(errs, errors.New("--kubelet-preferred-address-types: at least one type is needed"))
	}
	for _, t := range o.PreferredAddressType {
		if !slices.Contains(addressTypes, t) {
			errs = append(errs, fmt.Errorf("--kubelet-preferred-address-types: %q is not one of %v", t, addressTypes))
		}
	}
	if o.InsecureTLS && o.CAFile != "" {
		errs = append(errs, errors.New("--kubelet-insecure-tls and --kubelet-certificate-authority are exclusive"))
	}
	if (o.ClientCertFile == "") != (o.ClientKeyFile == "") {
		errs = append(errs, errors.New("--kubelet-client-certificate and --kubelet-client-key must be given together"))
	}
	if o.RequestTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--kubelet-request-timeout: %s must be positive", o.RequestTimeout))
	}
	return errs
}

// ScrapeConfig returns the scraper's configuration, reading the files.
func (o *Options) ScrapeConfig() (metricsserver.ScrapeConfig, error) {
	cfg := metricsserver.ScrapeConfig{
		Resolution: o.MetricResolution, Timeout: min(o.RequestTimeout, o.MetricResolution),
		Port: o.KubeletPort, UseNodeStatusPort: o.UseNodeStatusPort,
		TLS: &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: o.InsecureTLS}, //nolint:gosec // the operator's choice, documented as for testing
	}
	for _, t := range o.PreferredAddressType {
		cfg.AddressTypes = append(cfg.AddressTypes, corev1.NodeAddressType(t))
	}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return cfg, fmt.Errorf("--kubelet-certificate-authority: %w", err)
		}
		cfg.TLS.RootCAs = x509.NewCertPool()
		if !cfg.TLS.RootCAs.AppendCertsFromPEM(pem) {
			return cfg, fmt.Errorf("--kubelet-certificate-authority: no PEM certificate in %s", o.CAFile)
		}
	}
	if o.ClientCertFile != "" {
		cert, err := tls.LoadX509KeyPair(o.ClientCertFile, o.ClientKeyFile)
		if err != nil {
			return cfg, fmt.Errorf("--kubelet-client-certificate: %w", err)
		}
		cfg.TLS.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}
