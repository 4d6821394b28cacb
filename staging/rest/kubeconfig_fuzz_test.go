package rest

import (
	"errors"
	"path/filepath"
	"testing"
)

// FuzzKubeconfig parses arbitrary kubeconfig files: that must never panic;
// every file path a parsed kubeconfig names must come out absolute; and
// the current context's client config, when there is one, must carry the
// server its cluster names, and only a file without current-context has
// ErrNoCurrentContext.
func FuzzKubeconfig(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:6443\n    certificate-authority: ca.crt\n" +
			"users:\n- name: u\n  user:\n    client-certificate: u.crt\n    client-key: u.key\n" +
			"contexts:\n- name: x\n  context:\n    cluster: c\n    user: u\n    namespace: ns\ncurrent-context: x\n",
		`{"clusters":[{"name":"c","cluster":{"server":"http://h","certificate-authority-data":"LS0t"}}],"contexts":[{"name":"x","context":{"cluster":"c"}}],"current-context":"x"}`,
		"users:\n- name: u\n  user:\n    exec: {command: x}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n",
		"current-context: missing\n",
		"clusters: 5\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		kc, err := parseKubeconfig(data, "/etc/platform/admin.kubeconfig")
		if err != nil {
			return
		}
		for _, c := range kc.Clusters {
			mustBeAbsolute(t, c.Cluster.CertificateAuthority)
		}
		for _, u := range kc.Users {
			mustBeAbsolute(t, u.User.ClientCertificate)
			mustBeAbsolute(t, u.User.ClientKey)
			mustBeAbsolute(t, u.User.TokenFile)
		}
		cfg, err := kc.ClientConfig("")
		if _, nsErr := kc.Namespace(""); nsErr != nil && err == nil {
			t.Fatalf("no namespace for the current context (%v), yet a client config", nsErr)
		}
		if errors.Is(err, ErrNoCurrentContext) != (kc.CurrentContext == "") {
			t.Fatalf("current-context %q, error %v", kc.CurrentContext, err)
		}
		if err != nil {
			return
		}
		name, ctx, _ := kc.context("")
		cluster, ok := findNamed(kc.Clusters, func(c NamedCluster) string { return c.Name }, ctx.Cluster)
		if !ok || cfg.Host != cluster.Cluster.Server || cfg.Host == "" {
			t.Fatalf("context %q: host %q, cluster %+v (found %v)", name, cfg.Host, cluster, ok)
		}
	})
}

func mustBeAbsolute(t *testing.T, path string) {
	t.Helper()
	if path != "" && !filepath.IsAbs(path) {
		t.Fatalf("path %q is not absolute", path)
	}
}
