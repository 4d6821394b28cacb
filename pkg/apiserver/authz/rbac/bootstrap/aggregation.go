package bootstrap

import rbacv1 "platform.io/client/api/rbac/v1"

// Upstream's roles for aggregated API servers, which delegate
// authentication and authorization to the API server: an aggregated
// server's account is bound to AuthDelegatorRole across the cluster and
// to AuthenticationReaderRole in platform-system.
const (
	// AuthDelegatorRole may create TokenReviews and SubjectAccessReviews.
	AuthDelegatorRole = "system:auth-delegator"
	// AuthenticationReaderRole may read the extension-apiserver-authentication
	// ConfigMap (client CA, front-proxy CA and header names).
	AuthenticationReaderRole = "extension-apiserver-authentication-reader"
)

func aggregationClusterRoles() []rbacv1.ClusterRole {
	return []rbacv1.ClusterRole{clusterRole(AuthDelegatorRole, rules(
		rule("create").groups(authnG).resources("tokenreviews"),
		rule("create").groups(authzG).resources("subjectaccessreviews"),
	))}
}

func aggregationRoles() []rbacv1.Role {
	cr := clusterRole(AuthenticationReaderRole, rules(
		rule("get", "list", "watch").groups(legacy).resources("configmaps").names(authConfigMap),
	))
	r := rbacv1.Role{ObjectMeta: cr.ObjectMeta, Rules: cr.Rules}
	r.Namespace = SystemNamespace
	return []rbacv1.Role{r}
}
