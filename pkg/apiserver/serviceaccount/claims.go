package serviceaccount

import "strings"

// Names of the service-account identity, as upstream forms them.
const (
	// UsernamePrefix starts every service account's user name:
	// system:serviceaccount:<namespace>:<name>.
	UsernamePrefix = "system:serviceaccount:"
	// AllServiceAccountsGroup holds every service account.
	AllServiceAccountsGroup = "system:serviceaccounts"
	// NamespaceGroupPrefix plus a namespace is the group of its service accounts.
	NamespaceGroupPrefix = "system:serviceaccounts:"
	// PodNameKey and PodUIDKey are the user extras of a pod-bound token;
	// CredentialIDKey names the token ("JTI=<jti>") for audit.
	PodNameKey      = "authentication.platform.io/pod-name"
	PodUIDKey       = "authentication.platform.io/pod-uid"
	CredentialIDKey = "authentication.platform.io/credential-id"
)

// Username returns the user name of a service account.
func Username(namespace, name string) string {
	return UsernamePrefix + namespace + ":" + name
}

// SplitUsername returns the namespace and name of a service account's user
// name; ok is false for any other user name.
func SplitUsername(username string) (namespace, name string, ok bool) {
	rest, found := strings.CutPrefix(username, UsernamePrefix)
	if !found {
		return "", "", false
	}
	namespace, name, found = strings.Cut(rest, ":")
	if !found || namespace == "" || name == "" || strings.Contains(name, ":") {
		return "", "", false
	}
	return namespace, name, true
}

// Groups returns the groups of a service account in namespace.
func Groups(namespace string) []string {
	return []string{AllServiceAccountsGroup, NamespaceGroupPrefix + namespace}
}

// Ref names an object a token refers to.
type Ref struct {
	Name string `json:"name,omitempty"`
	UID  string `json:"uid,omitempty"`
}

// privateClaims is the token's private claim, upstream's "kubernetes.io"
// under this platform's brand.
type privateClaims struct {
	Platform platformClaims `json:"platform.io"`
}

type platformClaims struct {
	Namespace      string `json:"namespace,omitempty"`
	ServiceAccount Ref    `json:"serviceaccount"`
	Pod            *Ref   `json:"pod,omitempty"`
	Secret         *Ref   `json:"secret,omitempty"`
}
