package aggregator

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/integration/framework"
)

const (
	apiServices = "/apis/apiregistration.platform.io/v1/apiservices"
	rbacAPI     = "/apis/rbac.authorization.platform.io/v1"
	flunders    = gvPath + "/namespaces/default/flunders"
	proxyName   = "front-proxy-client"
)

// env is an API server with RBAC, bearer tokens for admin (system:masters),
// alice (no rights) and bob (may read flunders in default), and a
// front-proxy client certificate; and the CAs of the test's servers.
type env struct {
	s         *framework.Server
	secure    *framework.Server
	backendCA *certs.Pair
	proxyCA   *certs.Pair
	dir       string
}

func setup(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	proxyCA, err := certs.NewCA("front-proxy-ca")
	if err != nil {
		t.Fatal(err)
	}
	client, err := certs.NewClient(proxyCA, proxyName, nil)
	if err != nil {
		t.Fatal(err)
	}
	backendCA, err := certs.NewCA("wardle-ca")
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*certs.Pair{"front-proxy-ca": proxyCA, "front-proxy-client": client} {
		if err := p.Write(dir, name); err != nil {
			t.Fatal(err)
		}
	}
	tokens := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokens, []byte("admin,admin,uid-admin,\"system:masters\"\nalice,alice,uid-alice,\nbob,bob,uid-bob,\nwardle,wardle,uid-wardle,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := framework.Start(t, func(o *options.Options) {
		o.Authz.Modes = []string{options.ModeRBAC}
		o.Authn.TokenAuthFile = tokens
		o.Authn.RequestHeaderCAFile = filepath.Join(dir, "front-proxy-ca.crt")
		o.Authn.RequestHeaderAllowed = []string{proxyName}
		o.Authn.RequestHeaderUsername = []string{"X-Remote-User"}
		o.Authn.RequestHeaderGroup = []string{"X-Remote-Group"}
		o.Authn.RequestHeaderExtra = []string{"X-Remote-Extra-"}
		o.Aggregator.ProxyClientCertFile = filepath.Join(dir, "front-proxy-client.crt")
		o.Aggregator.ProxyClientKeyFile = filepath.Join(dir, "front-proxy-client.key")
	})
	secure := s.Secure(t)
	return &env{s: s, secure: secure, backendCA: backendCA, proxyCA: proxyCA, dir: dir}
}

func as(name string) framework.Header { return framework.Header{"Authorization": "Bearer " + name} }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	framework.Eventually(t, 20*time.Second, what, cond)
}

// freePort returns a loopback port nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (e *env) apiService(port int) map[string]any {
	return map[string]any{
		"apiVersion": "apiregistration.platform.io/v1", "kind": "APIService",
		"metadata": map[string]any{"name": version + "." + group},
		"spec": map[string]any{
			"service": map[string]any{"namespace": "default", "name": "wardle", "port": port},
			"group":   group, "version": version, "caBundle": e.backendCA.CertPEM,
			"groupPriorityMinimum": 1000, "versionPriority": 15,
		},
	}
}

// condition returns the Available condition's status and reason.
func (e *env) condition(t *testing.T) (string, string) {
	t.Helper()
	var s struct {
		Status struct {
			Conditions []struct{ Type, Status, Reason, Message string }
		}
	}
	e.secure.Do(t, "GET", apiServices+"/"+version+"."+group, nil, as("admin")).Expect(t, http.StatusOK).Into(t, &s)
	for _, c := range s.Status.Conditions {
		if c.Type == "Available" {
			return c.Status, c.Reason
		}
	}
	return "", ""
}

func (e *env) waitCondition(t *testing.T, status, reason string) {
	t.Helper()
	waitFor(t, "Available "+status+" ("+reason+")", func() bool {
		s, r := e.condition(t)
		return s == status && r == reason
	})
}

// TestAggregation runs an APIService through its life: refused to a user
// without the right, unavailable (no Service, then no server: conditions
// and 503), available once its server answers, listed in discovery, its
// requests proxied with the user in headers (and never the client's
// credentials or forged identity headers), refused by RBAC before
// proxying, streamed for watches, and gone once deleted.
func TestAggregation(t *testing.T) {
	e := setup(t)
	s := e.secure
	down := freePort(t)

	s.Do(t, "POST", apiServices, e.apiService(down), as("alice")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "POST", apiServices, e.apiService(down), as("admin")).Expect(t, http.StatusCreated)

	e.waitCondition(t, "False", "ServiceNotFound")
	st := s.Do(t, "GET", flunders, nil, as("admin")).ExpectStatus(t, http.StatusServiceUnavailable, "ServiceUnavailable")
	if st["message"] != "the server is currently unable to handle the request" {
		t.Errorf("503 message %q", st["message"])
	}
	// Discovery lists the group even while it is down, as upstream does.
	var groups struct{ Groups []struct{ Name string } }
	s.Do(t, "GET", "/apis", nil, as("alice")).Expect(t, http.StatusOK).Into(t, &groups)
	if i := slices.IndexFunc(groups.Groups, func(g struct{ Name string }) bool { return g.Name == group }); i != len(groups.Groups)-1 {
		t.Errorf("/apis lists %s at %d of %d, want last (after the server's own groups)", group, i, len(groups.Groups))
	}
	var g struct {
		Name             string
		PreferredVersion struct{ GroupVersion string }
	}
	s.Do(t, "GET", "/apis/"+group, nil, as("alice")).Expect(t, http.StatusOK).Into(t, &g)
	if g.Name != group || g.PreferredVersion.GroupVersion != group+"/"+version {
		t.Errorf("/apis/%s = %+v", group, g)
	}

	// A Service without Endpoints.
	plain := map[string]any{"metadata": map[string]any{"name": "wardle"}, "spec": map[string]any{"ports": []map[string]any{{"port": down, "protocol": "TCP"}}}}
	s.Do(t, "POST", "/api/v1/namespaces/default/services", plain, as("admin")).Expect(t, http.StatusCreated)
	e.waitCondition(t, "False", "MissingEndpoints")
	s.Do(t, "DELETE", "/api/v1/namespaces/default/services/wardle", nil, as("admin")).Expect(t, http.StatusOK)

	// An ExternalName Service reaches loopback (Endpoints may not hold
	// loopback addresses); nothing listens on its port yet.
	svc := map[string]any{"metadata": map[string]any{"name": "wardle"}, "spec": map[string]any{"type": "ExternalName", "externalName": "127.0.0.1"}}
	s.Do(t, "POST", "/api/v1/namespaces/default/services", svc, as("admin")).Expect(t, http.StatusCreated)
	e.waitCondition(t, "False", "FailedDiscoveryCheck")
	s.Do(t, "GET", flunders, nil, as("admin")).ExpectStatus(t, http.StatusServiceUnavailable, "ServiceUnavailable")

	w := startWardle(t, e.backendCA, e.proxyCA, "wardle.default.svc", proxyName)
	_, port, _ := net.SplitHostPort(w.addr)
	s.Do(t, "PATCH", apiServices+"/"+version+"."+group, `{"spec":{"service":{"port":`+port+`}}}`, as("admin"),
		framework.Header{"Content-Type": "application/merge-patch+json"}).Expect(t, http.StatusOK)
	e.waitCondition(t, "True", "Passed")

	// RBAC decides before anything is proxied.
	_, before := w.last()
	s.Do(t, "GET", flunders, nil, as("bob")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	if _, n := w.last(); n != before {
		t.Fatalf("a refused request reached the aggregated server")
	}
	e.grantFlunders(t, "bob")
	waitFor(t, "bob's right to list flunders", func() bool { return s.Do(t, "GET", flunders, nil, as("bob")).Code == http.StatusOK })

	var list struct {
		Items []struct{ Metadata struct{ Name string } }
	}
	s.Do(t, "GET", flunders, nil, as("bob"), framework.Header{"X-Remote-User": "admin", "X-Remote-Group": "system:masters"}).
		Expect(t, http.StatusOK).Into(t, &list)
	if len(list.Items) != 1 || list.Items[0].Metadata.Name != "first" {
		t.Errorf("proxied list = %+v", list)
	}
	got, _ := w.last()
	if got.user.Name != "bob" || !slices.Contains(got.user.Groups, "system:authenticated") || slices.Contains(got.user.Groups, "system:masters") {
		t.Errorf("the aggregated server saw %+v, want bob in system:authenticated only", got.user)
	}
	if got.authorization != "" {
		t.Errorf("the client's Authorization header reached the aggregated server: %q", got.authorization)
	}

	// Impersonation: the impersonated user, with extras, is what is sent.
	s.Do(t, "GET", flunders, nil, as("admin"), framework.Header{"Impersonate-User": "carol", "Impersonate-Group": "system:masters", "Impersonate-Extra-Scopes.example.io%2Fa": "read"}).
		Expect(t, http.StatusOK)
	got, _ = w.last()
	if got.user.Name != "carol" || got.impersonate || !slices.Equal(got.user.Extra["scopes.example.io/a"], []string{"read"}) {
		t.Errorf("impersonated request seen as %+v (impersonation headers passed: %v)", got.user, got.impersonate)
	}

	// OpenAPI v3: the index lists the delegated group version, whose
	// document is the aggregated server's.
	var index struct {
		Paths map[string]struct{ ServerRelativeURL string }
	}
	s.Do(t, "GET", "/openapi/v3", nil, as("bob")).Expect(t, http.StatusOK).Into(t, &index)
	entry, ok := index.Paths["apis/"+group+"/"+version]
	if !ok || index.Paths["api/v1"].ServerRelativeURL == "" {
		t.Fatalf("/openapi/v3 index misses %s or the server's own documents: %+v", group, index.Paths)
	}
	if doc := s.Do(t, "GET", entry.ServerRelativeURL, nil, as("bob")).Expect(t, http.StatusOK); !strings.Contains(string(doc.Body), "A flunder is what the wardle server keeps.") {
		t.Errorf("OpenAPI document of %s: %s", group, doc.Body)
	}

	// OpenAPI v2: the server's own document with the aggregated server's
	// merged in, as JSON and as the protobuf kubectl asks for.
	v2 := s.Do(t, "GET", "/openapi/v2", nil, as("bob")).Expect(t, http.StatusOK)
	if body := string(v2.Body); !strings.Contains(body, `"io.example.wardle.v1.Flunder"`) || !strings.Contains(body, `"/api/v1/namespaces/{namespace}/pods"`) {
		t.Errorf("/openapi/v2 lacks the aggregated or the server's own definitions")
	}
	proto := s.Do(t, "GET", "/openapi/v2", nil, as("bob"), framework.Header{"Accept": "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"}).Expect(t, http.StatusOK)
	if !strings.Contains(string(proto.Body), "io.example.wardle.v1.Flunder") || !strings.Contains(proto.Header.Get("Content-Type"), "protobuf") {
		t.Errorf("/openapi/v2 as protobuf (%s) lacks the aggregated definitions", proto.Header.Get("Content-Type"))
	}

	e.watchStreams(t)
	e.kubectl(t)

	s.Do(t, "DELETE", apiServices+"/"+version+"."+group, nil, as("admin")).Expect(t, http.StatusOK)
	waitFor(t, "the group to leave discovery", func() bool {
		return s.Do(t, "GET", "/apis/"+group, nil, as("admin")).Code == http.StatusNotFound &&
			s.Do(t, "GET", flunders, nil, as("admin")).Code == http.StatusNotFound
	})
}

// grantFlunders lets user get, list and watch flunders in default.
func (e *env) grantFlunders(t *testing.T, user string) {
	t.Helper()
	role := map[string]any{"metadata": map[string]any{"name": "flunder-reader"},
		"rules": []map[string]any{{"apiGroups": []string{group}, "resources": []string{"flunders"}, "verbs": []string{"get", "list", "watch"}}}}
	e.secure.Do(t, "POST", rbacAPI+"/clusterroles", role, as("admin")).Expect(t, http.StatusCreated)
	binding := map[string]any{"metadata": map[string]any{"name": "flunder-reader"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.platform.io", "kind": "ClusterRole", "name": "flunder-reader"},
		"subjects": []map[string]any{{"kind": "User", "apiGroup": "rbac.authorization.platform.io", "name": user}}}
	e.secure.Do(t, "POST", rbacAPI+"/namespaces/default/rolebindings", binding, as("admin")).Expect(t, http.StatusCreated)
}

// watchStreams checks that a watch's first event arrives while the
// aggregated server keeps the stream open.
func (e *env) watchStreams(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", e.secure.URL+flunders+"?watch=true", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer bob")
	resp, err := e.secure.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("watch: HTTP %d", resp.StatusCode)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.Contains(line, `"streamed"`) {
		t.Fatalf("first watch event %q, %v", line, err)
	}
}

// kubectl runs the stock kubectl's api-resources and get against the
// delegated group.
func (e *env) kubectl(t *testing.T) {
	t.Helper()
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Log("no kubectl on PATH: skipping its part")
		return
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--server", e.s.SecureURL, "--certificate-authority", e.s.CertFile, "--token", "admin"}, args...)...)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(e.dir, "none"), "HOME="+e.dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("kubectl %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := run("api-resources", "--api-group", group); !strings.Contains(out, "flunders") || !strings.Contains(out, group+"/"+version) {
		t.Errorf("kubectl api-resources:\n%s", out)
	}
	if out := run("get", "flunders", "-n", "default"); !strings.Contains(out, "first") {
		t.Errorf("kubectl get flunders:\n%s", out)
	}
	if out := run("explain", "flunders.spec"); !strings.Contains(out, "What the flunder should be.") {
		t.Errorf("kubectl explain flunders.spec:\n%s", out)
	}
	if out := run("get", "apiservices"); !strings.Contains(out, version+"."+group) || !strings.Contains(out, "default/wardle") {
		t.Errorf("kubectl get apiservices:\n%s", out)
	}
}

// TestAggregatedServerRoles: the bootstrap roles an aggregated server is
// bound to, as upstream's, let it read the published front-proxy settings
// and review tokens and access, which it cannot do without them.
func TestAggregatedServerRoles(t *testing.T) {
	e := setup(t)
	s := e.secure
	const cm = "/api/v1/namespaces/platform-system/configmaps/extension-apiserver-authentication"
	sar := map[string]any{"apiVersion": "authorization.platform.io/v1", "kind": "SubjectAccessReview",
		"spec": map[string]any{"user": "bob", "resourceAttributes": map[string]any{"group": group, "resource": "flunders", "verb": "list", "namespace": "default"}}}
	const sarPath = "/apis/authorization.platform.io/v1/subjectaccessreviews"
	s.Do(t, "GET", cm, nil, as("wardle")).ExpectStatus(t, http.StatusForbidden, "Forbidden")
	s.Do(t, "POST", sarPath, sar, as("wardle")).ExpectStatus(t, http.StatusForbidden, "Forbidden")

	user := []map[string]any{{"kind": "User", "apiGroup": "rbac.authorization.platform.io", "name": "wardle"}}
	s.Do(t, "POST", rbacAPI+"/clusterrolebindings", map[string]any{"metadata": map[string]any{"name": "wardle:system:auth-delegator"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.platform.io", "kind": "ClusterRole", "name": "system:auth-delegator"},
		"subjects": user}, as("admin")).Expect(t, http.StatusCreated)
	s.Do(t, "POST", rbacAPI+"/namespaces/platform-system/rolebindings", map[string]any{"metadata": map[string]any{"name": "wardle-auth-reader"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.platform.io", "kind": "Role", "name": "extension-apiserver-authentication-reader"},
		"subjects": user}, as("admin")).Expect(t, http.StatusCreated)
	waitFor(t, "wardle's bindings", func() bool { return s.Do(t, "GET", cm, nil, as("wardle")).Code == http.StatusOK })
	var published struct{ Data map[string]string }
	s.Do(t, "GET", cm, nil, as("wardle")).Into(t, &published)
	if published.Data["requestheader-client-ca-file"] != string(e.proxyCA.CertPEM) || published.Data["requestheader-allowed-names"] != `["`+proxyName+`"]` {
		t.Errorf("published front-proxy settings: %v", published.Data)
	}
	s.Do(t, "POST", sarPath, sar, as("wardle")).Expect(t, http.StatusCreated)
}
