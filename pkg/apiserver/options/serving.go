package options

import (
	"fmt"
	"net"

	"github.com/spf13/pflag"
)

// Serving configures the HTTPS port and the optional plain-HTTP port.
type Serving struct {
	BindAddress     net.IP
	SecurePort      int
	TLSCertFile     string
	TLSKeyFile      string
	CertDir         string
	InsecurePort    int
	InsecureAddress net.IP
}

// NewServing returns the defaults.
func NewServing() *Serving {
	return &Serving{
		BindAddress: net.ParseIP("0.0.0.0"), SecurePort: 6443, CertDir: "_output/local/certs",
		InsecureAddress: net.ParseIP("127.0.0.1"),
	}
}

// AddFlags registers the serving flags.
func (o *Serving) AddFlags(fs *pflag.FlagSet) {
	fs.IPVar(&o.BindAddress, "bind-address", o.BindAddress, "The IP address on which to listen for the --secure-port port.")
	fs.IntVar(&o.SecurePort, "secure-port", o.SecurePort, "The port on which to serve HTTPS. 0 picks a free port.")
	fs.StringVar(&o.TLSCertFile, "tls-cert-file", o.TLSCertFile, "File containing the x509 certificate for HTTPS. If empty, a self-signed certificate is generated in --cert-dir.")
	fs.StringVar(&o.TLSKeyFile, "tls-private-key-file", o.TLSKeyFile, "File containing the x509 private key matching --tls-cert-file.")
	fs.StringVar(&o.CertDir, "cert-dir", o.CertDir, "The directory where the self-signed certificate is kept. Ignored if --tls-cert-file is set.")
	fs.IntVar(&o.InsecurePort, "insecure-port", o.InsecurePort, "A plain-HTTP port without authentication or authorization, whose requests act as system:unsecured in group system:masters, for local development and tests only. 0 (the default) disables it; -1 picks a free port.")
	fs.IPVar(&o.InsecureAddress, "insecure-bind-address", o.InsecureAddress, "The IP address of --insecure-port.")
}

// Validate checks the serving options.
func (o *Serving) Validate() []error {
	var errs []error
	if o.SecurePort < 0 || o.SecurePort > 65535 {
		errs = append(errs, fmt.Errorf("--secure-port: %d is not in 0..65535", o.SecurePort))
	}
	if o.InsecurePort < -1 || o.InsecurePort > 65535 {
		errs = append(errs, fmt.Errorf("--insecure-port: %d is not in -1..65535", o.InsecurePort))
	}
	if (o.TLSCertFile == "") != (o.TLSKeyFile == "") {
		errs = append(errs, fmt.Errorf("--tls-cert-file and --tls-private-key-file must be given together"))
	}
	if o.TLSCertFile == "" && o.CertDir == "" {
		errs = append(errs, fmt.Errorf("--cert-dir: required when --tls-cert-file is empty"))
	}
	return errs
}
