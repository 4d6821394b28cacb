package certs

import (
	"crypto/x509"
	"testing"
)

func TestChainVerifies(t *testing.T) {
	ca, err := NewCA("test-ca")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewServing(ca, "server", []string{"example.test", "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	client, err := NewClient(ca, "admin", []string{"system:masters"})
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	if _, err := srv.Cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: "example.test"}); err != nil {
		t.Errorf("serving cert for example.test: %v", err)
	}
	if _, err := srv.Cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"}); err != nil {
		t.Errorf("serving cert for loopback: %v", err)
	}
	if _, err := srv.Cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: "other.test"}); err == nil {
		t.Error("serving cert verified for a host it does not name")
	}
	if _, err := client.Cert.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("client cert: %v", err)
	}
	if client.Cert.Subject.CommonName != "admin" || client.Cert.Subject.Organization[0] != "system:masters" {
		t.Errorf("client subject %v", client.Cert.Subject)
	}
}

func TestEnsureSelfSignedKeepsThePair(t *testing.T) {
	dir := t.TempDir()
	c1, _, err := EnsureSelfSigned(dir, "srv", "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := Load(dir, "srv")
	if err != nil {
		t.Fatal(err)
	}
	c2, _, err := EnsureSelfSigned(dir, "srv", "test", nil)
	if err != nil || c1 != c2 {
		t.Fatalf("second call: %s %v", c2, err)
	}
	second, _ := Load(dir, "srv")
	if !first.Cert.Equal(second.Cert) {
		t.Fatal("the pair was regenerated")
	}
	pool := x509.NewCertPool()
	pool.AddCert(first.Cert)
	if _, err := first.Cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: "localhost"}); err != nil {
		t.Fatalf("self-signed cert does not verify against itself: %v", err)
	}
}
