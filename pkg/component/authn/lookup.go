package authn

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	corev1 "platform.io/client/api/core/v1"
	"platform.io/client/rest"
)

// Where the API server publishes its authentication settings, and the keys
// it uses.
const (
	ConfigMapNamespace = "platform-system"
	ConfigMapName      = "extension-apiserver-authentication"

	KeyClientCA                 = "client-ca-file"
	KeyRequestHeaderClientCA    = "requestheader-client-ca-file"
	KeyRequestHeaderAllowed     = "requestheader-allowed-names"
	KeyRequestHeaderUsername    = "requestheader-username-headers"
	KeyRequestHeaderGroup       = "requestheader-group-headers"
	KeyRequestHeaderExtraPrefix = "requestheader-extra-headers-prefix"
)

// ClusterConfig is the authentication configuration the API server
// publishes; an empty field was not published.
type ClusterConfig struct {
	// ClientCA and RequestHeaderClientCA are PEM bundles.
	ClientCA              []byte
	RequestHeaderClientCA []byte
	AllowedNames          []string
	UsernameHeaders       []string
	GroupHeaders          []string
	ExtraHeaderPrefixes   []string
}

// Lookup reads the ConfigMap the API server publishes through client.
func Lookup(ctx context.Context, client *rest.Client) (*ClusterConfig, error) {
	var cm corev1.ConfigMap
	err := client.Get().Version("v1").Namespace(ConfigMapNamespace).Resource("configmaps").Name(ConfigMapName).
		Do(ctx).Into(&cm)
	if err != nil {
		return nil, fmt.Errorf("authn: look up %s/%s: %w", ConfigMapNamespace, ConfigMapName, err)
	}
	return ParseClusterConfig(cm.Data), nil
}

// ParseClusterConfig reads the ConfigMap's data. List values are JSON
// arrays of strings, as upstream writes them; a value that is not JSON is
// read as a comma-separated list.
func ParseClusterConfig(data map[string]string) *ClusterConfig {
	return &ClusterConfig{
		ClientCA:              []byte(data[KeyClientCA]),
		RequestHeaderClientCA: []byte(data[KeyRequestHeaderClientCA]),
		AllowedNames:          parseList(data[KeyRequestHeaderAllowed]),
		UsernameHeaders:       parseList(data[KeyRequestHeaderUsername]),
		GroupHeaders:          parseList(data[KeyRequestHeaderGroup]),
		ExtraHeaderPrefixes:   parseList(data[KeyRequestHeaderExtraPrefix]),
	}
}

func parseList(v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	var list []string
	if err := json.Unmarshal([]byte(v), &list); err == nil {
		return list
	}
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			list = append(list, s)
		}
	}
	return list
}
