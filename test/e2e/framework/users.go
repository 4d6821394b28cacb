package framework

import (
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/component/certs"
)

// RBACConfig is a ServerConfig as `make run` (hack/local-up.sh) runs the
// API server: --authorization-mode=Node,RBAC, the NodeRestriction
// admission plugin and ServiceAccount on, issuing service-account tokens
// with a new key written into t's temporary directory.
func RBACConfig(t testing.TB) ServerConfig {
	t.Helper()
	key, err := certs.NewCA("e2e-service-account-key")
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "sa.key")
	if err := os.WriteFile(keyFile, key.KeyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return ServerConfig{ServiceAccountAdmission: true, Args: []string{
		"--authorization-mode=Node,RBAC",
		"--enable-admission-plugins=NodeRestriction",
		"--service-account-issuer=https://platform.e2e.test",
		"--service-account-signing-key-file=" + keyFile,
		"--service-account-key-file=" + keyFile,
	}}
}

// SignClient returns a client pair for user in groups, signed by the CA
// s trusts (--client-ca-file).
func (s *Server) SignClient(t testing.TB, user string, groups ...string) *certs.Pair {
	t.Helper()
	p, err := certs.NewClient(s.ID.CA, user, groups)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// UserKubeconfig writes a kubeconfig for s that authenticates with a new
// client certificate of user in groups.
func (s *Server) UserKubeconfig(t testing.TB, user string, groups ...string) string {
	t.Helper()
	p := s.SignClient(t, user, groups...)
	serving, err := os.ReadFile(filepath.Join(s.CertDir, "apiserver.crt"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), strings.NewReplacer(":", "-").Replace(user)+".kubeconfig")
	enc := base64.StdEncoding.EncodeToString
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster: {server: %s, certificate-authority-data: %s}
users:
- name: u
  user: {client-certificate-data: %s, client-key-data: %s}
contexts:
- name: e2e
  context: {cluster: e2e, user: u, namespace: default}
current-context: e2e
`, s.URL, enc(serving), enc(p.CertPEM), enc(p.KeyPEM))
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// StartDaemonAs runs a daemon with kubeconfig for the API server and for
// delegated authentication and authorization of its secure port.
func (s *Server) StartDaemonAs(t *testing.T, name, kubeconfig string, args ...string) *Process {
	t.Helper()
	// StartProcess puts the admin's --kubeconfig first; the later flag
	// replaces it.
	return s.StartProcess(t, name, append([]string{"--kubeconfig", kubeconfig,
		"--authentication-kubeconfig", kubeconfig, "--authorization-kubeconfig", kubeconfig}, args...)...)
}

// DaemonClient is an HTTPS client for a daemon's self-signed secure port
// presenting id's certificate, or none when id is nil.
func (s *Server) DaemonClient(id *certs.Pair) *http.Client {
	cfg := &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the daemon's certificate is self-signed; the tests check authorization, not the server's identity
	if id != nil {
		cfg.Certificates = []tls.Certificate{PairCertificate(id)}
	}
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: cfg}}
}
