package crd

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

// TestRBAC: custom resources are authorized like any other: a user with
// no rule on them is refused, a Role on the group and plural lets them in,
// in its namespace only.
func TestRBAC(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("admin,admin,uid-admin,\"system:masters\"\nalice,alice,uid-alice,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plain := framework.Start(t, func(o *options.Options) {
		o.Authz.Modes = []string{options.ModeRBAC}
		o.Authn.TokenAuthFile = tokens
	})
	pem, err := os.ReadFile(plain.CertFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	s := &framework.Server{URL: plain.SecureURL, Client: &http.Client{Timeout: 30 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}}
	admin := framework.Header{"Authorization": "Bearer admin"}
	alice := framework.Header{"Authorization": "Bearer alice"}
	framework.Eventually(t, 20*time.Second, "readyz", func() bool { return s.Do(t, "GET", "/readyz", nil, admin).Code == http.StatusOK })

	// Installed through the insecure port (system:masters).
	install(t, plain, definition("stable.example.com", "crontabs", "CronTab", "Namespaced"))
	base := "/apis/stable.example.com/v1/namespaces/default/crontabs"
	obj := map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": map[string]any{"name": "a"}}
	s.Do(t, "POST", base, obj, alice).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "GET", base, nil, alice).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "POST", crdsPath, definition("stable.example.com", "widgets", "Widget", "Cluster"), alice).ExpectStatus(t, http.StatusForbidden, "Forbidden")

	role := map[string]any{"apiVersion": "rbac.authorization.platform.io/v1", "kind": "Role",
		"metadata": map[string]any{"name": "crontab-editor", "namespace": "default"},
		"rules":    []any{map[string]any{"apiGroups": []string{"stable.example.com"}, "resources": []string{"crontabs"}, "verbs": []string{"*"}}}}
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/namespaces/default/roles", role, admin).Expect(t, http.StatusCreated)
	binding := map[string]any{"apiVersion": "rbac.authorization.platform.io/v1", "kind": "RoleBinding",
		"metadata": map[string]any{"name": "alice-crontabs", "namespace": "default"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.platform.io", "kind": "Role", "name": "crontab-editor"},
		"subjects": []any{map[string]any{"kind": "User", "apiGroup": "rbac.authorization.platform.io", "name": "alice"}}}
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/namespaces/default/rolebindings", binding, admin).Expect(t, http.StatusCreated)
	framework.Eventually(t, 10*time.Second, "alice may create crontabs", func() bool {
		return s.Do(t, "POST", base, obj, alice).Code == http.StatusCreated
	})
	s.Do(t, "GET", base+"/a", nil, alice).Expect(t, http.StatusOK)
	other := fmt.Sprintf("/apis/stable.example.com/v1/namespaces/%s/crontabs", "platform-system")
	s.Do(t, "GET", other, nil, alice).ExpectStatus(t, http.StatusForbidden, "Forbidden")
}
