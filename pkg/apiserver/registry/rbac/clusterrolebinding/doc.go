// Package clusterrolebinding is the registry row of
// rbac.authorization.platform.io/v1 clusterrolebindings, which grant a
// ClusterRole everywhere; only a user who holds its rules cluster-wide (or
// may bind it) writes one.
package clusterrolebinding
