package e2e

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tokenKubeconfig writes a kubeconfig for s whose user holds only the
// bearer token.
func tokenKubeconfig(t *testing.T, s *Server, token string) string {
	t.Helper()
	pem, err := os.ReadFile(filepath.Join(s.CertDir, "apiserver.crt"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "token.kubeconfig")
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster: {server: %s, certificate-authority-data: %s}
users:
- name: u
  user: {token: %s}
contexts:
- name: e2e
  context: {cluster: e2e, user: u, namespace: default}
current-context: e2e
`, s.URL, base64.StdEncoding.EncodeToString(pem), token)
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestKubectlAuthentication: the stock kubectl against the default mode
// (AlwaysAllow, so anonymous requests are off): a client certificate and a
// token of --token-auth-file work, an unknown token is refused as
// Unauthorized, and --as works.
func TestKubectlAuthentication(t *testing.T) {
	t.Parallel()
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("e2e-static-token,tim,1,devs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := StartServerWith(t, ServerConfig{Args: []string{"--token-auth-file", tokens}})

	s.Expect(t, "namespace/default", "get", "namespace", "default", "-o", "name")
	if out := s.MustKubectl(t, "--kubeconfig", tokenKubeconfig(t, s, "e2e-static-token"), "get", "namespaces", "-o", "name"); !strings.Contains(out, "namespace/default") {
		t.Errorf("static token: %q", out)
	}
	r := s.KubectlFails(t, "--kubeconfig", tokenKubeconfig(t, s, "no-such-token"), "get", "namespaces")
	WantContains(t, r.Stderr, "Unauthorized")
	s.MustKubectl(t, "get", "pods", "--as", "bob", "--as-group", "ops")
}
