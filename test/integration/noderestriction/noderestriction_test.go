package noderestriction

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/integration/framework"
)

// node is a client of the secure port with a node's certificate.
type node struct {
	name string
	s    *framework.Server
	c    *http.Client
}

func newNode(t *testing.T, s *framework.Server, ca *certs.Pair, name string) *node {
	t.Helper()
	p, err := certs.NewClient(ca, "system:node:"+name, []string{"system:nodes"})
	if err != nil {
		t.Fatal(err)
	}
	cert := tls.Certificate{Certificate: [][]byte{p.Cert.Raw}, PrivateKey: p.Key, Leaf: p.Cert}
	tr := &http.Transport{TLSClientConfig: s.TLSConfig(t, &cert)}
	t.Cleanup(tr.CloseIdleConnections)
	return &node{name: name, s: s, c: &http.Client{Timeout: 30 * time.Second, Transport: tr}}
}

// do sends a request as the node and returns the code and the Status
// message (or the object) of the answer.
func (n *node) do(t *testing.T, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, n.s.SecureURL+path, bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	switch method {
	case http.MethodPatch:
		req.Header.Set("Content-Type", "application/merge-patch+json")
	default:
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := n.c.Do(req)
	if err != nil {
		t.Fatalf("%s %s as %s: %v", method, path, n.name, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var st struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &st) == nil && st.Kind == "Status" {
		return resp.StatusCode, st.Message
	}
	return resp.StatusCode, string(data)
}

func start(t *testing.T) (*framework.Server, *certs.Pair) {
	t.Helper()
	ca, err := certs.NewCA("noderestriction-client-ca")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ca.crt"), ca.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "sa.key")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		t.Fatal(err)
	}
	s := framework.Start(t, func(o *options.Options) {
		o.Authz.Modes = []string{options.ModeNode, options.ModeRBAC}
		o.Authn.ClientCAFile = filepath.Join(dir, "ca.crt")
		o.ServiceAccount.Issuers = []string{"https://platform.example"}
		o.ServiceAccount.SigningKeyFile = keyFile
		o.ServiceAccount.KeyFiles = []string{keyFile}
	}, framework.EnableAdmission("NodeRestriction"))
	return s, ca
}

// TestNodeRestriction: a node registers and updates its own Node, reports
// the status of its pods, asks for tokens bound to them, deletes them and
// renews its Lease; it is refused (403, upstream's message) another node's
// Node, Lease and pods, tokens not bound to its pods, labels outside the
// allowed set and taint changes. The refusals listed with a message are
// made by the plugin alone: the authorizer allowed the request.
func TestNodeRestriction(t *testing.T) {
	t.Parallel()
	s, ca := start(t)
	a, c := newNode(t, s, ca, "a"), newNode(t, s, ca, "c")
	s.Do(t, "POST", "/api/v1/nodes", `{"metadata":{"name":"b"}}`).Expect(t, http.StatusCreated)
	s.Do(t, "POST", "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"runner"}}`).Expect(t, http.StatusCreated)
	uids := map[string]string{}
	for _, p := range []struct{ name, node string }{{"on-a", "a"}, {"on-b", "b"}} {
		var created struct {
			Metadata struct {
				UID string `json:"uid"`
			} `json:"metadata"`
		}
		s.Do(t, "POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"`+p.name+`","labels":{"app":"x"}},
			"spec":{"nodeName":"`+p.node+`","serviceAccountName":"runner","containers":[{"name":"c","image":"nginx"}]}}`).Expect(t, http.StatusCreated).Into(t, &created)
		uids[p.name] = created.Metadata.UID
	}
	token := func(pod string) string {
		return `{"apiVersion":"authentication.platform.io/v1","kind":"TokenRequest","spec":{"boundObjectRef":{"apiVersion":"v1","kind":"Pod","name":"` +
			pod + `","uid":"` + uids[pod] + `"}}}`
	}
	const tokens = "/api/v1/namespaces/default/serviceaccounts/runner/token"
	const (
		ownLabels = `{"metadata":{"name":"a","labels":{"platform.io/hostname":"a","topology.platform.io/zone":"z1","node.platform.io/instance-type":"m","example.com/rack":"r1"}}}`
		podStatus = `{"status":{"phase":"Running"}}`
	)
	steps := []struct {
		name         string
		n            *node
		method, path string
		body         string
		want         int
		// wantMsg is the refusal's message; "" checks only the code.
		wantMsg string
	}{
		{"register own node", a, "POST", "/api/v1/nodes", ownLabels, http.StatusCreated, ""},
		{"register another node", a, "POST", "/api/v1/nodes", `{"metadata":{"name":"d"}}`, http.StatusForbidden,
			`nodes "d" is forbidden: node "a" is not allowed to modify node "d"`},
		{"register with a node-role label", c, "POST", "/api/v1/nodes", `{"metadata":{"name":"c","labels":{"node-role.platform.io/control-plane":""}}}`, http.StatusForbidden,
			`nodes "c" is forbidden: node "c" is not allowed to set the following labels: node-role.platform.io/control-plane`},
		{"label own node in its own domain", a, "PATCH", "/api/v1/nodes/a", `{"metadata":{"labels":{"example.com/rack":"r2","kubelet.platform.io/x":"1"}}}`, http.StatusOK, ""},
		{"label own node node-restriction", a, "PATCH", "/api/v1/nodes/a", `{"metadata":{"labels":{"node-restriction.platform.io/pci":"true"}}}`, http.StatusForbidden,
			`nodes "a" is forbidden: is not allowed to modify labels: node-restriction.platform.io/pci`},
		{"drop a platform.io label of own node", a, "PATCH", "/api/v1/nodes/a", `{"metadata":{"labels":{"platform.io/hostname":null}}}`, http.StatusOK, ""},
		{"add an unknown platform.io label", a, "PATCH", "/api/v1/nodes/a", `{"metadata":{"labels":{"platform.io/role":"db"}}}`, http.StatusForbidden,
			`nodes "a" is forbidden: is not allowed to modify labels: platform.io/role`},
		{"taint own node", a, "PATCH", "/api/v1/nodes/a", `{"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]}}`, http.StatusForbidden,
			`nodes "a" is forbidden: node "a" is not allowed to modify taints`},
		{"update own node status", a, "PATCH", "/api/v1/nodes/a/status", `{"status":{"phase":"Running"}}`, http.StatusOK, ""},
		{"update another node's status", a, "PATCH", "/api/v1/nodes/b/status", `{"status":{"phase":"Running"}}`, http.StatusForbidden, ""},
		{"label another node", a, "PATCH", "/api/v1/nodes/b", `{"metadata":{"labels":{"x":"y"}}}`, http.StatusForbidden, ""},
		{"status of own pod", a, "PATCH", "/api/v1/namespaces/default/pods/on-a/status", podStatus, http.StatusOK, ""},
		{"status of another node's pod", a, "PATCH", "/api/v1/namespaces/default/pods/on-b/status", podStatus, http.StatusForbidden, ""},
		{"own lease", a, "POST", "/apis/coordination.platform.io/v1/namespaces/platform-node-lease/leases", `{"metadata":{"name":"a"},"spec":{"holderIdentity":"a"}}`, http.StatusCreated, ""},
		{"another node's lease", a, "POST", "/apis/coordination.platform.io/v1/namespaces/platform-node-lease/leases", `{"metadata":{"name":"b"},"spec":{"holderIdentity":"a"}}`, http.StatusForbidden,
			`leases.coordination.platform.io "b" is forbidden: can only access node lease with the same name as the requesting node`},
		{"token for own pod", a, "POST", tokens, token("on-a"), http.StatusCreated, ""},
		{"token for another node's pod", a, "POST", tokens, token("on-b"), http.StatusForbidden,
			`serviceaccounts "runner" is forbidden: node requested token bound to a pod scheduled on a different node`},
		{"token bound to no pod", a, "POST", tokens, `{"apiVersion":"authentication.platform.io/v1","kind":"TokenRequest","spec":{}}`, http.StatusForbidden,
			`serviceaccounts "runner" is forbidden: node requested token not bound to a pod`},
		{"delete another node's pod", a, "DELETE", "/api/v1/namespaces/default/pods/on-b", "", http.StatusForbidden, ""},
		{"delete own pod", a, "DELETE", "/api/v1/namespaces/default/pods/on-a", "", http.StatusOK, ""},
	}
	for _, st := range steps {
		// The Node authorizer learns of pods through its watch; a pod
		// request may need a moment before it is allowed.
		var code int
		var msg string
		framework.Eventually(t, 10*time.Second, st.name, func() bool {
			code, msg = st.n.do(t, st.method, st.path, st.body)
			return code != http.StatusForbidden || st.want == http.StatusForbidden
		})
		if code != st.want || (st.wantMsg != "" && msg != st.wantMsg) {
			t.Errorf("%s: %s %s as %s: %d %q, want %d %q", st.name, st.method, st.path, st.n.name, code, msg, st.want, st.wantMsg)
		}
	}
}
