package rest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
)

// In-cluster conventions: the environment variables the node agent sets in
// every container, and where it mounts the pod's service account.
const (
	ServiceHostEnv        = "PLATFORM_SERVICE_HOST"
	ServicePortEnv        = "PLATFORM_SERVICE_PORT"
	ServiceAccountDir     = "/var/run/secrets/platform.io/serviceaccount"
	ServiceAccountToken   = "token"
	ServiceAccountCA      = "ca.crt"
	ServiceAccountNSFile  = "namespace"
	defaultNamespaceValue = "default"
)

// ErrNotInCluster is returned by InClusterConfig outside a pod: the
// service's environment variables are not set.
var ErrNotInCluster = errors.New("rest: not running in a cluster: " + ServiceHostEnv + " and " + ServicePortEnv + " must be set")

// InClusterOptions says where InClusterConfigWith looks; its zero value
// means the real environment and ServiceAccountDir.
type InClusterOptions struct {
	// Getenv defaults to os.Getenv.
	Getenv func(string) string
	// Dir defaults to ServiceAccountDir.
	Dir string
}

func (o InClusterOptions) withDefaults() InClusterOptions {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Dir == "" {
		o.Dir = ServiceAccountDir
	}
	return o
}

// InClusterConfig returns the Config of a pod's own service account: the
// API server's service address from the environment, its CA and the
// account's token from the mounted secret, the token re-read as it rotates.
func InClusterConfig() (*Config, error) { return InClusterConfigWith(InClusterOptions{}) }

// InClusterConfigWith is InClusterConfig reading from where o says.
func InClusterConfigWith(o InClusterOptions) (*Config, error) {
	o = o.withDefaults()
	host, port := o.Getenv(ServiceHostEnv), o.Getenv(ServicePortEnv)
	if host == "" || port == "" {
		return nil, ErrNotInCluster
	}
	token := filepath.Join(o.Dir, ServiceAccountToken)
	if _, err := os.Stat(token); err != nil {
		return nil, fmt.Errorf("rest: in-cluster token: %w", err)
	}
	ca := filepath.Join(o.Dir, ServiceAccountCA)
	if _, err := os.Stat(ca); err != nil {
		return nil, fmt.Errorf("rest: in-cluster CA: %w", err)
	}
	return &Config{
		Host:            "https://" + net.JoinHostPort(host, port),
		TLS:             TLSConfig{CAFile: ca},
		BearerTokenFile: token,
	}, nil
}

// InClusterNamespace returns the pod's namespace from the service account
// mount, "default" when the file is missing.
func InClusterNamespace(o InClusterOptions) (string, error) {
	o = o.withDefaults()
	data, err := os.ReadFile(filepath.Join(o.Dir, ServiceAccountNSFile))
	if errors.Is(err, os.ErrNotExist) {
		return defaultNamespaceValue, nil
	}
	if err != nil {
		return "", fmt.Errorf("rest: in-cluster namespace: %w", err)
	}
	if ns := strings.TrimSpace(string(data)); ns != "" {
		return ns, nil
	}
	return defaultNamespaceValue, nil
}

// ConfigFromFlags builds a Config from the usual --master and --kubeconfig
// flags: the kubeconfig's current context, its server replaced by master
// when that is set (master alone when the kubeconfig has no current context); master alone when there is no kubeconfig; and the
// in-cluster config when both are empty.
func ConfigFromFlags(master, kubeconfigPath string) (*Config, error) {
	if kubeconfigPath == "" {
		if master == "" {
			return InClusterConfig()
		}
		return &Config{Host: master}, nil
	}
	kc, err := LoadKubeconfig(kubeconfigPath)
	if err != nil {
		return nil, err
	}
	cfg, err := kc.ClientConfig("")
	if errors.Is(err, ErrNoCurrentContext) && master != "" {
		return &Config{Host: master}, nil
	}
	if err != nil {
		return nil, err
	}
	if master != "" {
		cfg.Host = master
	}
	return cfg, nil
}
