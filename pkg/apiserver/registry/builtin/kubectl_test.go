package builtin

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"

	"platform.io/platform/pkg/apiserver/authz"
	"platform.io/platform/pkg/apiserver/endpoints"
	"platform.io/platform/pkg/apiserver/registry"
	"platform.io/platform/pkg/component/authn"
)

const kubectlPolicies = `{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"*","resource":"selfsubjectaccessreviews"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"*","resource":"selfsubjectrulesreviews"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","apiGroup":"*","resource":"selfsubjectreviews"}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"projectCaribou","resource":"pods","readonly":true}}
{"apiVersion":"abac.authorization.platform.io/v1beta1","kind":"Policy","spec":{"group":"system:authenticated","readonly":true,"nonResourcePath":"*"}}
`

// TestStockKubectl runs the stock kubectl's auth can-i, can-i --list and
// auth whoami against the review rows behind the real handler and the
// authorization filter, with ABAC as the mode. The bearer token is taken
// as the user's name, standing in for the authentication filter.
func TestStockKubectl(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("no kubectl on PATH")
	}
	z, err := abacFrom(kubectlPolicies)
	if err != nil {
		t.Fatal(err)
	}
	var stores []*registry.Store
	for _, r := range Resources(Config{Authorizer: z, RuleResolver: z}) {
		if r.Virtual != nil {
			stores = append(stores, registry.NewStore(r, registry.Config{}))
		}
	}
	chain := authz.WithAuthorization(zap.NewNop(), endpoints.NewHandler(zap.NewNop(), endpoints.Config{}, stores), z)
	// kubectl sends bearer tokens over TLS only.
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			u := &authn.User{Name: name, UID: "uid-" + name, Groups: []string{authn.AllAuthenticated}}
			r = r.WithContext(authn.WithUser(r.Context(), u))
		}
		chain.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "config")
	ca := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(kubectl, append([]string{"--server", srv.URL, "--certificate-authority", ca, "--token", "bob", "-n", "projectCaribou"}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig, "HOME="+dir)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	tests := []struct {
		args     []string
		wantCode int
		want     []string
	}{
		{[]string{"auth", "can-i", "get", "pods"}, 0, []string{"yes\n"}},
		{[]string{"auth", "can-i", "watch", "pods"}, 0, []string{"yes\n"}},
		{[]string{"auth", "can-i", "create", "pods"}, 1, []string{"no - No policy matched.\n"}},
		{[]string{"auth", "can-i", "get", "pods", "-n", "other"}, 1, []string{"no - No policy matched.\n"}},
		{[]string{"auth", "can-i", "get", "/healthz"}, 0, []string{"yes\n"}},
		{[]string{"auth", "can-i", "--list"}, 0, []string{"pods", "[get list watch]"}},
		{[]string{"auth", "whoami"}, 0, []string{"Username", "bob", "UID", "uid-bob", "system:authenticated"}},
		{[]string{"auth", "whoami", "-o", "json"}, 0, []string{`"apiVersion": "authentication.k8s.io/v1"`, `"username": "bob"`}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, code := run(tt.args...)
			t.Logf("kubectl %s:\n%s", strings.Join(tt.args, " "), out)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d:\n%s", code, tt.wantCode, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
