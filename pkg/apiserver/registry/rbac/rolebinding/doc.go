// Package rolebinding is the registry row of rbac.authorization.platform.io/v1
// rolebindings, which grant a Role or ClusterRole in one namespace; only a
// user who holds the role's rules there (or may bind it) writes one.
package rolebinding
