// Package v1 holds rbac.authorization.platform.io/v1: Role and ClusterRole
// (sets of permission rules, a ClusterRole possibly aggregated from others
// by label), and RoleBinding and ClusterRoleBinding, which grant a role to
// users, groups and service accounts. JSON names and protobuf numbers match
// upstream's rbac v1 wire format.
//
//go:generate go run ../../../hack/protogen
package v1
