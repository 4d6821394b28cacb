// Package certs makes the certificates a local or test control plane
// needs: a CA, serving certificates for given hosts, client certificates,
// and a self-signed serving pair kept in a directory across restarts.
// Keys are ECDSA P-256; everything is PEM encoded.
package certs

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Pair is a certificate and its key, parsed and PEM encoded.
type Pair struct {
	Cert    *x509.Certificate
	Key     *ecdsa.PrivateKey
	CertPEM []byte
	KeyPEM  []byte
}

// Validity of generated certificates.
const Validity = 365 * 24 * time.Hour

// NewCA returns a self-signed CA.
func NewCA(commonName string) (*Pair, error) {
	return create(&x509.Certificate{
		Subject:               pkix.Name{CommonName: commonName},
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}, nil)
}

// NewServing returns a serving certificate for hosts (names or IPs) plus
// localhost and loopback, signed by ca, or self-signed (its own CA) when ca is nil.
func NewServing(ca *Pair, commonName string, hosts []string) (*Pair, error) {
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: commonName},
		KeyUsage:    x509.KeyUsageKeyEncipherment | x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ca == nil {
		tmpl.KeyUsage |= x509.KeyUsageCertSign
		tmpl.BasicConstraintsValid, tmpl.IsCA = true, true
	}
	for _, h := range append(hosts, "localhost", "127.0.0.1", "::1") {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	return create(tmpl, ca)
}

// NewClient returns a client certificate for user in groups, signed by ca.
func NewClient(ca *Pair, user string, groups []string) (*Pair, error) {
	return create(&x509.Certificate{
		Subject:     pkix.Name{CommonName: user, Organization: groups},
		KeyUsage:    x509.KeyUsageKeyEncipherment | x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, ca)
}

func create(tmpl *x509.Certificate, parent *Pair) (*Pair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl.SerialNumber, tmpl.NotBefore, tmpl.NotAfter = serial, now.Add(-time.Hour), now.Add(Validity)
	signer, signerKey := tmpl, key
	if parent != nil {
		signer, signerKey = parent.Cert, parent.Key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		return nil, fmt.Errorf("certs: sign %s: %w", tmpl.Subject.CommonName, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return &Pair{
		Cert: cert, Key: key,
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}, nil
}

// Write stores the pair as dir/name.crt and dir/name.key (key mode 0600).
func (p *Pair) Write(dir, name string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".key"), p.KeyPEM, 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".crt"), p.CertPEM, 0o644)
}

// Load reads dir/name.crt and dir/name.key.
func Load(dir, name string) (*Pair, error) {
	certPEM, err := os.ReadFile(filepath.Join(dir, name+".crt"))
	if err != nil {
		return nil, err
	}
	keyPEM, err := os.ReadFile(filepath.Join(dir, name+".key"))
	if err != nil {
		return nil, err
	}
	tc, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("certs: %s in %s: %w", name, dir, err)
	}
	cert, err := x509.ParseCertificate(tc.Certificate[0])
	if err != nil {
		return nil, err
	}
	key, ok := tc.PrivateKey.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("certs: %s in %s: key is not ECDSA", name, dir)
	}
	return &Pair{Cert: cert, Key: key, CertPEM: certPEM, KeyPEM: keyPEM}, nil
}

// EnsureSelfSigned returns the files of a self-signed serving pair named
// name in dir, creating it on first use, so restarts keep the certificate
// and whoever trusts it.
func EnsureSelfSigned(dir, name, commonName string, hosts []string) (certFile, keyFile string, err error) {
	certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if _, err := Load(dir, name); err == nil {
		return certFile, keyFile, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", "", fmt.Errorf("self-signed certificate in %s is unreadable: %w", dir, err)
	}
	p, err := NewServing(nil, fmt.Sprintf("%s@%d", commonName, time.Now().Unix()), hosts)
	if err != nil {
		return "", "", err
	}
	return certFile, keyFile, p.Write(dir, name)
}
