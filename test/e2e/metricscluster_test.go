package e2e

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"platform.io/platform/pkg/component/certs"
	"platform.io/platform/test/e2e/framework"
)

// metricsCluster is the control plane as `make run` runs it (Node,RBAC,
// each daemon on its own identity) with the simulated nodes serving their
// usage on /metrics/resource and platform-metrics-server scraping them,
// registered as the APIServices of metrics.platform.io and metrics.k8s.io:
// the API server proxies to it with its front-proxy client certificate,
// verifying its serving certificate against the APIService's caBundle.
type metricsCluster struct {
	*Server
	// resolution is the metrics server's --metric-resolution.
	resolution time.Duration
	// lastHPA is the autoscaler's state as last logged.
	lastHPA string
}

// metricsClusterConfig is what the tests vary.
type metricsClusterConfig struct {
	nodes      int
	resolution time.Duration
	// cmArgs are more flags of the controller manager.
	cmArgs []string
}

// metricsPKI writes the certificates of a metrics cluster into dir: the
// front proxy's CA and client pair (the API server's), a CA signing the
// nodes' and the metrics server's serving certificates, and those.
type metricsPKI struct {
	dir     string
	serveCA *certs.Pair
}

func newMetricsPKI(t *testing.T) *metricsPKI {
	t.Helper()
	p := &metricsPKI{dir: t.TempDir()}
	must := func(pair *certs.Pair, err error) *certs.Pair {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return pair
	}
	proxyCA := must(certs.NewCA("e2e-front-proxy-ca"))
	p.serveCA = must(certs.NewCA("e2e-serving-ca"))
	for name, pair := range map[string]*certs.Pair{
		"front-proxy-ca":     proxyCA,
		"front-proxy-client": must(certs.NewClient(proxyCA, "front-proxy-client", nil)),
		"serving-ca":         p.serveCA,
		"simnode":            must(certs.NewServing(p.serveCA, "simnode", nil)),
		// The API server checks the name of the Service it resolved.
		"metrics-server": must(certs.NewServing(p.serveCA, "platform-metrics-server",
			[]string{"platform-metrics-server.platform-system.svc"})),
	} {
		if err := pair.Write(p.dir, name); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func (p *metricsPKI) file(name string) string { return filepath.Join(p.dir, name) }

// startMetricsCluster starts a metrics cluster and waits until its nodes
// are Ready and both metrics APIServices are Available.
func startMetricsCluster(t *testing.T, c metricsClusterConfig) *metricsCluster {
	t.Helper()
	pki := newMetricsPKI(t)
	cfg := framework.RBACConfig(t)
	cfg.Args = append(cfg.Args,
		"--requestheader-client-ca-file="+pki.file("front-proxy-ca.crt"),
		"--requestheader-allowed-names=front-proxy-client",
		"--requestheader-username-headers=X-Remote-User",
		"--requestheader-group-headers=X-Remote-Group",
		"--requestheader-extra-headers-prefix=X-Remote-Extra-",
		"--proxy-client-cert-file="+pki.file("front-proxy-client.crt"),
		"--proxy-client-key-file="+pki.file("front-proxy-client.key"),
	)
	s := StartServerWith(t, cfg)
	m := &metricsCluster{Server: s, resolution: c.resolution}
	s.MustKubectl(t, "apply", "-f", "../../deploy/addons/metrics-server/rbac.yaml")

	nodeDir := t.TempDir()
	for i := range c.nodes {
		name := fmt.Sprintf("simnode-%d", i)
		if err := s.signClient(t, "system:node:"+name, "system:nodes").Write(nodeDir, name); err != nil {
			t.Fatal(err)
		}
	}
	// Leader election with its default timings: on a new cluster the
	// lease is free and taken at once, and a 3s renew deadline (as other
	// tests use to fail over fast) loses the lease on a loaded CI machine,
	// which stops the controller manager in the middle of the test.
	common := []string{"--bind-address", "127.0.0.1"}
	s.startDaemonAs(t, "platform-scheduler", s.userKubeconfig(t, "system:platform-scheduler"),
		append(common, "--secure-port", fmt.Sprint(freePort(t)), "--port=0")...)
	s.startDaemonAs(t, "platform-controller-manager", s.userKubeconfig(t, "system:platform-controller-manager"),
		append(append(common, "--secure-port", fmt.Sprint(freePort(t)), "--use-service-account-credentials",
			"--root-ca-file", filepath.Join(s.CertDir, "apiserver.crt")), c.cmArgs...)...)
	s.StartProcess(t, "platform-simnode", "--kubeconfig", s.userKubeconfig(t, "system:node:simnode-0", "system:nodes"),
		"--node-credentials-dir", nodeDir, fmt.Sprintf("--nodes=%d", c.nodes), "--readiness-delay=500ms",
		"--resource-metrics-address=127.0.0.1",
		"--tls-cert-file="+pki.file("simnode.crt"), "--tls-private-key-file="+pki.file("simnode.key"))
	port := freePort(t)
	s.startDaemonAs(t, "platform-metrics-server", s.userKubeconfig(t, "system:platform-metrics-server"),
		"--bind-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", port),
		"--tls-cert-file="+pki.file("metrics-server.crt"), "--tls-private-key-file="+pki.file("metrics-server.key"),
		"--metric-resolution="+c.resolution.String(),
		"--kubelet-use-node-status-port", "--kubelet-preferred-address-types=InternalIP",
		"--kubelet-certificate-authority="+pki.file("serving-ca.crt"))
	m.register(t, port, pki.serveCA.CertPEM)

	Eventually(t, 60*time.Second, "Ready nodes", func() string {
		out := s.Kubectl(t, "get", "nodes", "--no-headers")
		if n := strings.Count(out.Stdout, " Ready"); n != c.nodes {
			return out.String()
		}
		return ""
	})
	Eventually(t, 30*time.Second, "the metrics APIServices Available", func() string {
		return want(s.field(t, `{range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Available")].status} {end}`, "get", "apiservices"),
			"v1beta1.metrics.k8s.io=True v1beta1.metrics.platform.io=True")
	})
	return m
}

// register creates the metrics server's Service (an ExternalName naming
// 127.0.0.1, since an Endpoints may not hold a loopback address) and the
// APIServices of deploy/addons/metrics-server, with the port and a
// caBundle in place of insecureSkipTLSVerify.
func (m *metricsCluster) register(t *testing.T, port int, caPEM []byte) {
	t.Helper()
	data, err := os.ReadFile("../../deploy/addons/metrics-server/apiservice.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "insecureSkipTLSVerify: true"); n != 2 {
		t.Fatalf("deploy/addons/metrics-server/apiservice.yaml: %d APIServices skipping TLS verification, want 2", n)
	}
	apiservices := strings.NewReplacer(
		"port: 443", fmt.Sprintf("port: %d", port),
		"insecureSkipTLSVerify: true", "caBundle: "+base64.StdEncoding.EncodeToString(caPEM),
	).Replace(string(data))
	svc := fmt.Sprintf(`apiVersion: v1
kind: Service
metadata: {name: platform-metrics-server, namespace: platform-system}
spec:
  type: ExternalName
  externalName: 127.0.0.1
  ports: [{name: https, port: %d, protocol: TCP}]
---
`, port)
	m.MustKubectl(t, "apply", "-f", WriteManifest(t, svc+apiservices))
}
