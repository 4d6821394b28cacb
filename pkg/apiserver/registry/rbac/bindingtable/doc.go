// Package bindingtable prints RoleBindings and ClusterRoleBindings as
// upstream's kubectl shows them: Name, Role and Age, and with -o wide the
// users, groups and service accounts bound.
package bindingtable
