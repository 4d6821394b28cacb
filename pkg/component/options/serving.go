package options

import (
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/spf13/pflag"

	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/pkg/component/server"
)

// SecureServing is the daemon's HTTPS endpoint.
type SecureServing struct {
	BindAddress net.IP
	// BindPort 0 disables serving, unless Listener is set.
	BindPort int
	CertDir  string
	CertFile string
	KeyFile  string

	// Listener, when set, is served instead of listening on BindAddress
	// and BindPort (tests pass one on a random port).
	Listener net.Listener
	// PairName names the self-signed pair in CertDir.
	PairName string
}

// NewSecureServing returns the defaults.
func NewSecureServing(d Defaults) *SecureServing {
	return &SecureServing{BindAddress: net.IPv4zero, BindPort: d.SecurePort, PairName: d.Name}
}

// AddFlags registers the serving flags.
func (o *SecureServing) AddFlags(fs *pflag.FlagSet) {
	fs.IPVar(&o.BindAddress, "bind-address", o.BindAddress, "The IP address on which to listen for --secure-port. 0.0.0.0 or :: listen on all interfaces.")
	fs.IntVar(&o.BindPort, "secure-port", o.BindPort, "The port on which to serve HTTPS with authentication and authorization. 0 disables HTTPS.")
	fs.StringVar(&o.CertDir, "cert-dir", o.CertDir, "The directory where the self-signed certificate is kept when --tls-cert-file is empty. Empty keeps it in memory only.")
	fs.StringVar(&o.CertFile, "tls-cert-file", o.CertFile, "File containing the x509 serving certificate, followed by any intermediates. Empty generates a self-signed certificate.")
	fs.StringVar(&o.KeyFile, "tls-private-key-file", o.KeyFile, "File containing the private key matching --tls-cert-file.")
}

// Validate checks the serving options.
func (o *SecureServing) Validate() []error {
	var errs []error
	if o.BindPort < 0 || o.BindPort > 65535 {
		errs = append(errs, fmt.Errorf("--secure-port: %d is not in 0..65535", o.BindPort))
	}
	if len(o.BindAddress) == 0 {
		errs = append(errs, fmt.Errorf("--bind-address: required"))
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		errs = append(errs, fmt.Errorf("--tls-cert-file and --tls-private-key-file must be given together"))
	}
	errs = append(errs, checkFiles("--tls-cert-file", o.CertFile, "--tls-private-key-file", o.KeyFile)...)
	return errs
}

// ApplyTo opens the listener and loads or makes the certificate.
func (o *SecureServing) ApplyTo(cfg *server.Config) error {
	if o.Listener == nil && o.BindPort == 0 {
		return nil
	}
	cert, err := o.certificate()
	if err != nil {
		return err
	}
	l := o.Listener
	if l == nil {
		addr := net.JoinHostPort(o.BindAddress.String(), strconv.Itoa(o.BindPort))
		if l, err = net.Listen("tcp", addr); err != nil {
			return fmt.Errorf("--secure-port: listen on %s: %w", addr, err)
		}
	}
	cfg.Listener, cfg.Cert = l, cert
	return nil
}

// certificate loads the given pair, or the self-signed one.
func (o *SecureServing) certificate() (*tls.Certificate, error) {
	certFile, keyFile := o.CertFile, o.KeyFile
	if certFile == "" {
		var hosts []string
		if !o.BindAddress.IsUnspecified() {
			hosts = append(hosts, o.BindAddress.String())
		}
		if o.CertDir == "" {
			p, err := certs.NewServing(nil, o.PairName, hosts)
			if err != nil {
				return nil, err
			}
			cert, err := tls.X509KeyPair(p.CertPEM, p.KeyPEM)
			return &cert, err
		}
		var err error
		if certFile, keyFile, err = certs.EnsureSelfSigned(o.CertDir, o.PairName, o.PairName, hosts); err != nil {
			return nil, fmt.Errorf("--cert-dir: %w", err)
		}
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert-file: %w", err)
	}
	return &cert, nil
}

// checkFiles takes flag, path pairs and reports each path that cannot be
// read; an empty path is fine.
func checkFiles(pairs ...string) []error {
	var errs []error
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			continue
		}
		f, err := os.Open(pairs[i+1])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", pairs[i], err))
			continue
		}
		f.Close()
	}
	return errs
}
