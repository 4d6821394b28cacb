package metrics

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/api/meta"
	metricsv1beta1 "platform.io/client/api/metrics/v1beta1"
	"platform.io/client/api/resource"
	"platform.io/client/client"
	"platform.io/client/codec/protobuf"
	"platform.io/client/rest"

	"platform.io/platform/cmd/metrics-server/app"
	"platform.io/platform/pkg/apiserver/options"
	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/pkg/component/daemon"
	"platform.io/platform/test/integration/framework"
	"platform.io/platform/test/simnode"
)

// must returns v, panicking on a setup error.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// pki is the test's certificates: the front proxy's CA and client pair,
// a pair from another CA with the same name, and the nodes' serving pair.
type pki struct {
	proxyCA, proxy, intruder *certs.Pair
	clientCA, alice          *certs.Pair
	nodeCA                   *certs.Pair
	nodeServing              tls.Certificate
}

func newPKI(t *testing.T) *pki {
	p := &pki{}
	p.proxyCA = must(certs.NewCA("front-proxy-ca"))
	p.proxy = must(certs.NewClient(p.proxyCA, "front-proxy-client", nil))
	other := must(certs.NewCA("other-ca"))
	p.intruder = must(certs.NewClient(other, "front-proxy-client", nil))
	p.clientCA = must(certs.NewCA("client-ca"))
	p.alice = must(certs.NewClient(p.clientCA, "alice", nil))
	p.nodeCA = must(certs.NewCA("node-ca"))
	serving := must(certs.NewServing(p.nodeCA, "simnode", []string{"127.0.0.1"}))
	p.nodeServing = must(tls.X509KeyPair(serving.CertPEM, serving.KeyPEM))
	return p
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startMetricsServer runs platform-metrics-server in-process against s
// until the test ends and returns its base URL.
func startMetricsServer(t *testing.T, s *framework.Server, p *pki) string {
	dir := t.TempDir()
	kc := rest.Kubeconfig{
		Clusters:       []rest.NamedCluster{{Name: "c", Cluster: rest.Cluster{Server: s.URL}}},
		Users:          []rest.NamedUser{{Name: "u"}},
		Contexts:       []rest.NamedContext{{Name: "x", Context: rest.Context{Cluster: "c", User: "u"}}},
		CurrentContext: "x",
	}
	kcPath := writeFile(t, dir, "kubeconfig", must(json.Marshal(kc)))
	port := freePort(t)
	args := []string{
		"--kubeconfig=" + kcPath, "--authentication-kubeconfig=" + kcPath, "--authorization-kubeconfig=" + kcPath,
		"--authentication-skip-lookup",
		"--requestheader-client-ca-file=" + writeFile(t, dir, "proxy-ca.crt", p.proxyCA.CertPEM),
		"--client-ca-file=" + writeFile(t, dir, "client-ca.crt", p.clientCA.CertPEM),
		"--requestheader-allowed-names=front-proxy-client",
		"--bind-address=127.0.0.1", "--secure-port=" + strconv.Itoa(port),
		"--metric-resolution=250ms", "--kubelet-use-node-status-port", "--kubelet-preferred-address-types=InternalIP",
		"--kubelet-certificate-authority=" + writeFile(t, dir, "node-ca.crt", p.nodeCA.CertPEM),
		"--authorization-webhook-cache-authorized-ttl=0", "--authorization-webhook-cache-unauthorized-ttl=0",
		"--v=0",
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	cmd := daemon.NewCommand(app.Spec(), args, io.Discard, io.Discard)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("metrics server: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Errorf("metrics server did not stop within 20s")
		}
	})
	return fmt.Sprintf("https://127.0.0.1:%d", port)
}

// caller calls the metrics server with a client certificate (nil for
// none) and identity headers.
type caller struct {
	base    string
	cert    *certs.Pair
	user    string
	groups  []string
	accept  string
	timeout time.Duration
}

func (c caller) get(t *testing.T, path string) (int, []byte) {
	t.Helper()
	// The serving certificate is self-signed; what is tested here is the
	// server's trust in its callers, not theirs in it.
	cfg := &tls.Config{InsecureSkipVerify: true} //nolint:gosec // see above
	if c.cert != nil {
		cfg.Certificates = []tls.Certificate{{Certificate: [][]byte{c.cert.Cert.Raw}, PrivateKey: c.cert.Key}}
	}
	tr := &http.Transport{TLSClientConfig: cfg, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	req := must(http.NewRequest("GET", c.base+path, nil))
	if c.user != "" {
		req.Header.Set("X-Remote-User", c.user)
	}
	for _, g := range c.groups {
		req.Header.Add("X-Remote-Group", g)
	}
	if c.accept != "" {
		req.Header.Set("Accept", c.accept)
	}
	resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer resp.Body.Close()
	return resp.StatusCode, must(io.ReadAll(resp.Body))
}

func startNodes(t *testing.T, s *framework.Server, p *pki) {
	cfg := simnode.Config{
		Nodes: 2, NamePrefix: "sim-", Zones: []string{"a"},
		CPU: resource.MustParse("4"), Memory: resource.MustParse("8Gi"), Pods: 10, Images: []string{"busybox:latest"},
		LeaseInterval: time.Second, LeaseDuration: 10 * time.Second, StatusInterval: time.Hour, Workers: 4,
		ResourceMetricsAddress: "127.0.0.1", ServingCert: &p.nodeServing,
		Usage: simnode.Usage{CPU: resource.MustParse("10m"), Memory: resource.MustParse("32Mi")},
	}
	a := must(simnode.New(zap.NewNop(), client.NewSet(s.RESTClient(t)), cfg))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("agent: %v", err)
		}
	})
}

func pod(name, node, cpu string, labels map[string]string) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: meta.ObjectMeta{Namespace: "default", Name: name, Labels: labels, Annotations: map[string]string{}},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "app", Image: "busybox:latest"}, {Name: "side", Image: "busybox:latest"}}},
	}
	if cpu != "" {
		p.Annotations[simnode.AnnotationCPUUsage] = cpu
	}
	return p
}

// allowReaders lets alice get and list the metrics of both groups.
func allowReaders(t *testing.T, s *framework.Server) {
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/clusterroles", map[string]any{
		"apiVersion": "rbac.authorization.platform.io/v1", "kind": "ClusterRole", "metadata": map[string]any{"name": "metrics-reader"},
		"rules": []map[string]any{{"apiGroups": []string{metricsv1beta1.GroupName, metricsv1beta1.UpstreamGroupName},
			"resources": []string{"pods", "nodes"}, "verbs": []string{"get", "list"}}},
	}).Expect(t, http.StatusCreated)
	s.Do(t, "POST", "/apis/rbac.authorization.platform.io/v1/clusterrolebindings", map[string]any{
		"apiVersion": "rbac.authorization.platform.io/v1", "kind": "ClusterRoleBinding", "metadata": map[string]any{"name": "metrics-reader"},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.platform.io", "kind": "ClusterRole", "name": "metrics-reader"},
		"subjects": []map[string]any{{"kind": "User", "apiGroup": "rbac.authorization.platform.io", "name": "alice"}},
	}).Expect(t, http.StatusCreated)
}

// milli is a quantity in millicores.
func milli(q resource.Quantity) int64 { return q.MilliValue() }

func near(got, want int64) bool { return math.Abs(float64(got-want)) <= float64(want)/20+1 }

func TestResourceMetricsAPI(t *testing.T) {
	s := framework.Start(t, func(o *options.Options) { o.Authz.Modes = []string{options.ModeRBAC} })
	p := newPKI(t)
	allowReaders(t, s)
	startNodes(t, s, p)
	pods := client.NewSet(s.RESTClient(t)).Pods.Namespace("default")
	ctx := context.Background()
	for _, pd := range []*corev1.Pod{
		pod("web-0", "sim-0", "250m", map[string]string{"app": "web"}),
		pod("web-1", "sim-1", "", map[string]string{"app": "web"}),
		pod("db-0", "sim-0", "500m", map[string]string{"app": "db"}),
		pod("pending", "", "", nil),
	} {
		must(pods.Create(ctx, pd, meta.WriteOptions{}))
	}
	base := startMetricsServer(t, s, p)
	alice := caller{base: base, cert: p.proxy, user: "alice", groups: []string{"system:authenticated"}}
	const v1 = "/apis/" + metricsv1beta1.UpstreamGroupName + "/v1beta1"
	const own = "/apis/" + metricsv1beta1.GroupName + "/v1beta1"

	podCPU := func(c caller, path string) (map[string]int64, int) {
		code, body := c.get(t, path)
		if code != http.StatusOK {
			return nil, code
		}
		var pm metricsv1beta1.PodMetrics
		if err := json.Unmarshal(body, &pm); err != nil {
			t.Fatalf("decode %s: %v", body, err)
		}
		out := map[string]int64{}
		for _, c := range pm.Containers {
			out[c.Name] = milli(c.Usage[corev1.ResourceCPU])
		}
		return out, code
	}
	waitCPU := func(path string, want int64) {
		t.Helper()
		var last map[string]int64
		var code int
		defer func() {
			if t.Failed() {
				t.Logf("last answer: %v, HTTP %d", last, code)
			}
		}()
		framework.Eventually(t, 30*time.Second, fmt.Sprintf("%s at %dm per container", path, want), func() bool {
			last, code = podCPU(alice, path)
			return code == http.StatusOK && near(last["app"], want) && near(last["side"], want)
		})
	}

	t.Run("pod usage follows the model", func(t *testing.T) {
		waitCPU(v1+"/namespaces/default/pods/web-0", 250)
		waitCPU(own+"/namespaces/default/pods/web-1", 10)
		cur := must(pods.Get(ctx, "web-0", meta.GetOptions{}))
		cur.Annotations[simnode.AnnotationCPUUsage] = "1"
		must(pods.Update(ctx, cur, meta.WriteOptions{}))
		waitCPU(v1+"/namespaces/default/pods/web-0", 1000)
	})

	t.Run("node usage is the sum of its pods'", func(t *testing.T) {
		framework.Eventually(t, 30*time.Second, "sim-0 at 2x1000m + 2x500m", func() bool {
			code, body := alice.get(t, v1+"/nodes/sim-0")
			var nm metricsv1beta1.NodeMetrics
			return code == http.StatusOK && json.Unmarshal(body, &nm) == nil && near(milli(nm.Usage[corev1.ResourceCPU]), 3000) &&
				func() bool { m := nm.Usage[corev1.ResourceMemory]; return m.Value() == 4*32<<20 }() && nm.Window.Duration > 0
		})
	})

	t.Run("lists honour selectors and protobuf", func(t *testing.T) {
		pb := alice
		pb.accept = protobuf.UpstreamMediaType
		code, body := pb.get(t, v1+"/namespaces/default/pods?labelSelector=app%3Dweb")
		if code != http.StatusOK {
			t.Fatalf("list: %d %s", code, body)
		}
		var l metricsv1beta1.PodMetricsList
		if _, kind, err := protobuf.DecodeInto(body, &l); err != nil || kind != "PodMetricsList" {
			t.Fatalf("decode protobuf list: %v (kind %q)", err, kind)
		}
		var names []string
		for _, it := range l.Items {
			names = append(names, it.Name)
		}
		if strings.Join(names, ",") != "web-0,web-1" {
			t.Fatalf("app=web lists %v", names)
		}
		code, body = alice.get(t, own+"/pods?fieldSelector=metadata.name%3Ddb-0")
		var all metricsv1beta1.PodMetricsList
		if code != http.StatusOK || json.Unmarshal(body, &all) != nil || len(all.Items) != 1 || all.Items[0].Name != "db-0" {
			t.Fatalf("field selector list: %d %s", code, body)
		}
		code, body = alice.get(t, v1+"/nodes")
		var nodes metricsv1beta1.NodeMetricsList
		if code != http.StatusOK || json.Unmarshal(body, &nodes) != nil || len(nodes.Items) != 2 || nodes.APIVersion != "metrics.k8s.io/v1beta1" {
			t.Fatalf("node list: %d %s", code, body)
		}
	})

	t.Run("stock kubectl top pods", func(t *testing.T) { checkKubectlTopPods(t, base, p) })

	t.Run("discovery and missing metrics", func(t *testing.T) {
		code, body := alice.get(t, v1)
		var rl meta.APIResourceList
		if code != http.StatusOK || json.Unmarshal(body, &rl) != nil || len(rl.APIResources) != 2 || rl.GroupVersion != "metrics.k8s.io/v1beta1" {
			t.Fatalf("discovery: %d %s", code, body)
		}
		if code, body := alice.get(t, v1+"/namespaces/default/pods/pending"); code != http.StatusNotFound {
			t.Fatalf("pod without metrics: %d %s", code, body)
		}
		if code, body := alice.get(t, v1+"/nodes/nope"); code != http.StatusNotFound {
			t.Fatalf("unknown node: %d %s", code, body)
		}
	})

	t.Run("authorization and front-proxy trust", func(t *testing.T) {
		path := v1 + "/namespaces/default/pods/web-0"
		tests := []struct {
			name     string
			c        caller
			wantCode int
			wantUser string
		}{
			{name: "authorized user", c: alice, wantCode: http.StatusOK},
			{name: "user without the role", c: caller{base: base, cert: p.proxy, user: "bob", groups: []string{"system:authenticated"}},
				wantCode: http.StatusForbidden, wantUser: "bob"},
			{name: "headers without a certificate are not trusted", c: caller{base: base, user: "alice", groups: []string{"system:masters"}},
				wantCode: http.StatusForbidden, wantUser: "system:anonymous"},
			{name: "certificate of another CA is refused", c: caller{base: base, cert: p.intruder, user: "alice", groups: []string{"system:masters"}},
				wantCode: http.StatusUnauthorized},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				code, body := tt.c.get(t, path)
				if code != tt.wantCode {
					t.Fatalf("GET = %d %s, want %d", code, body, tt.wantCode)
				}
				var st meta.Status
				if err := json.Unmarshal(body, &st); tt.wantUser != "" && (err != nil ||
					!strings.Contains(st.Message, fmt.Sprintf(`User %q cannot get resource "pods" in API group "metrics.k8s.io"`, tt.wantUser))) {
					t.Fatalf("body %s does not refuse %s", body, tt.wantUser)
				}
			})
		}
	})

	t.Run("own metrics", func(t *testing.T) {
		code, body := caller{base: base, cert: p.proxy, user: "admin", groups: []string{"system:masters"}}.get(t, "/metrics")
		if code != http.StatusOK || !strings.Contains(string(body), `metrics_server_kubelet_request_total{node="sim-0",success="true"}`) {
			t.Fatalf("/metrics: %d, no scrape counts", code)
		}
	})
}
