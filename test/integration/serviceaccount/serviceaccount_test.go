package serviceaccount

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/test/integration/framework"
)

const issuer = "https://platform.example:6443"

// start runs an API server that issues tokens with a fresh RSA key, and
// returns it with the key.
func start(t *testing.T, opts ...framework.Option) (*framework.Server, *rsa.PrivateKey) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sa.key")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		t.Fatal(err)
	}
	withTokens := func(o *options.Options) {
		o.ServiceAccount.Issuers = []string{issuer}
		o.ServiceAccount.SigningKeyFile = path
		o.ServiceAccount.KeyFiles = []string{path}
	}
	return framework.Start(t, append([]framework.Option{withTokens}, opts...)...), key
}

func create(t *testing.T, s *framework.Server, path, body string) map[string]any {
	t.Helper()
	return s.Do(t, "POST", path, body).Expect(t, http.StatusCreated).Map(t)
}

func uidOf(m map[string]any) string {
	return m["metadata"].(map[string]any)["uid"].(string)
}

func requestToken(t *testing.T, s *framework.Server, ns, sa, spec string) (token string, status map[string]any) {
	t.Helper()
	m := create(t, s, "/api/v1/namespaces/"+ns+"/serviceaccounts/"+sa+"/token", `{"apiVersion":"authentication.platform.io/v1","kind":"TokenRequest","spec":`+spec+`}`)
	if m["kind"] != "TokenRequest" || m["apiVersion"] != "authentication.platform.io/v1" {
		t.Fatalf("answer %v", m)
	}
	st := m["status"].(map[string]any)
	return st["token"].(string), st
}

// review asks the server who token is, for audiences.
func review(t *testing.T, s *framework.Server, token string, audiences ...string) map[string]any {
	t.Helper()
	body := map[string]any{"apiVersion": "authentication.platform.io/v1", "kind": "TokenReview", "spec": map[string]any{"token": token, "audiences": audiences}}
	return s.Do(t, "POST", "/apis/authentication.platform.io/v1/tokenreviews", body).Expect(t, http.StatusCreated).Map(t)["status"].(map[string]any)
}

func expectUser(t *testing.T, st map[string]any, name, uid string) map[string]any {
	t.Helper()
	if st["authenticated"] != true {
		t.Fatalf("not authenticated: %v", st)
	}
	u := st["user"].(map[string]any)
	groups := fmt.Sprint(u["groups"])
	if u["username"] != name || u["uid"] != uid || !strings.Contains(groups, "system:serviceaccounts ") || !strings.Contains(groups, "system:authenticated") {
		t.Fatalf("user %v, want %s uid %s", u, name, uid)
	}
	return u
}

func expectRefused(t *testing.T, st map[string]any) {
	t.Helper()
	if st["authenticated"] == true || st["error"] == nil {
		t.Fatalf("token accepted: %v", st)
	}
}

// eventually retries check until it passes: the live checks read the watch
// cache, which follows a write within moments.
func eventually(t *testing.T, check func() bool) {
	t.Helper()
	framework.Eventually(t, 10*time.Second, "condition", check)
}

func TestTokenRequestAndReview(t *testing.T) {
	s, _ := start(t)
	create(t, s, "/api/v1/namespaces", `{"metadata":{"name":"apps"}}`)
	sa := create(t, s, "/api/v1/namespaces/apps/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	saUID := uidOf(sa)

	before := time.Now()
	token, st := requestToken(t, s, "apps", "robot", `{}`)
	exp, err := time.Parse(time.RFC3339, st["expirationTimestamp"].(string))
	if err != nil || exp.Before(before.Add(time.Hour-2*time.Second)) || exp.After(time.Now().Add(time.Hour+time.Second)) {
		t.Fatalf("expiry %v (%v), want an hour from now", st["expirationTimestamp"], err)
	}
	expectUser(t, review(t, s, token), "system:serviceaccount:apps:robot", saUID)
	expectRefused(t, review(t, s, token, "vault"))
	if st := review(t, s, "not-a-token"); st["authenticated"] == true {
		t.Fatalf("garbage accepted: %v", st)
	}

	// A token bound to a pod names the pod and dies with it.
	pod := create(t, s, "/api/v1/namespaces/apps/pods", `{"metadata":{"name":"web"},"spec":{"serviceAccountName":"robot","containers":[{"name":"c","image":"nginx"}]}}`)
	podUID := uidOf(pod)
	podToken, _ := requestToken(t, s, "apps", "robot", `{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"web","uid":"`+podUID+`"}}`)
	u := expectUser(t, review(t, s, podToken), "system:serviceaccount:apps:robot", saUID)
	if extra := fmt.Sprint(u["extra"]); !strings.Contains(extra, "authentication.platform.io/pod-name:[web]") || !strings.Contains(extra, podUID) {
		t.Fatalf("extra %s", extra)
	}
	s.Do(t, "DELETE", "/api/v1/namespaces/apps/pods/web", `{"gracePeriodSeconds":0}`).Expect(t, http.StatusOK)
	eventually(t, func() bool { return review(t, s, podToken)["authenticated"] != true })
	create(t, s, "/api/v1/namespaces/apps/pods", `{"metadata":{"name":"web"},"spec":{"serviceAccountName":"robot","containers":[{"name":"c","image":"nginx"}]}}`)
	expectRefused(t, review(t, s, podToken))

	// A token bound to a secret, likewise.
	sec := create(t, s, "/api/v1/namespaces/apps/secrets", `{"metadata":{"name":"cred"}}`)
	secToken, _ := requestToken(t, s, "apps", "robot", `{"boundObjectRef":{"kind":"Secret","apiVersion":"v1","name":"cred","uid":"`+uidOf(sec)+`"}}`)
	expectUser(t, review(t, s, secToken), "system:serviceaccount:apps:robot", saUID)
	s.Do(t, "DELETE", "/api/v1/namespaces/apps/secrets/cred", nil).Expect(t, http.StatusOK)
	eventually(t, func() bool { return review(t, s, secToken)["authenticated"] != true })

	// Deleting the service account ends its tokens, and recreating it
	// under the same name does not bring them back.
	s.Do(t, "DELETE", "/api/v1/namespaces/apps/serviceaccounts/robot", nil).Expect(t, http.StatusOK)
	eventually(t, func() bool { return review(t, s, token)["authenticated"] != true })
	again := create(t, s, "/api/v1/namespaces/apps/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	eventually(t, func() bool {
		st := review(t, s, token)
		return st["authenticated"] != true && strings.Contains(fmt.Sprint(st["error"]), "recreated")
	})
	fresh, _ := requestToken(t, s, "apps", "robot", `{}`)
	expectUser(t, review(t, s, fresh), "system:serviceaccount:apps:robot", uidOf(again))
}

func TestTokenRequestValidation(t *testing.T) {
	s, _ := start(t)
	create(t, s, "/api/v1/namespaces", `{"metadata":{"name":"v"}}`)
	create(t, s, "/api/v1/namespaces/v/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	create(t, s, "/api/v1/namespaces/v/serviceaccounts", `{"metadata":{"name":"other"}}`)
	pod := create(t, s, "/api/v1/namespaces/v/pods", `{"metadata":{"name":"p"},"spec":{"serviceAccountName":"robot","containers":[{"name":"c","image":"nginx"}]}}`)
	create(t, s, "/api/v1/namespaces/v/pods", `{"metadata":{"name":"q"},"spec":{"serviceAccountName":"other","containers":[{"name":"c","image":"nginx"}]}}`)
	cases := []struct {
		name, sa, body string
		code           int
		reason         string
	}{
		{"no such service account", "ghost", `{"spec":{}}`, 404, "NotFound"},
		{"too short", "robot", `{"spec":{"expirationSeconds":599}}`, 422, "Invalid"},
		{"too long", "robot", `{"spec":{"expirationSeconds":4294967297}}`, 422, "Invalid"},
		{"name mismatch", "robot", `{"metadata":{"name":"other"},"spec":{}}`, 422, "Invalid"},
		{"namespace mismatch", "robot", `{"metadata":{"namespace":"default"},"spec":{}}`, 422, "Invalid"},
		{"wrong kind", "robot", `{"kind":"TokenReview","spec":{}}`, 400, "BadRequest"},
		{"wrong group", "robot", `{"apiVersion":"authentication.example.com/v1","kind":"TokenRequest","spec":{}}`, 400, "BadRequest"},
		{"bound pod missing", "robot", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"gone"}}}`, 404, "NotFound"},
		{"bound pod uid mismatch", "robot", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"p","uid":"not-the-uid"}}}`, 409, "Conflict"},
		{"pod of another account", "robot", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"q"}}}`, 400, "BadRequest"},
		{"bound secret missing", "robot", `{"spec":{"boundObjectRef":{"kind":"Secret","apiVersion":"v1","name":"gone"}}}`, 404, "NotFound"},
		{"unsupported kind", "robot", `{"spec":{"boundObjectRef":{"kind":"ConfigMap","apiVersion":"v1","name":"c"}}}`, 400, "BadRequest"},
		{"pod in another group", "robot", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"apps/v1","name":"p"}}}`, 400, "BadRequest"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.Do(t, "POST", "/api/v1/namespaces/v/serviceaccounts/"+c.sa+"/token", c.body).ExpectStatus(t, c.code, c.reason)
		})
	}
	s.Do(t, "GET", "/api/v1/namespaces/v/serviceaccounts/robot/token", nil).ExpectStatus(t, http.StatusMethodNotAllowed, "MethodNotAllowed")
	// The stock clients' group version is answered in kind.
	up := create(t, s, "/api/v1/namespaces/v/serviceaccounts/robot/token", `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{}}`)
	if up["apiVersion"] != "authentication.k8s.io/v1" {
		t.Errorf("answered in %v", up["apiVersion"])
	}
	// The bound uid, when right, is accepted; 600 seconds is the least.
	requestToken(t, s, "v", "robot", `{"expirationSeconds":600,"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"p","uid":"`+uidOf(pod)+`"}}`)
}

func TestMaxTokenExpiration(t *testing.T) {
	s, _ := start(t, func(o *options.Options) { o.ServiceAccount.MaxTokenExpiration = 2 * time.Hour })
	create(t, s, "/api/v1/namespaces", `{"metadata":{"name":"m"}}`)
	create(t, s, "/api/v1/namespaces/m/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	r := s.Do(t, "POST", "/api/v1/namespaces/m/serviceaccounts/robot/token", `{"spec":{"expirationSeconds":86400}}`).Expect(t, http.StatusCreated)
	if w := r.Header.Get("Warning"); w != `299 - "requested expiration of 86400 seconds shortened to 7200 seconds"` {
		t.Errorf("warning %q", w)
	}
	st := r.Map(t)["status"].(map[string]any)
	exp, _ := time.Parse(time.RFC3339, st["expirationTimestamp"].(string))
	if d := time.Until(exp); d > 2*time.Hour+time.Second || d < 2*time.Hour-time.Minute {
		t.Fatalf("expires in %v, want 2h", d)
	}
}

// TestDiscovery: the discovery documents name the issuer and publish the
// key, and a relying party verifies a token with the published key alone.
func TestDiscovery(t *testing.T) {
	s, _ := start(t)
	create(t, s, "/api/v1/namespaces", `{"metadata":{"name":"d"}}`)
	create(t, s, "/api/v1/namespaces/d/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	token, _ := requestToken(t, s, "d", "robot", `{"audiences":["relying-party"]}`)

	cfg := s.Do(t, "GET", "/.well-known/openid-configuration", nil).Expect(t, http.StatusOK)
	m := cfg.Map(t)
	if m["issuer"] != issuer || m["jwks_uri"] != issuer+"/openid/v1/jwks" || fmt.Sprint(m["id_token_signing_alg_values_supported"]) != "[RS256]" {
		t.Fatalf("openid-configuration %v", m)
	}
	keys := s.Do(t, "GET", "/openid/v1/jwks", nil).Expect(t, http.StatusOK)
	if ct := keys.Header.Get("Content-Type"); ct != "application/jwk-set+json" {
		t.Fatalf("content type %q", ct)
	}
	var set jose.JSONWebKeySet
	keys.Into(t, &set)
	parsed, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		t.Fatal(err)
	}
	found := set.Key(parsed.Headers[0].KeyID)
	if len(found) != 1 {
		t.Fatalf("kid %q not published in %s", parsed.Headers[0].KeyID, keys.Body)
	}
	var claims jwt.Claims
	if err := parsed.Claims(found[0].Key, &claims); err != nil {
		t.Fatal(err)
	}
	if err := claims.Validate(jwt.Expected{Issuer: issuer, AnyAudience: jwt.Audience{"relying-party"}, Subject: "system:serviceaccount:d:robot", Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// TestWithoutIssuer: with no issuer there is no token subresource and no
// discovery.
func TestWithoutIssuer(t *testing.T) {
	s := framework.Start(t)
	create(t, s, "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	s.Do(t, "POST", "/api/v1/namespaces/default/serviceaccounts/robot/token", `{"spec":{}}`).ExpectStatus(t, http.StatusNotFound, "NotFound")
	s.Do(t, "GET", "/.well-known/openid-configuration", nil).Expect(t, http.StatusNotFound)
}

// TestKubectlCreateToken: the stock kubectl's create token works, and the
// token it prints is for the audience it asked for.
func TestKubectlCreateToken(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("no kubectl on PATH")
	}
	s, _ := start(t)
	create(t, s, "/api/v1/namespaces", `{"metadata":{"name":"k"}}`)
	sa := create(t, s, "/api/v1/namespaces/k/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, kubectl, append([]string{"--server", s.URL, "-n", "k", "create", "token", "robot"}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(t.TempDir(), "none"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("kubectl create token %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	token := run("--audience", "x", "--duration", "1h")
	expectUser(t, review(t, s, token, "x"), "system:serviceaccount:k:robot", uidOf(sa))
	expectRefused(t, review(t, s, token))

	create(t, s, "/api/v1/namespaces/k/pods", `{"metadata":{"name":"web"},"spec":{"serviceAccountName":"robot","containers":[{"name":"c","image":"nginx"}]}}`)
	bound := run("--bound-object-kind", "Pod", "--bound-object-name", "web")
	if u := expectUser(t, review(t, s, bound), "system:serviceaccount:k:robot", uidOf(sa)); !strings.Contains(fmt.Sprint(u["extra"]), "pod-name:[web]") {
		t.Fatalf("bound token user %v", u)
	}
}

// TestAPIDiscovery: the subresource is listed as upstream lists it, and
// the OpenAPI document describes its TokenRequest body.
func TestAPIDiscovery(t *testing.T) {
	s, _ := start(t)
	list := s.Do(t, "GET", "/api/v1", nil).Expect(t, http.StatusOK).Map(t)
	var sub map[string]any
	for _, r := range list["resources"].([]any) {
		if m := r.(map[string]any); m["name"] == "serviceaccounts/token" {
			sub = m
		}
	}
	if sub == nil || sub["group"] != "authentication.platform.io" || sub["version"] != "v1" || sub["kind"] != "TokenRequest" || fmt.Sprint(sub["verbs"]) != "[create]" || sub["namespaced"] != true {
		t.Fatalf("discovery lists %v", sub)
	}
	doc := s.Do(t, "GET", "/openapi/v2", nil).Expect(t, http.StatusOK).Map(t)
	post, _ := doc["paths"].(map[string]any)["/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token"].(map[string]any)["post"].(map[string]any)
	if gvk := fmt.Sprint(post["x-kubernetes-group-version-kind"]); gvk != "map[group:authentication.platform.io kind:TokenRequest version:v1]" {
		t.Fatalf("operation gvk %s", gvk)
	}
}
