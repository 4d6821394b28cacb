package v1

import "platform.io/client/api/meta"

// ConfigMap holds non-secret configuration for pods to consume.
type ConfigMap struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Immutable, once true, forbids changes to Data and BinaryData.
	Immutable *bool `json:"immutable,omitempty" protobuf:"varint,4,opt,name=immutable"`
	// Data holds UTF-8 values; its keys must not also appear in BinaryData.
	Data map[string]string `json:"data,omitempty" protobuf:"bytes,2,rep,name=data"`
	// BinaryData holds arbitrary bytes, base64-encoded in JSON.
	BinaryData map[string][]byte `json:"binaryData,omitempty" protobuf:"bytes,3,rep,name=binaryData"`
}

// ConfigMapList is a list of config maps.
type ConfigMapList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []ConfigMap `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// MaxSecretSize is the largest total size of a secret's data, in bytes.
const MaxSecretSize = 1 * 1024 * 1024

// Secret holds sensitive data such as passwords, tokens and keys.
type Secret struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Immutable, once true, forbids changes to Data.
	Immutable *bool `json:"immutable,omitempty" protobuf:"varint,5,opt,name=immutable"`
	// Data holds the secret's values, base64-encoded in JSON.
	Data map[string][]byte `json:"data,omitempty" protobuf:"bytes,2,rep,name=data"`
	// StringData is a write-only convenience: its entries are merged into Data
	// on write and it is never returned.
	StringData map[string]string `json:"stringData,omitempty" protobuf:"bytes,4,rep,name=stringData"`
	Type       SecretType        `json:"type,omitempty" protobuf:"bytes,3,opt,name=type,casttype=SecretType"`
}

// SecretList is a list of secrets.
type SecretList struct {
	meta.TypeMeta `json:",inline"`
	meta.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	Items []Secret `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// SecretType tells consumers what keys a secret carries.
type SecretType string

// The built-in secret types and the keys they use.
const (
	// SecretTypeOpaque is arbitrary user data; it is the default.
	SecretTypeOpaque SecretType = "Opaque"

	// SecretTypeServiceAccountToken holds a token for a service account named
	// by the ServiceAccountNameKey and ServiceAccountUIDKey annotations.
	SecretTypeServiceAccountToken SecretType = "platform.io/service-account-token"
	ServiceAccountNameKey                    = "platform.io/service-account.name"
	ServiceAccountUIDKey                     = "platform.io/service-account.uid"
	ServiceAccountTokenKey                   = "token"
	ServiceAccountKubeconfigKey              = "platform.kubeconfig"
	ServiceAccountRootCAKey                  = "ca.crt"
	ServiceAccountNamespaceKey               = "namespace"

	// SecretTypeDockercfg holds a legacy ~/.dockercfg file under DockerConfigKey.
	SecretTypeDockercfg SecretType = "platform.io/dockercfg"
	DockerConfigKey                = ".dockercfg"

	// SecretTypeDockerConfigJson holds a ~/.docker/config.json file under DockerConfigJsonKey.
	SecretTypeDockerConfigJson SecretType = "platform.io/dockerconfigjson"
	DockerConfigJsonKey                   = ".dockerconfigjson"

	// SecretTypeBasicAuth holds a username and/or password.
	SecretTypeBasicAuth  SecretType = "platform.io/basic-auth"
	BasicAuthUsernameKey            = "username"
	BasicAuthPasswordKey            = "password"

	// SecretTypeSSHAuth holds an SSH private key.
	SecretTypeSSHAuth SecretType = "platform.io/ssh-auth"
	SSHAuthPrivateKey            = "ssh-privatekey"

	// SecretTypeTLS holds a certificate and its private key.
	SecretTypeTLS    SecretType = "platform.io/tls"
	TLSCertKey                  = "tls.crt"
	TLSPrivateKeyKey            = "tls.key"

	// SecretTypeBootstrapToken holds a token used while nodes join the cluster.
	SecretTypeBootstrapToken SecretType = "bootstrap.platform.io/token"
)
