package rest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestInClusterConfig(t *testing.T) {
	ca, _ := selfSigned(t, "cluster-ca")
	inCluster := map[string]string{ServiceHostEnv: "10.96.0.1", ServicePortEnv: "443"}
	tests := []struct {
		name     string
		env      map[string]string
		files    map[string]string
		wantHost string
		wantErr  string
		wantNS   string
	}{
		{"complete", inCluster, map[string]string{"token": "abc\n", "ca.crt": string(ca), "namespace": "team-b\n"},
			"https://10.96.0.1:443", "", "team-b"},
		{"ipv6", map[string]string{ServiceHostEnv: "fd00::1", ServicePortEnv: "6443"}, map[string]string{"token": "abc", "ca.crt": string(ca)},
			"https://[fd00::1]:6443", "", "default"},
		{"no env", map[string]string{ServiceHostEnv: "10.96.0.1"}, map[string]string{"token": "abc", "ca.crt": string(ca)},
			"", "not running in a cluster", ""},
		{"no token", inCluster, map[string]string{"ca.crt": string(ca)}, "", "token", ""},
		{"no ca", inCluster, map[string]string{"token": "abc"}, "", "CA", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tt.files {
				writeFile(t, filepath.Join(dir, name), []byte(data))
			}
			opts := InClusterOptions{Getenv: env(tt.env), Dir: dir}
			cfg, err := InClusterConfigWith(opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Host != tt.wantHost || cfg.TLS.CAFile != filepath.Join(dir, "ca.crt") || cfg.BearerTokenFile != filepath.Join(dir, "token") {
				t.Fatalf("config = %s", cfg)
			}
			c, err := NewClient(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if tok := c.tokens.Token(); tok != "abc" {
				t.Errorf("token = %q", tok)
			}
			if ns, err := InClusterNamespace(opts); err != nil || ns != tt.wantNS {
				t.Errorf("namespace = %q, %v; want %q", ns, err, tt.wantNS)
			}
		})
	}
	if !errors.Is(func() error { _, err := InClusterConfigWith(InClusterOptions{Getenv: env(nil)}); return err }(), ErrNotInCluster) {
		t.Error("an empty environment is not ErrNotInCluster")
	}
}

func TestConfigFromFlags(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	writeFile(t, path, []byte(`current-context: c
contexts: [{name: c, context: {cluster: k, user: u}}]
clusters: [{name: k, cluster: {server: "http://from-file:1"}}]
users: [{name: u, user: {token: t}}]
`))
	noContext := filepath.Join(dir, "nocontext")
	writeFile(t, noContext, []byte("clusters: []\n"))
	tests := []struct {
		name, master, path string
		wantHost, wantTok  string
		wantErr            string
	}{
		{"kubeconfig", "", path, "http://from-file:1", "t", ""},
		{"master overrides", "http://master:2", path, "http://master:2", "t", ""},
		{"master alone", "http://master:2", "", "http://master:2", "", ""},
		{"master without context", "http://master:2", noContext, "http://master:2", "", ""},
		{"no context", "", noContext, "", "", "current-context"},
		{"missing file", "", filepath.Join(dir, "nope"), "", "", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ConfigFromFlags(tt.master, tt.path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Host != tt.wantHost || cfg.BearerToken != tt.wantTok {
				t.Fatalf("config = %s, token %q", cfg, cfg.BearerToken)
			}
		})
	}
	if os.Getenv(ServiceHostEnv) == "" {
		if _, err := ConfigFromFlags("", ""); !errors.Is(err, ErrNotInCluster) {
			t.Errorf("no flags outside a cluster: %v, want ErrNotInCluster", err)
		}
	}
}
