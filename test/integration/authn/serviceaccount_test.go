package authn

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestServiceAccountToken: a token of the TokenRequest subresource
// authenticates its service account through the chain (403 naming it under
// AlwaysDeny), and is refused with 401 once the account is deleted.
func TestServiceAccountToken(t *testing.T) {
	t.Parallel()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "sa.key")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		t.Fatal(err)
	}
	s := framework.Start(t, func(o *options.Options) {
		o.Authz.Modes = []string{options.ModeAlwaysDeny}
		o.ServiceAccount.Issuers = []string{"https://platform.example:6443"}
		o.ServiceAccount.SigningKeyFile = keyFile
		o.ServiceAccount.KeyFiles = []string{keyFile}
	})
	s.Do(t, "POST", "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"robot"}}`).Expect(t, http.StatusCreated)
	tr := s.Do(t, "POST", "/api/v1/namespaces/default/serviceaccounts/robot/token",
		`{"apiVersion":"authentication.platform.io/v1","kind":"TokenRequest","spec":{}}`).Expect(t, http.StatusCreated).Map(t)
	token := tr["status"].(map[string]any)["token"].(string)
	robot := request{name: "robot", headers: map[string]string{"Authorization": "Bearer " + token}}

	code, st := do(t, s, robot, "/api/v1/namespaces/default/configmaps", nil)
	want := `User "system:serviceaccount:default:robot" cannot list resource "configmaps"`
	if msg, _ := st["message"].(string); code != http.StatusForbidden || !strings.Contains(msg, want) {
		t.Fatalf("live account: %d %v, want 403 saying %s", code, st, want)
	}
	s.Do(t, "DELETE", "/api/v1/namespaces/default/serviceaccounts/robot", nil).Expect(t, http.StatusOK)
	waitFor(t, "401 for the deleted account's token", func() bool {
		code, _ := do(t, s, robot, "/api/v1/namespaces/default/configmaps", nil)
		return code == http.StatusUnauthorized
	})
}
