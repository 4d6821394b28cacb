package rest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// selfSigned returns a PEM certificate and key for cn.
func selfSigned(t *testing.T, cn string) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		IsCA:         true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

const testKubeconfig = `apiVersion: v1
kind: Config
preferences: {}
current-context: admin@prod
clusters:
- name: prod
  cluster:
    server: https://prod.example:6443
    certificate-authority-data: %CA%
    tls-server-name: api.prod
- name: dev
  cluster:
    server: https://dev.example:6443
    certificate-authority: certs/ca.crt
- name: lab
  cluster:
    server: https://10.1.2.3
    insecure-skip-tls-verify: true
- name: empty
  cluster: {}
users:
- name: admin
  user:
    client-certificate-data: %CERT%
    client-key-data: %KEY%
- name: dev-user
  user:
    client-certificate: certs/client.crt
    client-key: /abs/client.key
    tokenFile: tokens/dev
- name: bot
  user:
    token: s3cret
- name: plugin
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: get-token
contexts:
- name: admin@prod
  context:
    cluster: prod
    user: admin
    namespace: team-a
- name: dev
  context:
    cluster: dev
    user: dev-user
- name: lab
  context:
    cluster: lab
    user: bot
- name: anonymous
  context:
    cluster: lab
- name: no-cluster
  context:
    cluster: gone
    user: bot
- name: no-user
  context:
    cluster: lab
    user: gone
- name: exec
  context:
    cluster: lab
    user: plugin
- name: serverless
  context:
    cluster: empty
`

func TestKubeconfig(t *testing.T) {
	dir := t.TempDir()
	ca, _ := selfSigned(t, "ca")
	cert, key := selfSigned(t, "admin")
	b64 := base64.StdEncoding.EncodeToString
	text := strings.NewReplacer("%CA%", b64(ca), "%CERT%", b64(cert), "%KEY%", b64(key)).Replace(testKubeconfig)
	path := filepath.Join(dir, "sub", "config")
	writeFile(t, path, []byte(text))
	kc, err := LoadKubeconfig(path)
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	tests := []struct {
		context string
		want    *Config
		wantErr string
		wantNS  string
	}{
		{"", &Config{Host: "https://prod.example:6443", TLS: TLSConfig{CAData: ca, ServerName: "api.prod", CertData: cert, KeyData: key}}, "", "team-a"},
		{"dev", &Config{Host: "https://dev.example:6443", BearerTokenFile: filepath.Join(sub, "tokens/dev"), TLS: TLSConfig{
			CAFile: filepath.Join(sub, "certs/ca.crt"), CertFile: filepath.Join(sub, "certs/client.crt"), KeyFile: "/abs/client.key"}}, "", "default"},
		{"lab", &Config{Host: "https://10.1.2.3", BearerToken: "s3cret", TLS: TLSConfig{Insecure: true}}, "", "default"},
		{"anonymous", &Config{Host: "https://10.1.2.3", TLS: TLSConfig{Insecure: true}}, "", "default"},
		{"missing", nil, `no context "missing"`, ""},
		{"no-cluster", nil, `cluster "gone"`, ""},
		{"no-user", nil, `user "gone"`, ""},
		{"exec", nil, "plugin", ""},
		{"serverless", nil, "no server", ""},
	}
	for _, tt := range tests {
		t.Run("context "+tt.context, func(t *testing.T) {
			got, err := kc.ClientConfig(tt.context)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ClientConfig error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ClientConfig (-want +got):\n%s", diff)
			}
			if ns, err := kc.Namespace(tt.context); err != nil || ns != tt.wantNS {
				t.Errorf("Namespace = %q, %v; want %q", ns, err, tt.wantNS)
			}
		})
	}
}

func TestKubeconfigCurrentContext(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text string
		wantErr    error
		wantText   string
	}{
		{"none", "clusters: []\ncontexts: []\n", ErrNoCurrentContext, ""},
		{"dangling", "current-context: gone\ncontexts: []\n", nil, `no context "gone"`},
		{"json", `{"current-context":"c","contexts":[{"name":"c","context":{"cluster":"k"}}],"clusters":[{"name":"k","cluster":{"server":"http://h:1"}}]}`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			writeFile(t, path, []byte(tt.text))
			kc, err := LoadKubeconfig(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = kc.ClientConfig("")
			switch {
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error = %v, want %v", err, tt.wantErr)
				}
			case tt.wantText != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantText) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantText)
				}
			case err != nil:
				t.Fatal(err)
			}
		})
	}
}

func TestLoadKubeconfigErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadKubeconfig(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad")
	writeFile(t, bad, []byte("clusters: [\n"))
	if _, err := LoadKubeconfig(bad); err == nil {
		t.Error("malformed YAML loaded")
	}
	badData := filepath.Join(dir, "baddata")
	writeFile(t, badData, []byte("clusters:\n- name: a\n  cluster:\n    certificate-authority-data: '!!not base64'\n"))
	if _, err := LoadKubeconfig(badData); err == nil {
		t.Error("invalid base64 data loaded")
	}
}

// TestKubeconfigClient reads a kubeconfig whose CA and client certificate
// are files next to it, and whose token is a file, and builds a Client.
func TestKubeconfigClient(t *testing.T) {
	dir := t.TempDir()
	ca, _ := selfSigned(t, "ca")
	cert, key := selfSigned(t, "me")
	writeFile(t, filepath.Join(dir, "pki", "ca.crt"), ca)
	writeFile(t, filepath.Join(dir, "pki", "me.crt"), cert)
	writeFile(t, filepath.Join(dir, "pki", "me.key"), key)
	writeFile(t, filepath.Join(dir, "token"), []byte("tok\n"))
	writeFile(t, filepath.Join(dir, "config"), []byte(`current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "https://127.0.0.1:1", certificate-authority: pki/ca.crt}}]
users: [{name: u, user: {client-certificate: pki/me.crt, client-key: pki/me.key, tokenFile: token}}]
`))
	cfg, err := ConfigFromFlags("", filepath.Join(dir, "config"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if tok := c.tokens.Token(); tok != "tok" {
		t.Errorf("token = %q, want tok", tok)
	}
	tc := c.http.Transport.(*http.Transport).TLSClientConfig
	if tc == nil || tc.RootCAs == nil || len(tc.Certificates) != 1 {
		t.Fatalf("TLS config lacks the CA or the client certificate: %+v", tc)
	}
}
