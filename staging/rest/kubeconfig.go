package rest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// ErrNoCurrentContext is returned when a context is asked for by default
// and the kubeconfig sets no current-context.
var ErrNoCurrentContext = errors.New("rest: the kubeconfig sets no current-context")

// Kubeconfig is a kubeconfig file, as kubectl reads and writes it. Only the
// fields a Config can use are read; the rest of the file is ignored.
type Kubeconfig struct {
	// Path is the file it was loaded from.
	Path           string         `json:"-"`
	Clusters       []NamedCluster `json:"clusters"`
	Users          []NamedUser    `json:"users"`
	Contexts       []NamedContext `json:"contexts"`
	CurrentContext string         `json:"current-context"`
}

// NamedCluster is an entry of clusters.
type NamedCluster struct {
	Name    string  `json:"name"`
	Cluster Cluster `json:"cluster"`
}

// Cluster is how to reach a server. The -data fields are base64 in the
// file and PEM once loaded.
type Cluster struct {
	Server                   string `json:"server"`
	CertificateAuthority     string `json:"certificate-authority,omitempty"`
	CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	InsecureSkipTLSVerify    bool   `json:"insecure-skip-tls-verify,omitempty"`
	TLSServerName            string `json:"tls-server-name,omitempty"`
}

// NamedUser is an entry of users.
type NamedUser struct {
	Name string `json:"name"`
	User User   `json:"user"`
}

// User is how to authenticate. Exec and AuthProvider plugins are not
// supported; a user that names one is refused rather than sent unsigned.
type User struct {
	ClientCertificate     string          `json:"client-certificate,omitempty"`
	ClientCertificateData []byte          `json:"client-certificate-data,omitempty"`
	ClientKey             string          `json:"client-key,omitempty"`
	ClientKeyData         []byte          `json:"client-key-data,omitempty"`
	Token                 string          `json:"token,omitempty"`
	TokenFile             string          `json:"tokenFile,omitempty"`
	Exec                  json.RawMessage `json:"exec,omitempty"`
	AuthProvider          json.RawMessage `json:"auth-provider,omitempty"`
}

// NamedContext is an entry of contexts.
type NamedContext struct {
	Name    string  `json:"name"`
	Context Context `json:"context"`
}

// Context pairs a cluster with a user and a default namespace.
type Context struct {
	Cluster   string `json:"cluster"`
	User      string `json:"user"`
	Namespace string `json:"namespace,omitempty"`
}

// LoadKubeconfig reads a kubeconfig file, YAML or JSON. Relative file paths
// in it are resolved against the file's directory, as kubectl does.
func LoadKubeconfig(path string) (*Kubeconfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("rest: reading kubeconfig: %w", err)
	}
	return parseKubeconfig(data, path)
}

// parseKubeconfig reads the kubeconfig data loaded from path.
func parseKubeconfig(data []byte, path string) (*Kubeconfig, error) {
	kc := &Kubeconfig{}
	if err := yaml.Unmarshal(data, kc); err != nil {
		return nil, fmt.Errorf("rest: parsing kubeconfig %q: %w", path, err)
	}
	kc.Path = path
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("rest: kubeconfig %q: %w", path, err)
	}
	for i := range kc.Clusters {
		c := &kc.Clusters[i].Cluster
		c.CertificateAuthority = resolve(dir, c.CertificateAuthority)
	}
	for i := range kc.Users {
		u := &kc.Users[i].User
		u.ClientCertificate = resolve(dir, u.ClientCertificate)
		u.ClientKey = resolve(dir, u.ClientKey)
		u.TokenFile = resolve(dir, u.TokenFile)
	}
	return kc, nil
}

// resolve makes a relative path absolute under dir.
func resolve(dir, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// context returns the named context, or the current one for "".
func (kc *Kubeconfig) context(name string) (string, Context, error) {
	if name == "" {
		if kc.CurrentContext == "" {
			return "", Context{}, ErrNoCurrentContext
		}
		name = kc.CurrentContext
	}
	for _, c := range kc.Contexts {
		if c.Name == name {
			return name, c.Context, nil
		}
	}
	return "", Context{}, fmt.Errorf("rest: kubeconfig %q has no context %q", kc.Path, name)
}

// ClientConfig returns the Config of a context; "" means current-context.
func (kc *Kubeconfig) ClientConfig(context string) (*Config, error) {
	name, ctx, err := kc.context(context)
	if err != nil {
		return nil, err
	}
	cluster, ok := findNamed(kc.Clusters, func(c NamedCluster) string { return c.Name }, ctx.Cluster)
	if !ok {
		return nil, fmt.Errorf("rest: context %q names cluster %q, which the kubeconfig lacks", name, ctx.Cluster)
	}
	if cluster.Cluster.Server == "" {
		return nil, fmt.Errorf("rest: cluster %q has no server", ctx.Cluster)
	}
	c := cluster.Cluster
	cfg := &Config{Host: c.Server, TLS: TLSConfig{
		CAFile: c.CertificateAuthority, CAData: c.CertificateAuthorityData,
		Insecure: c.InsecureSkipTLSVerify, ServerName: c.TLSServerName,
	}}
	if ctx.User == "" {
		return cfg, nil
	}
	user, ok := findNamed(kc.Users, func(u NamedUser) string { return u.Name }, ctx.User)
	if !ok {
		return nil, fmt.Errorf("rest: context %q names user %q, which the kubeconfig lacks", name, ctx.User)
	}
	u := user.User
	if len(u.Exec) > 0 || len(u.AuthProvider) > 0 {
		return nil, fmt.Errorf("rest: user %q uses an exec or auth-provider plugin, which this client does not support", ctx.User)
	}
	cfg.TLS.CertFile, cfg.TLS.CertData = u.ClientCertificate, u.ClientCertificateData
	cfg.TLS.KeyFile, cfg.TLS.KeyData = u.ClientKey, u.ClientKeyData
	cfg.BearerToken, cfg.BearerTokenFile = u.Token, u.TokenFile
	return cfg, nil
}

// Namespace returns the namespace of a context ("" means current-context),
// "default" when it sets none.
func (kc *Kubeconfig) Namespace(context string) (string, error) {
	_, ctx, err := kc.context(context)
	if err != nil {
		return "", err
	}
	if ctx.Namespace == "" {
		return "default", nil
	}
	return ctx.Namespace, nil
}

// findNamed returns the entry of list called name.
func findNamed[T any](list []T, nameOf func(T) string, name string) (T, bool) {
	for _, e := range list {
		if nameOf(e) == name {
			return e, true
		}
	}
	var zero T
	return zero, false
}
