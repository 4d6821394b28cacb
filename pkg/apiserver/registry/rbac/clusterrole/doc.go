// Package clusterrole is the registry row of rbac.authorization.platform.io/v1
// clusterroles: cluster-wide rules, possibly aggregated from other
// ClusterRoles by label, written only by users who hold them (or may
// escalate).
package clusterrole
