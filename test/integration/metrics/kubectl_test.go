package metrics

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// kubectl runs the stock kubectl against the metrics server directly,
// authenticating with alice's client certificate, and returns its output
// and verbose log.
func kubectl(t *testing.T, base string, p *pki, args ...string) (string, string, error) {
	t.Helper()
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("no kubectl on PATH")
	}
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: m
  cluster: {server: %q, insecure-skip-tls-verify: true}
users:
- name: alice
  user: {client-certificate-data: %s, client-key-data: %s}
contexts:
- name: m
  context: {cluster: m, user: alice}
current-context: m
`, base, b64(p.alice.CertPEM), b64(p.alice.KeyPEM))
	path := writeFile(t, t.TempDir(), "kubeconfig", []byte(kc))
	cmd := exec.Command(bin, append([]string{"--kubeconfig", path, "--cache-dir", t.TempDir(), "-v=6"}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+path)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		err = <-done
	}
	return out.String(), errOut.String(), err
}

// checkKubectlTopPods: the stock kubectl top pods finds the metrics
// group by discovery and reads the pods' metrics (it asks for protobuf).
func checkKubectlTopPods(t *testing.T, base string, p *pki) {
	out, log, err := kubectl(t, base, p, "top", "pods", "-n", "default", "-l", "app=web", "--containers")
	if err != nil {
		t.Fatalf("kubectl top pods: %v\n%s\n%s", err, out, log)
	}
	for _, want := range []string{"web-0", "web-1", "app", "side"} {
		if !strings.Contains(out, want) {
			t.Fatalf("kubectl top pods printed no %q:\n%s\nlog:\n%s", want, out, log)
		}
	}
	if strings.Contains(out, "db-0") {
		t.Fatalf("kubectl top pods -l app=web printed db-0:\n%s", out)
	}
	t.Logf("kubectl top pods:\n%s\nrequests:\n%s", out, log)
}
